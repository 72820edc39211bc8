import { pc } from './colors.js';

/** Text cut to at most `max` terminal columns, with an ellipsis, never inside a character: a cell of `renderTable`. */
export interface Clipped {
  readonly text: string;
  readonly max: number;
}

export type Cell = string | Clipped;

/** A cell of `renderTable` cut to `max` columns (whitespace runs become one space). */
export function clip(text: string, max: number): Clipped {
  return { text: text.replace(/\s+/g, ' '), max };
}

/**
 * A plain text table: padded columns, a dim header rule. Colour only when stdout is a TTY.
 * Widths are terminal columns (string-width): a CJK character or an emoji takes two, a
 * combining mark none, colour codes none. Async because string-width is loaded only when a
 * cell holds more than printable ASCII: loading it costs about 60 ms (its grapheme segmenter
 * and emoji tables), a third of a command's start-up.
 */
export async function renderTable(headers: string[], rows: Cell[][]): Promise<string> {
  const width = await widthFor([...headers, ...rows.flat().map((cell) => (typeof cell === 'string' ? cell : cell.text))]);
  const cells = rows.map((row) => row.map((cell) => (typeof cell === 'string' ? cell : cut(cell, width))));
  const widths = headers.map((h, i) => Math.max(width(h), ...cells.map((r) => width(r[i] ?? ''))));
  const line = (texts: string[]) =>
    texts
      .map((c, i) => c + ' '.repeat(Math.max(0, (widths[i] ?? 0) - width(c))))
      .join('  ')
      .trimEnd();
  return [pc.bold(line(headers)), pc.dim(widths.map((w) => '-'.repeat(w)).join('  ')), ...cells.map(line)].join('\n');
}

type Width = (text: string) => number;

// picocolors' colour codes (SGR): no width
// biome-ignore lint/suspicious/noControlCharactersInRegex: picocolors' SGR sequences start with ESC; they are matched so that they count as no width
const COLOUR_CODES = /\u001b\[[\d;]*m/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const asciiWidth: Width = (text) => text.replace(COLOUR_CODES, '').length;
let stringWidth: Promise<Width> | undefined;

/** Columns per text: the length for printable ASCII, string-width (loaded once, on the first other text) otherwise. */
async function widthFor(texts: string[]): Promise<Width> {
  if (texts.every((text) => PRINTABLE_ASCII.test(text.replace(COLOUR_CODES, '')))) return asciiWidth;
  stringWidth ??= import('string-width').then((module) => module.default);
  return stringWidth;
}

let segmenter: Intl.Segmenter | undefined;

function cut({ text, max }: Clipped, width: Width): string {
  if (width(text) <= max) return text;
  if (width === asciiWidth) return `${text.slice(0, Math.max(0, max - 1))}…`;
  segmenter ??= new Intl.Segmenter();
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const next = width(segment);
    if (used + next > max - 1) break;
    out += segment;
    used += next;
  }
  return `${out}…`;
}

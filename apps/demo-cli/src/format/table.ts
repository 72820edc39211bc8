import stringWidth from 'string-width';
import { pc } from './colors.js';

/**
 * A plain text table: padded columns, a dim header rule. Colour only when stdout is a TTY.
 * Widths are terminal columns (string-width): a CJK character or an emoji takes two, a
 * combining mark none, colour codes none.
 */
export function renderTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(stringWidth(h), ...rows.map((r) => stringWidth(r[i] ?? ''))));
  const line = (cells: string[]) => cells.map((c, i) => c + ' '.repeat(Math.max(0, (widths[i] ?? 0) - stringWidth(c)))).join('  ').trimEnd();
  return [pc.bold(line(headers)), pc.dim(widths.map((w) => '-'.repeat(w)).join('  ')), ...rows.map(line)].join('\n');
}

const segmenter = new Intl.Segmenter();

/** Cuts text to at most `max` terminal columns with an ellipsis, never inside a character (grapheme). */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  if (stringWidth(flat) <= max) return flat;
  let out = '';
  let width = 0;
  for (const { segment } of segmenter.segment(flat)) {
    const next = stringWidth(segment);
    if (width + next > max - 1) break;
    out += segment;
    width += next;
  }
  return `${out}…`;
}

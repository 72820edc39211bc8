import { pc } from './colors.js';

/** A plain text table: padded columns, a dim header rule. Colour only when stdout is a TTY. */
export function renderTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(visible(h).length, ...rows.map((r) => visible(r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c + ' '.repeat(Math.max(0, (widths[i] ?? 0) - visible(c).length))).join('  ').trimEnd();
  return [pc.bold(line(headers)), pc.dim(widths.map((w) => '-'.repeat(w)).join('  ')), ...rows.map(line)].join('\n');
}

function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** Cuts text to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

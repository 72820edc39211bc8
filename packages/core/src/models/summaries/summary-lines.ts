/**
 * One line of an extractive summary: who said it, on which day, and what. Summaries are plain
 * text (they are stored, embedded and shown as is), so the speaker and the day live in the
 * text itself, in a form the synopsis can read back when it folds summaries together.
 */
export interface SummaryLine {
  /** `8 May 2023`; rendered only when it differs from the previous line's. */
  day: string | undefined;
  /** The speaker's name, else a role label (`User`, `Assistant`). */
  label: string | undefined;
  text: string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_PREFIX = /^\[(\d{1,2} [A-Z][a-z]+ \d{4})\]\s+/;
const LABELLED = /^([\p{L}_][\p{L}\p{N}_ .'-]{0,39}):\s+(\S.*)$/u;

/**
 * `8 May 2023` (UTC): unambiguous in every locale, and the words a question about "May" or
 * "2023" matches.
 */
export function formatDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** `[2 March 2024] Ana: ...`, the day written once per run of lines on the same day. */
export function renderSummaryLines(lines: readonly SummaryLine[]): string {
  let previousDay: string | undefined;
  return lines
    .map((line) => {
      const day = line.day !== undefined && line.day !== previousDay ? `[${line.day}] ` : '';
      previousDay = line.day ?? previousDay;
      return `${day}${line.label === undefined ? '' : `${line.label}: `}${line.text}`;
    })
    .join('\n');
}

/**
 * The lines of a summary rendered by {@link renderSummaryLines} (or any text: unlabelled lines
 * keep a missing label). A line without a day is on the day of the line before it.
 */
export function parseSummaryLines(text: string): SummaryLine[] {
  let day: string | undefined;
  return text.split(/\r?\n/).flatMap((raw) => {
    let line = raw.trim();
    if (line.length === 0) return [];
    const dated = DAY_PREFIX.exec(line);
    if (dated) {
      day = dated[1];
      line = line.slice(dated[0].length);
    }
    const labelled = LABELLED.exec(line);
    return [{ day, label: labelled?.[1], text: labelled?.[2] ?? line }];
  });
}

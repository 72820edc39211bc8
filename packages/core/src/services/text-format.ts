/** `2026-11-20` (UTC): dates in memory lines, so the model can reason about time. */
export function formatDay(epochMs: number): string {
  return isoTime(epochMs).slice(0, 10);
}

/** The time as ISO 8601, or "invalid time (value)" for one a Date cannot hold (a record stored before times were checked). */
export function isoTime(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? `invalid time (${String(epochMs)})` : date.toISOString();
}

/** The first `maxWords` words, with an ellipsis when cut. */
export function truncateWords(text: string, maxWords: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length <= maxWords ? words.join(' ') : `${words.slice(0, maxWords).join(' ')} …`;
}

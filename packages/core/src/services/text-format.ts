/** `2026-11-20` (UTC): dates in memory lines, so the model can reason about time. */
export function formatDay(epochMs: number): string {
  // the edges of Date's range (and NaN) are formatted each time, never cached under a day
  if (!(Math.abs(epochMs) < MAX_CACHED_MS)) return isoTime(epochMs).slice(0, 10);
  const day = Math.floor(epochMs / DAY_MS);
  const known = days.get(day);
  if (known !== undefined) return known;
  const formatted = isoTime(epochMs).slice(0, 10);
  if (days.size >= DAY_CACHE_SIZE) days.clear();
  days.set(day, formatted);
  return formatted;
}

const DAY_MS = 86_400_000;
const MAX_CACHED_MS = 8.64e15 - DAY_MS;
/** Days formatted lately: every memory line carries one, and a context's lines share a few (a Date per line was 3 % of getContext). */
const days = new Map<number, string>();
const DAY_CACHE_SIZE = 4_096;

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

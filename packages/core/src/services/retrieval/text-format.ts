import { boundedMemo } from '../../shared/bounded-memo.js';

/** `2026-11-20` (UTC): dates in memory lines, so the model can reason about time. */
export function formatDay(epochMs: number): string {
  // the edges of Date's range (and NaN) are formatted each time, never kept under a day
  return Math.abs(epochMs) < MAX_KEPT_MS ? dayText(Math.floor(epochMs / DAY_MS)) : isoTime(epochMs).slice(0, 10);
}

const DAY_MS = 86_400_000;
const MAX_KEPT_MS = 8.64e15 - DAY_MS;
/** Days formatted lately: every memory line carries one, and a context's lines share a few (a Date per line was 3 % of getContext). */
const dayText = boundedMemo(4_096, (day: number) => isoTime(day * DAY_MS).slice(0, 10));

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

/** `2026-11-20` (UTC): dates in memory lines, so the model can reason about time. */
export function formatDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** The first `maxWords` words, with an ellipsis when cut. */
export function truncateWords(text: string, maxWords: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length <= maxWords ? words.join(' ') : `${words.slice(0, maxWords).join(' ')} …`;
}

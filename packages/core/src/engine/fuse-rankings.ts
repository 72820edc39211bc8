/**
 * Reciprocal rank fusion: score(id) = sum over lists of 1 / (k + rank). Robust to lists
 * whose scores are on different scales (BM25 vs cosine). Best first; ties by id.
 */
export function fuseRankings(lists: readonly (readonly string[])[], k = 60): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1)));
  }
  return [...scores.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

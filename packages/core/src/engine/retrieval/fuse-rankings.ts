/**
 * Weighted reciprocal rank fusion: score(id) = sum over lists of weight / (k + rank). Robust to
 * lists whose scores are on different scales (BM25 vs cosine). A list of weight 0 adds nothing.
 * Best first; ties by id.
 */
export function fuseRankings(lists: readonly (readonly string[])[], k = 60, weights: readonly number[] = []): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  lists.forEach((list, which) => {
    const weight = weights[which] ?? 1;
    if (weight <= 0) return;
    list.forEach((id, index) => {
      scores.set(id, (scores.get(id) ?? 0) + weight / (k + index + 1));
    });
  });
  const fused: { id: string; score: number }[] = [];
  for (const [id, score] of scores) fused.push({ id, score });
  return fused.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

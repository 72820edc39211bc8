/**
 * Retrieval-quality metrics over ranked results whose items each cover some turn ids (a turn
 * covers itself; a fact or summary covers the turns it was derived from).
 */

/** Evidence ids covered by any of `covered` (each a list of turn ids), as a fraction of all evidence. */
export function evidenceRecall(evidence: readonly string[], covered: Iterable<readonly string[]>): number {
  if (evidence.length === 0) throw new RangeError('evidence recall of a question without evidence');
  const seen = new Set<string>();
  for (const ids of covered) for (const id of ids) seen.add(id);
  return evidence.filter((id) => seen.has(id)).length / evidence.length;
}

/** Fraction of the evidence covered by the first `k` ranked items. */
export function recallAtK(evidence: readonly string[], ranked: readonly (readonly string[])[], k: number): number {
  return evidenceRecall(evidence, ranked.slice(0, k));
}

/**
 * Binary nDCG@k: an item is relevant when it covers an evidence id no better-ranked item
 * covered (so repeating one piece of evidence earns nothing); gain 1 / log2(rank + 1),
 * normalised by the ideal ranking (each evidence id first, one per rank).
 */
export function ndcgAtK(evidence: readonly string[], ranked: readonly (readonly string[])[], k: number): number {
  if (evidence.length === 0) throw new RangeError('nDCG of a question without evidence');
  const wanted = new Set(evidence);
  let dcg = 0;
  ranked.slice(0, k).forEach((ids, index) => {
    const fresh = ids.filter((id) => wanted.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) wanted.delete(id);
    dcg += 1 / Math.log2(index + 2);
  });
  let ideal = 0;
  for (let rank = 0; rank < Math.min(k, evidence.length); rank++) ideal += 1 / Math.log2(rank + 2);
  return dcg / ideal;
}

/** Mean of the values, 0 for none. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

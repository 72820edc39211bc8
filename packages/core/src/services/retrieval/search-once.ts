import type { LexicalHit, LexicalIndex, LexicalQuery } from '../../ports/lexical-index.js';

/**
 * A lexical index that answers a repeated search from the first answer, for the searches of
 * one context assembly: the facts candidates, the fact channel of the turn search and the
 * fact-object expansion all search the namespace's facts for the same words, at depths 3 to
 * 90. A search's best `k` hits are a prefix of its best `k' > k` (BM25 results are exact, ties
 * broken by kind then indexing order), so a shallower search takes the prefix of a deeper one, and a
 * deeper one is searched anew. Not for sharing across calls: the index may change between them.
 * Each search passes `freshAsOf`, the moment the assembly began (by default, when this was
 * made): an index caught up from elsewhere may answer the later searches from the catch-up
 * of an earlier one.
 */
export function searchOnce(lexical: LexicalIndex, freshAsOf: number = performance.now()): LexicalIndex {
  const answered = new Map<string, { k: number; hits: Promise<LexicalHit[]> }>();
  return {
    search(query: LexicalQuery): Promise<LexicalHit[]> {
      const key = JSON.stringify([query.namespace, query.sessionId ?? null, [...new Set(query.kinds)].sort(), query.terms ?? query.text]);
      const k = Math.max(0, Math.floor(query.k));
      const earlier = answered.get(key);
      if (earlier !== undefined && earlier.k >= k) return earlier.hits.then((hits) => hits.slice(0, k));
      const hits = lexical.search({ ...query, freshAsOf });
      answered.set(key, { k, hits });
      return hits;
    },
  };
}

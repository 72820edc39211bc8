import type { MemoryApi } from '@strata/core';
import type { StoredItem } from './session-items.js';

/** An item with the namespace it lives in. */
export interface PlacedItem {
  labels: string[];
  item: StoredItem;
}

/** The most hits strata's search returns for one query. */
const MAX_HITS = 1000;

/**
 * The candidates that strata's retrieval (hybrid BM25 + vector search of the namespace's turns)
 * finds for `query`, best first, each with its fused score, paged. Candidates that are not
 * searchable are never returned, nor are those the query does not reach. The namespace may
 * hold other turns (other LangGraph namespaces, conversations): the search asks for more hits
 * until the page is full, the hits run out, or it reaches strata's limit of 1000.
 */
export async function rankItems(
  memory: MemoryApi,
  namespace: string,
  query: string,
  candidates: readonly PlacedItem[],
  page: { offset: number; limit: number },
): Promise<(PlacedItem & { score: number })[]> {
  const byTurn = new Map(candidates.filter((c) => c.item.searchable).map((c) => [c.item.messageId, c]));
  const wanted = page.offset + page.limit;
  if (byTurn.size === 0 || page.limit === 0) return [];
  let k = Math.min(MAX_HITS, Math.max(30, wanted * 2));
  for (;;) {
    const hits = await memory.search({ namespace, query, k, kinds: ['turn'] });
    const found = hits.flatMap((hit) => {
      const candidate = byTurn.get(hit.id);
      return candidate === undefined ? [] : [{ ...candidate, score: hit.score }];
    });
    if (found.length >= wanted || hits.length < k || k === MAX_HITS) return found.slice(page.offset, wanted);
    k = Math.min(MAX_HITS, k * 4);
  }
}

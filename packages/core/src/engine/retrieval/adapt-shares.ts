import type { Section } from './assemble-context.js';

/** The least share the recent turns keep when the budget moves to recalled material. */
export const RECENT_FLOOR = 0.15;

export interface ShareSignals {
  /** Analyzed terms of the query. */
  queryTerms: readonly string[];
  /** Analyzed terms of each recent (verbatim) turn. */
  recentTerms: readonly (readonly string[])[];
  /** Analyzed terms of each of the best recalled candidates (older turns, summaries). */
  recallTerms: readonly (readonly string[])[];
}

/** The largest share of the query's distinct terms that one of the texts holds. */
export function bestCoverage(queryTerms: readonly string[], texts: readonly (readonly string[])[]): number {
  const asked = new Set(queryTerms);
  if (asked.size === 0) return 0;
  let best = 0;
  for (const terms of texts) {
    const held = new Set(terms.filter((t) => asked.has(t))).size;
    best = Math.max(best, held / asked.size);
  }
  return best;
}

/**
 * The budget split for one query. When a recalled older turn or summary holds more of the
 * query's terms than any recent turn, the question is about an earlier conversation: the recent
 * turns (often small talk by then) keep only {@link RECENT_FLOOR} and the rest of their share
 * goes to recalled material, so the answer is not crowded out. Otherwise the configured split
 * stands. A plain overlap test would not do: in dialogue, names and common words of the query
 * are in the recent turns too. Pure.
 */
export function adaptShares(shares: Readonly<Record<Section, number>>, signals: ShareSignals): { shares: Record<Section, number>; isAdapted: boolean } {
  const isAboutEarlier = bestCoverage(signals.queryTerms, signals.recallTerms) > bestCoverage(signals.queryTerms, signals.recentTerms);
  if (!isAboutEarlier || shares.recent <= RECENT_FLOOR) return { shares: { ...shares }, isAdapted: false };
  return { shares: { ...shares, recent: RECENT_FLOOR, recall: shares.recall + shares.recent - RECENT_FLOOR }, isAdapted: true };
}

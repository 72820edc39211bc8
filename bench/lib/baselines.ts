import { createRequire } from 'node:module';
import { stemmer } from 'stemmer';
import { Bm25Index, TiktokenTokenCounter } from '@strata/core';
import type { DatasetTurn, Persona } from './memory-dataset.js';

/**
 * The baselines strata is compared with on the retrieval-quality set: the newest turns that
 * fit the budget (a last-N window, what a plain chat history keeps), and the turns BM25 ranks
 * best for the question, in rank order, until the budget is spent.
 */

const tokens = new TiktokenTokenCounter();
/** Same per-line cost as a recalled turn in strata's context: date, role, text. */
const lineTokens = (turn: DatasetTurn): number => tokens.count(`- [2025-01-01] ${turn.role}: ${turn.content}`) + 1;

/** A ranking over one persona's turns; returns turn ids, best first. */
export type TurnRanker = (query: string, k: number) => string[];

/** Lower-case words, no stemming, no stop words: BM25 as a first implementation would have it. */
export function plainWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

// stopword ships CommonJS without type declarations; its English list is a plain string[].
const { eng } = createRequire(import.meta.url)('stopword') as { eng: string[] };
const STOCK_STOP_WORDS: ReadonlySet<string> = new Set(eng);

/**
 * Stemming with the stock English stop list, as strata analyzed text before it kept the
 * temporal words ("now", "still", "before", "after"): the "before" row of that change.
 */
export function stockStopWordsStemmed(text: string): string[] {
  return plainWords(text)
    .filter((word) => !STOCK_STOP_WORDS.has(word))
    .map((word) => stemmer(word));
}

/** BM25 over every turn of the persona; `analyze` picks the tokenizer (default: strata's). */
export function bm25Ranker(persona: Persona, analyze?: (text: string) => string[]): TurnRanker {
  const index = new Bm25Index<null>(analyze === undefined ? {} : { analyze });
  for (const session of persona.sessions) for (const turn of session.turns) index.add(turn.id, turn.content, null);
  return (query, k) => index.search(query, k, () => true).map((hit) => hit.id);
}

/** Turns in `ids` order while they fit `budget` tokens (a turn that does not fit is skipped). */
export function packTurns(byId: ReadonlyMap<string, DatasetTurn>, ids: readonly string[], budget: number): string[] {
  const kept: string[] = [];
  let spent = 0;
  for (const id of ids) {
    const turn = byId.get(id);
    if (turn === undefined) continue;
    const cost = lineTokens(turn);
    if (spent + cost > budget) continue;
    kept.push(id);
    spent += cost;
  }
  return kept;
}

/** The newest turns that fit the budget, contiguous (stops at the first that does not fit). */
export function lastWindow(persona: Persona, budget: number): string[] {
  const all = persona.sessions.flatMap((s) => s.turns);
  const kept: string[] = [];
  let spent = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const turn = all[i] as DatasetTurn;
    const cost = lineTokens(turn);
    if (spent + cost > budget) break;
    kept.push(turn.id);
    spent += cost;
  }
  return kept;
}

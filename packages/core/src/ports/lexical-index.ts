/** What a lexical document is: a stored turn, a summary, or a fact. */
export type LexicalKind = 'turn' | 'summary' | 'fact';

/**
 * A {@link LexicalIndex.search} request: BM25 over `text` within one namespace, among the
 * given kinds, at most `k` hits; with `sessionId`, only that session's turns and summaries
 * (facts belong to no session).
 */
export interface LexicalQuery {
  namespace: string;
  text: string;
  kinds: LexicalKind[];
  k: number;
  sessionId?: string;
  /**
   * `text`'s terms by core's `analyzeText`, when the caller has analysed it already (a parsed
   * question, whose every channel searches it): the index reads these instead of analysing
   * `text` again. `text` stays the query as asked.
   */
  terms?: readonly string[];
  /**
   * For an index that keeps a copy caught up from elsewhere: the search may be answered from
   * any catch-up that began at or after this moment (`performance.now()` of this process),
   * not only from one that begins after the search was called. The searches of one context
   * assembly pass the moment it began: every write acknowledged before that is seen.
   */
  freshAsOf?: number;
}

/** One result of {@link LexicalIndex.search}: the record's kind and id, and its BM25 score. */
export interface LexicalHit {
  kind: LexicalKind;
  id: string;
  /** BM25 score, higher is better; comparable only within one result list. */
  score: number;
}

/**
 * Lexical (BM25) search over the turns, summaries and facts of a session store.
 *
 * It has no `index` / `remove` methods yet, on purpose: every adapter so far owns the records
 * it indexes and keeps its index in step inside the same write (one transaction, so the index
 * cannot drift from the store). An index kept apart from the store would add indexing as a
 * new port of its own when one exists.
 */
export interface LexicalIndex {
  /**
   * BM25 search within one namespace, best first, at most `k` hits; equal scores by kind,
   * then the document indexed first (so a search's best `k` are a prefix of its best `k + 1`).
   * Superseded facts are not returned. Text is analyzed with core's `analyzeText` rules (stop
   * words, stemming).
   */
  search(query: LexicalQuery): Promise<LexicalHit[]>;
}

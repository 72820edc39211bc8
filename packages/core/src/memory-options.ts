import type { JobQueue } from './ports/job-queue.js';
import type { KnowledgeBase } from './ports/knowledge-base.js';
import type { LexicalIndex } from './ports/lexical-index.js';
import type { Clock, Embedder, FactExtractor, Summarizer, TokenCounter } from './ports/models.js';
import type { SessionStore } from './ports/session-store.js';
import type { ThreadSelector } from './ports/thread-selector.js';
import type { PolicyInput } from './config/policy.js';
import type { BackgroundErrorListener } from './services/background-errors.js';

/**
 * Everything is optional: by default a memory runs in process with in-memory storage,
 * an in-process queue and the offline models (extractive summarizer, heuristic fact
 * extractor, hashing embeddings, tiktoken counting).
 */
export interface MemoryOptions {
  /**
   * The session store, or a URL naming one: `memory:`, `sqlite:PATH` (`@strata/store-sqlite`),
   * `postgres://user@host:port/db?schema=NAME` (`@strata/store-postgres`). A store object must
   * also implement `TopicStore`, and `LexicalIndex` unless `lexical` is given (the bundled stores do).
   * @defaultValue an in-memory store
   */
  store?: SessionStore | string;
  /**
   * Lexical (BM25) search over the store's turns, summaries and facts. It must see what the
   * store holds; a store that keeps its own index in step with its writes is one already.
   * @defaultValue `store`, which must then implement `LexicalIndex`
   */
  lexical?: LexicalIndex;
  knowledge?: KnowledgeBase;
  queue?: JobQueue;
  summarizer?: Summarizer;
  extractor?: FactExtractor;
  /**
   * Runs when `summarizer` fails for good (final attempt, or a failure retrying cannot fix);
   * its results are marked degraded and re-derived once the summarizer answers again.
   * @defaultValue the offline extractive summarizer, unless `summarizer` is offline itself
   */
  fallbackSummarizer?: Summarizer;
  /**
   * Like `fallbackSummarizer`, for `extractor`.
   * @defaultValue the offline heuristic extractor, unless `extractor` is offline itself
   */
  fallbackExtractor?: FactExtractor;
  embeddings?: Embedder;
  tokens?: TokenCounter;
  clock?: Clock;
  /**
   * Chooses which earlier reply a user turn continues (the conversation tree).
   * @defaultValue a `LinearThreadSelector` (no branches)
   */
  threadSelector?: ThreadSelector;
  policy?: PolicyInput;
  /**
   * Told of each failure of work done off the caller's path: planning derivation after an
   * append, re-deriving degraded results, the thread selector, recording topic accesses. Such
   * work is retried or falls back by itself; this is how an app sees it happen.
   * @defaultValue a process warning (`STRATA_BACKGROUND_ERROR`), once per kind
   */
  onError?: BackgroundErrorListener;
}

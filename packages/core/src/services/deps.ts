import type { Policy } from '../config/policy.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { KnowledgeBase } from '../ports/knowledge-base.js';
import type { LexicalIndex } from '../ports/lexical-index.js';
import type { Clock, Embedder, FactExtractor, Summarizer, TokenCounter } from '../ports/models.js';
import type { SessionStore } from '../ports/session-store.js';
import type { ThreadSelector } from '../ports/thread-selector.js';
import type { TopicStore } from '../ports/topic-store.js';
import type { BackgroundErrorListener } from './background-errors.js';

/** The resolved ports and policy a memory runs on. */
export interface MemoryDeps {
  store: SessionStore;
  /** BM25 search over `store`'s turns, summaries and facts (the store itself unless one was given). */
  lexical: LexicalIndex;
  /** The same backend as `store`: topics, the conversation tree, cold storage. */
  topics: TopicStore;
  threads: ThreadSelector;
  /** Told of failures of background work (planning, re-derivation, thread selection, topic accesses). */
  reportError: BackgroundErrorListener;
  knowledge: KnowledgeBase;
  queue: JobQueue;
  summarizer: Summarizer;
  extractor: FactExtractor;
  /** Used when `summarizer` fails for good (degraded mode); absent: failures are thrown. */
  fallbackSummarizer?: Summarizer;
  /** Used when `extractor` fails for good (degraded mode); absent: failures are thrown. */
  fallbackExtractor?: FactExtractor;
  embeddings: Embedder;
  tokens: TokenCounter;
  clock: Clock;
  policy: Policy;
}

/** Tokens a chat message costs beyond its content (role, separators), as OpenAI counts. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

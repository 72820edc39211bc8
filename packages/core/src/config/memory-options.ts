import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import type { JobQueue } from '../ports/job-queue.js';
import type { KnowledgeBase } from '../ports/knowledge-base.js';
import type { Clock, FactExtractor, Summarizer, TokenCounter } from '../ports/models.js';
import type { SessionStore } from '../ports/session-store.js';
import type { PolicyInput } from './policy.js';

/**
 * Everything is optional: by default a memory runs in process with in-memory storage,
 * an in-process queue and the offline models (extractive summarizer, heuristic fact
 * extractor, hashing embeddings, tiktoken counting).
 */
export interface MemoryOptions {
  store?: SessionStore;
  knowledge?: KnowledgeBase;
  queue?: JobQueue;
  summarizer?: Summarizer;
  extractor?: FactExtractor;
  embeddings?: EmbeddingsInterface;
  tokens?: TokenCounter;
  clock?: Clock;
  policy?: PolicyInput;
}

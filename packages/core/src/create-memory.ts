import { z } from 'zod';
import type { MemoryOptions } from './memory-options.js';
import { parseWith } from './config/parse.js';
import { policySchema } from './config/policy.js';
import { createInMemoryKnowledgeBase } from './adapters/knowledge/in-memory-knowledge-base.js';
import { createInMemorySessionStore } from './adapters/in-memory/in-memory-session-store.js';
import { createInProcessJobQueue } from './adapters/queues/in-process-job-queue.js';
import { ExtractiveSummarizer } from './models/summaries/extractive-summarizer.js';
import { HashingEmbeddings } from './models/embeddings/hashing-embeddings.js';
import { ObservationFactExtractor } from './models/facts/observation-fact-extractor.js';
import { TiktokenTokenCounter } from './models/tokens/tiktoken-token-counter.js';
import { openStoreUrl } from './store-url.js';
import { fallbackExtractorFor, fallbackSummarizerFor } from './services/derivation/derive-fallback.js';
import { backgroundErrorReporter } from './services/background-errors.js';
import { Memory } from './services/memory.js';
import { LinearThreadSelector } from './models/threads/linear-thread-selector.js';
import type { LexicalIndex } from './ports/lexical-index.js';
import type { SessionStore } from './ports/session-store.js';
import type { TopicStore } from './ports/topic-store.js';

const port = (methods: string[]) =>
  z.custom<object>((value) => typeof value === 'object' && value !== null && methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function'), {
    message: `must implement ${methods.join(', ')}`,
  });

const lexicalIndex = port(['search']);

const optionsSchema = z
  .object({
    store: z.union([z.string(), port(['write', 'sessions', 'messages', 'summaries', 'facts', 'jobs', 'close', 'writeTopics', 'topics', 'links', 'topicStorage'])]).optional(),
    lexical: lexicalIndex.optional(),
    knowledge: port(['upsert', 'query', 'setCurrent', 'delete', 'count', 'close']).optional(),
    queue: port(['start', 'enqueue', 'pending', 'drain', 'close']).optional(),
    summarizer: port(['summarize', 'consolidate']).optional(),
    extractor: port(['extract']).optional(),
    fallbackSummarizer: port(['summarize', 'consolidate']).optional(),
    fallbackExtractor: port(['extract']).optional(),
    embeddings: port(['embedDocuments', 'embedQuery']).optional(),
    tokens: port(['count']).optional(),
    clock: port(['now']).optional(),
    threadSelector: port(['selectParents']).optional(),
    policy: z.unknown().optional(),
    onError: z.custom<(...args: unknown[]) => unknown>((value) => typeof value === 'function', { message: 'must be a function' }).optional(),
  })
  .refine((o) => o.store === undefined || typeof o.store === 'string' || o.lexical !== undefined || lexicalIndex.safeParse(o.store).success, {
    path: ['store'],
    message: 'must implement LexicalIndex (search) when no `lexical` option is given: pass `lexical`, or a store that implements search',
  });

/**
 * Creates a memory. Every port is injectable; what is not given defaults to the in-process,
 * offline implementations (in-memory store and KB, in-process queue, extractive summarizer,
 * observation fact extractor, hashing embeddings, tiktoken o200k counting). With an LLM-backed
 * summarizer or extractor, the offline one is its fallback (degraded mode). The store can be
 * named by a URL (`memory:`, `sqlite:PATH`, `postgres://...?schema=NAME`), its adapter package
 * loaded then; the memory closes it on close.
 * @throws StrataError CONFIG_INVALID when an option is malformed, or a store URL names no
 *   installed store; the store's own errors when it cannot open (e.g. BACKEND_UNAVAILABLE).
 * @example
 * const memory = await createMemory();
 * const session = await memory.sessions.create({ namespace: 'user-42' });
 * await memory.append(session.id, { role: 'user', content: 'I moved to Berlin last week.' });
 * const { messages, manifest } = await memory.getContext(session.id, { budgetTokens: 1000 });
 * // shared by several app processes (npm install @strata/store-postgres):
 * const shared = await createMemory({ store: process.env.STRATA_STORE }); // postgres://...
 */
export async function createMemory(options: MemoryOptions = {}): Promise<Memory> {
  parseWith(optionsSchema, options, 'createMemory options', 'Pass ports implementing the interfaces exported by @strata/core.', 'CONFIG_INVALID');
  const parsed = parseWith(policySchema, options.policy ?? {}, 'policy', 'See the Policy type for the fields and their ranges.', 'CONFIG_INVALID');
  const embeddings = options.embeddings ?? new HashingEmbeddings();
  // Resolved once here: hashing vectors add noise to real dialogue, a real model earns its place.
  const vectorWeight = parsed.context.vectorWeight ?? (embeddings instanceof HashingEmbeddings ? 0 : 1);
  const policy = { ...parsed, context: { ...parsed.context, vectorWeight } };
  const tokens = options.tokens ?? new TiktokenTokenCounter();
  const summarizer = options.summarizer ?? new ExtractiveSummarizer({ tokens });
  const extractor = options.extractor ?? new ObservationFactExtractor();
  // An offline primary is never degraded: it has no fallback.
  const fallbackSummarizer = fallbackSummarizerFor(summarizer, options.fallbackSummarizer, tokens);
  const fallbackExtractor = fallbackExtractorFor(extractor, options.fallbackExtractor);
  // The schema checked that a given store implements TopicStore too, and LexicalIndex unless one was given.
  const store = (typeof options.store === 'string' ? await openStoreUrl(options.store) : (options.store ?? (await createInMemorySessionStore()))) as SessionStore & TopicStore;
  const memory = new Memory({
    store,
    lexical: options.lexical ?? (store as typeof store & LexicalIndex),
    topics: store,
    threads: options.threadSelector ?? new LinearThreadSelector(),
    knowledge: options.knowledge ?? (await createInMemoryKnowledgeBase()),
    queue: options.queue ?? (await createInProcessJobQueue()),
    summarizer,
    extractor,
    ...(fallbackSummarizer ? { fallbackSummarizer } : {}),
    ...(fallbackExtractor ? { fallbackExtractor } : {}),
    embeddings,
    tokens,
    clock: options.clock ?? { now: () => Date.now() },
    policy,
    reportError: backgroundErrorReporter(options.onError),
  });
  await memory.start();
  return memory;
}

import { StrataError } from '@strata/core/errors';
import {
  createMemory,
  createWorkerThreadJobQueue,
  ExtractiveSummarizer,
  HashingEmbeddings,
  LinearThreadSelector,
  ObservationFactExtractor,
  TiktokenTokenCounter,
  type FactExtractor,
  type JobQueue,
  type ThreadSelector,
  type KnowledgeBase,
  type Memory,
  type PolicyInput,
  type Summarizer,
  type TokenCounter,
  type Embedder,
} from '@strata/core';
import { createSqliteKnowledgeBase } from '@strata/store-sqlite';
import type { DeriveQueueName, WorkerEvent, WorkerHandle } from '@strata/worker';
import type { ChatAssistant } from './chat/assistant.js';
import { OfflineAssistant } from './chat/offline-assistant.js';
import type { CliConfig } from './config.js';
import { count, note } from './format/output.js';
import type { CountMessages } from './session-counts.js';
import { memoryFile, openSessionStore, refuseFileSettings, sealed, shownStore } from './store-wiring.js';

/**
 * The composition root of the `strata` command: the only place that chooses adapters.
 * Embedded default: one SQLite file (session store + knowledge base) in the data dir,
 * the in-process queue and the offline models. Config switches the knowledge base to
 * Chroma, the queue to BullMQ on Redis, and the models to an OpenAI-compatible endpoint.
 */
export interface Wiring {
  /** Where the data lives, for people. */
  storage: string;
  path: string;
  memory: Memory;
  /** Who answers in `strata chat`: the configured LLM, or the offline assistant. */
  assistant: ChatAssistant;
  /** Messages per session from the session store's index (listings show counts without reading the messages). */
  countMessages: CountMessages;
}

export interface WireOptions {
  /** File name in the data dir. @defaultValue 'memory.sqlite' */
  file?: string;
  policy?: PolicyInput;
  /** Offline models and the in-process queue whatever the config says (the demo). */
  offline?: boolean;
}

/** The models behind derivation (and the chat), chosen once from the config. */
interface Models {
  summarizer: Summarizer;
  extractor: FactExtractor;
  embeddings: Embedder;
  /** Names the vector space (Chroma keeps one collection per model and dimension). */
  embeddingsModel: { name: string; dimensions: number | undefined };
  tokens: TokenCounter;
  assistant: ChatAssistant;
  /** Which earlier reply a user turn continues: the LLM picks when one is configured. */
  threadSelector: ThreadSelector;
  /** No model endpoint: summaries, facts and embeddings are the offline defaults. */
  isOffline: boolean;
}

export async function wireMemory(config: CliConfig, options: WireOptions = {}): Promise<Wiring> {
  const place = storePlace(config, options);
  const models = await wireModels(options.offline ? {} : config);
  // with Chroma the file path is not used
  const knowledge = await wireKnowledge(config, place.file ?? '', models.embeddingsModel);
  const queue = await wireQueue(config, options, models.isOffline);
  const store = await openSessionStore(config, place.file);
  const memory = await createMemory({
    store,
    knowledge,
    summarizer: models.summarizer,
    extractor: models.extractor,
    embeddings: models.embeddings,
    tokens: models.tokens,
    threadSelector: models.threadSelector,
    ...(queue ? { queue } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
  });
  if (place.file !== undefined && options.file === undefined) await noteUnindexedFacts(memory, knowledge, config);
  return { memory, path: place.shown, storage: place.storage, assistant: models.assistant, countMessages: (ids) => store.countMessages(ids) };
}

/**
 * Where the memory lives: the SQLite file (and Chroma when configured), or, with `--store`,
 * PostgreSQL and Chroma, servers that every app process and worker shares. A knowledge base
 * in a local file would differ from process to process, so a PostgreSQL store requires Chroma.
 */
function storePlace(config: CliConfig, options: WireOptions): { file?: string; shown: string; storage: string } {
  if (config.store !== undefined) {
    refuseFileSettings(config.store, config);
    const shown = shownStore(config.store);
    if (config.chromaUrl === undefined) {
      throw new StrataError('CONFIG_INVALID', `--store ${shown} keeps sessions on PostgreSQL, but the knowledge base has no shared home`, {
        hint: 'Add --chroma-url (or STRATA_CHROMA_URL) so that every process shares one vector store, e.g. --chroma-url http://127.0.0.1:8765 (scripts/services.sh up starts one).',
      });
    }
    return { shown, storage: `${shown} (PostgreSQL session store) + Chroma at ${config.chromaUrl} (knowledge base)` };
  }
  const file = memoryFile(config, options.file);
  const storage = config.chromaUrl ? `${file} (SQLite session store) + Chroma at ${config.chromaUrl} (knowledge base)` : `${file} (SQLite: session store and knowledge base in one file)`;
  return { file, shown: file, storage };
}

/**
 * Facts the knowledge base does not hold (a Chroma URL just switched on or off, another
 * embeddings model): search and contexts would miss them without a word, so every command
 * says so until `strata reindex` indexes the file into it.
 */
async function noteUnindexedFacts(memory: Memory, knowledge: KnowledgeBase, config: CliConfig): Promise<void> {
  const stored = (await memory.facts.list({ namespace: config.namespace })).length;
  if (stored === 0 || (await knowledge.count({ namespace: config.namespace, kinds: ['fact'], currentOnly: true })) > 0) return;
  const where = config.chromaUrl ? `on Chroma at ${config.chromaUrl}` : 'in the SQLite file';
  note(
    `note: the knowledge base ${where} holds none of the ${count(stored, 'current fact')} of namespace "${config.namespace}" in this file: search and contexts miss them. Index them with: strata${config.chromaUrl ? ` --chroma-url ${config.chromaUrl}` : ''} reindex`,
  );
}

/**
 * BullMQ when Redis is configured; else the offline models derive on a worker thread, so a
 * chat stays responsive while a long import derives. Model endpoints are I/O: their calls
 * stay on the in-process queue (createMemory's default), where the given instances live.
 */
async function wireQueue(config: CliConfig, options: WireOptions, isOffline: boolean): Promise<JobQueue | undefined> {
  if (config.redisUrl && !options.offline) {
    const { createBullMqJobQueue } = await import('@strata/worker');
    return createBullMqJobQueue({ url: config.redisUrl, prefix: config.redisPrefix });
  }
  return isOffline ? createWorkerThreadJobQueue({ policy: options.policy ?? {} }) : undefined;
}

/**
 * The models, offline unless the config names endpoints. LangChain and the OpenAI client are
 * loaded only then: an offline command does not pay for importing them.
 */
async function wireModels(config: Pick<CliConfig, 'llm' | 'embeddings'>): Promise<Models> {
  const tokens = new TokenCounterOnFirstUse();
  const endpoints = config.llm || config.embeddings ? await import('./endpoint-models.js') : undefined;
  const llm = config.llm ? endpoints?.createEndpointModels(config.llm, config.embeddings) : undefined;
  const remote = config.embeddings ? (llm?.embeddings ?? endpoints?.createEndpointEmbeddings(config.embeddings)) : undefined;
  const hashing = new HashingEmbeddings();
  return {
    summarizer: llm?.summarizer ?? new ExtractiveSummarizer({ tokens }),
    extractor: llm?.extractor ?? new ObservationFactExtractor(),
    embeddings: remote ?? hashing,
    embeddingsModel: config.embeddings ? { name: config.embeddings.model, dimensions: config.embeddings.dimensions } : { name: hashing.modelName, dimensions: hashing.dimensions },
    tokens,
    assistant: llm?.assistant ?? new OfflineAssistant(),
    threadSelector: llm?.threadSelector ?? new LinearThreadSelector(),
    isOffline: llm === undefined && remote === undefined,
  };
}

/**
 * The o200k counter, made on the first count: its tables take about 250 ms to load, and
 * `strata sessions`, `show`, `forget` or `export` never count a token.
 */
class TokenCounterOnFirstUse implements TokenCounter {
  private counter: TiktokenTokenCounter | undefined;

  get name(): string {
    return this.made().name;
  }

  count(text: string): number {
    return this.made().count(text);
  }

  private made(): TiktokenTokenCounter {
    this.counter ??= new TiktokenTokenCounter();
    return this.counter;
  }
}

/** The vector index: the SQLite file's own, or a Chroma collection named after the embeddings model. */
async function wireKnowledge(config: CliConfig, path: string, model: Models['embeddingsModel']): Promise<KnowledgeBase> {
  if (!config.chromaUrl) return createSqliteKnowledgeBase({ path, ...sealed(config) });
  if (model.dimensions === undefined) {
    throw new StrataError('CONFIG_INVALID', `a Chroma knowledge base needs the dimensions of the embeddings model ${model.name}`, {
      hint: 'Set STRATA_EMBEDDINGS_DIMENSIONS (e.g. 1536) with STRATA_EMBEDDINGS_MODEL.',
    });
  }
  const { createChromaKnowledgeBase } = await import('@strata/kb-chroma');
  return createChromaKnowledgeBase({ url: config.chromaUrl, embeddingModel: model.name, dimensions: model.dimensions });
}

/** `strata worker`: derivation on BullMQ with the same models as the app. */
export type { DeriveQueueName, WorkerEvent };

export async function wireWorker(config: CliConfig, options: { concurrency: number; queues: DeriveQueueName[]; onEvent: (event: WorkerEvent) => void }): Promise<WorkerHandle> {
  const { summarizer, extractor, embeddings } = await wireModels(config);
  const { startWorker } = await import('@strata/worker');
  return startWorker({ url: requireRedis(config), prefix: config.redisPrefix, models: { summarizer, extractor, embeddings }, ...options });
}

/** Reading and redriving a queue prefix, without running jobs. */
export function wireQueueAdmin(config: CliConfig) {
  const connection = { url: requireRedis(config), prefix: config.redisPrefix };
  const admin = () => import('@strata/worker');
  return {
    stats: async () => (await admin()).readQueueStats(connection),
    failed: async () => (await admin()).listFailedJobs(connection),
    redrive: async () => (await admin()).redriveFailedJobs(connection),
  };
}

function requireRedis(config: CliConfig): string {
  if (config.redisUrl) return config.redisUrl;
  throw new StrataError('CONFIG_INVALID', 'strata worker needs Redis: the in-process queue runs inside each strata command', {
    hint: 'Pass --redis-url redis://127.0.0.1:6379 (or set STRATA_REDIS_URL), the same as the app that enqueues the jobs.',
  });
}

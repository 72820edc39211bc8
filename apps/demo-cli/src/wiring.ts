import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai';
import { createMemory, HashingEmbeddings, StrataError, type JobQueue, type KnowledgeBase, type Memory, type MemoryOptions, type PolicyInput } from '@strata/core';
import { createChromaKnowledgeBase } from '@strata/kb-chroma';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import type { ChatAssistant } from './chat/assistant.js';
import { ModelAssistant } from './chat/model-assistant.js';
import { OfflineAssistant } from './chat/offline-assistant.js';
import type { CliConfig, Endpoint } from './config.js';

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
}

export interface WireOptions {
  /** File name in the data dir. @defaultValue 'memory.sqlite' */
  file?: string;
  policy?: PolicyInput;
  /** Offline models and the in-process queue whatever the config says (the demo). */
  offline?: boolean;
}

export async function wireMemory(config: CliConfig, options: WireOptions = {}): Promise<Wiring> {
  ensureDir(config.dataDir);
  const path = join(config.dataDir, options.file ?? 'memory.sqlite');
  const embeddings = options.offline || !config.embeddings ? new HashingEmbeddings() : wireEmbeddings(config.embeddings);
  const knowledge = await wireKnowledge(config, path, embeddings);
  const memory = await createMemory({
    store: await createSqliteSessionStore({ path }),
    knowledge,
    embeddings,
    ...(options.offline ? {} : await wireModels(config)),
    ...(options.policy ? { policy: options.policy } : {}),
  });
  const storage = config.chromaUrl
    ? `${path} (SQLite session store) + Chroma at ${config.chromaUrl} (knowledge base)`
    : `${path} (SQLite: session store and knowledge base in one file)`;
  return { memory, path, storage };
}

/** Who answers in `strata chat`: the configured LLM, or the offline assistant. */
export function wireAssistant(config: CliConfig): ChatAssistant {
  if (!config.llm) return new OfflineAssistant();
  return new ModelAssistant(wireChatModel(config.llm), `${config.llm.model} at ${config.llm.baseUrl}`);
}

function wireChatModel(llm: Endpoint): ChatOpenAI {
  return new ChatOpenAI({ model: llm.model, apiKey: llm.apiKey ?? 'not-needed', maxRetries: 1, configuration: { baseURL: llm.baseUrl } });
}

/** The queue and models behind derivation: the in-process queue unless Redis is configured. */
async function wireModels(config: CliConfig): Promise<Partial<MemoryOptions>> {
  return config.redisUrl ? { queue: await wireQueue(config.redisUrl) } : {};
}

async function wireQueue(url: string): Promise<JobQueue> {
  throw new StrataError('CONFIG_INVALID', `the Redis job queue (${url}) is not available in this build of strata`, {
    hint: 'Unset STRATA_REDIS_URL / --redis-url to use the in-process queue.',
  });
}

function wireEmbeddings(endpoint: Endpoint & { dimensions?: number }): EmbeddingsInterface & { modelName: string; dimensions?: number } {
  const embeddings = new OpenAIEmbeddings({
    model: endpoint.model,
    apiKey: endpoint.apiKey ?? 'not-needed',
    encodingFormat: 'float',
    maxRetries: 1,
    ...(endpoint.dimensions ? { dimensions: endpoint.dimensions } : {}),
    configuration: { baseURL: endpoint.baseUrl },
  });
  return Object.assign(embeddings, { modelName: endpoint.model, dimensions: endpoint.dimensions });
}

/** The vector index: the SQLite file's own, or a Chroma collection named after the embeddings model. */
async function wireKnowledge(config: CliConfig, path: string, embeddings: { modelName: string; dimensions?: number }): Promise<KnowledgeBase> {
  if (!config.chromaUrl) return createSqliteKnowledgeBase({ path });
  if (embeddings.dimensions === undefined) {
    throw new StrataError('CONFIG_INVALID', 'a Chroma knowledge base needs the embeddings dimensions', {
      hint: 'Set STRATA_EMBEDDINGS_DIMENSIONS (e.g. 1536) with STRATA_EMBEDDINGS_MODEL.',
    });
  }
  return createChromaKnowledgeBase({ url: config.chromaUrl, embeddingModel: embeddings.modelName, dimensions: embeddings.dimensions });
}

function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new StrataError('BACKEND_UNAVAILABLE', `cannot create the data directory ${dir}`, {
      hint: 'Pass --data-dir or set STRATA_DATA_DIR to a writable directory.',
      cause: error,
    });
  }
}

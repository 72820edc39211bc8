import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMemory, HashingEmbeddings, StrataError, type KnowledgeBase, type Memory, type PolicyInput } from '@strata/core';
import { createChromaKnowledgeBase } from '@strata/kb-chroma';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import type { CliConfig } from './config.js';

/**
 * The composition root of the `strata` command: the only place that chooses adapters.
 * Embedded default: one SQLite file (session store + knowledge base) in the data dir,
 * the in-process queue and the offline models.
 */
export interface Wiring {
  /** Where the data lives, for people. */
  storage: string;
  path: string;
  memory: Memory;
}

export async function wireMemory(config: CliConfig, options: { file?: string; policy?: PolicyInput } = {}): Promise<Wiring> {
  ensureDir(config.dataDir);
  const path = join(config.dataDir, options.file ?? 'memory.sqlite');
  const embeddings = new HashingEmbeddings();
  const knowledge = await wireKnowledge(config, path, embeddings);
  const memory = await createMemory({
    store: await createSqliteSessionStore({ path }),
    knowledge,
    embeddings,
    ...(options.policy ? { policy: options.policy } : {}),
  });
  const storage = config.chromaUrl
    ? `${path} (SQLite session store) + Chroma at ${config.chromaUrl} (knowledge base)`
    : `${path} (SQLite: session store and knowledge base in one file)`;
  return { memory, path, storage };
}

/** The vector index: the SQLite file's own, or a Chroma collection named after the embeddings model. */
async function wireKnowledge(config: CliConfig, path: string, embeddings: HashingEmbeddings): Promise<KnowledgeBase> {
  if (!config.chromaUrl) return createSqliteKnowledgeBase({ path });
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

import { createMemory, ExtractiveSummarizer, HashingEmbeddings, ObservationFactExtractor, TiktokenTokenCounter, type Memory } from '@strata/core';
import { createChromaKnowledgeBase } from '@strata/kb-chroma';
import { createBullMqJobQueue, startWorker, type WorkerHandle } from '@strata/worker';

/**
 * One shared memory across processes and hosts: sessions and lexical search on PostgreSQL,
 * vectors on Chroma, derivation on BullMQ over Redis. Every app process opens the same three;
 * workers need only Redis and the models.
 */
export interface Topology {
  postgresUrl: string;
  /** PostgreSQL schema of this memory. */
  schema: string;
  chromaUrl: string;
  /** Chroma collection prefix of this memory. */
  collectionPrefix: string;
  redisUrl: string;
  /** Redis key prefix of this memory's queues. */
  redisPrefix: string;
}

/** The servers from the environment (defaults: the ones `bash scripts/services.sh up` starts). */
export function topologyFromEnv(name = 'strata_scale_out'): Topology {
  return {
    postgresUrl: process.env.STRATA_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    schema: name,
    chromaUrl: process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765',
    collectionPrefix: name,
    redisUrl: process.env.STRATA_REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisPrefix: name,
  };
}

/** The store as an app's config names it: the server's URL with the memory's schema. */
export function storeUrl(topology: Topology): string {
  const url = new URL(topology.postgresUrl);
  url.searchParams.set('schema', topology.schema);
  return url.toString();
}

/** The offline models; workers and apps must use the same embeddings model. */
export function offlineModels(): { summarizer: ExtractiveSummarizer; extractor: ObservationFactExtractor; embeddings: HashingEmbeddings } {
  return { summarizer: new ExtractiveSummarizer({ tokens: new TiktokenTokenCounter() }), extractor: new ObservationFactExtractor(), embeddings: new HashingEmbeddings() };
}

/** An app process's memory: it appends and reads, and applies derived results; workers derive. */
export async function openAppMemory(topology: Topology): Promise<Memory> {
  const models = offlineModels();
  return createMemory({
    // named by URL, as in an app's config: createMemory loads @strata/store-postgres for it
    store: storeUrl(topology),
    knowledge: await createChromaKnowledgeBase({
      url: topology.chromaUrl,
      collectionPrefix: topology.collectionPrefix,
      embeddingModel: models.embeddings.modelName,
      dimensions: models.embeddings.dimensions,
    }),
    // deriveConcurrency 0: this process derives nothing itself, the worker processes do
    queue: await createBullMqJobQueue({ url: topology.redisUrl, prefix: topology.redisPrefix, deriveConcurrency: 0 }),
    ...models,
  });
}

/** A worker process's loop: derives what any app enqueued under the prefix. */
export function startOfflineWorker(topology: Topology, concurrency = 4): Promise<WorkerHandle> {
  return startWorker({ url: topology.redisUrl, prefix: topology.redisPrefix, models: offlineModels(), concurrency });
}

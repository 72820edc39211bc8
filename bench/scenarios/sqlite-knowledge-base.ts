import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KnowledgeBase, KnowledgeEntry, KnowledgeKind } from '@strata/core';
import { createSqliteKnowledgeBase } from '@strata/store-sqlite';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { summarize, timeEach, timeOnce } from '../lib/stats.js';
import { seededRandom } from '../lib/conversation-generator.js';

/** What this scenario reports: the latencies and figures of one results file. */
export interface BenchSection {
  latencies: LatencyMetric[];
  figures: Figure[];
}

interface Sizes {
  vectors: number;
  queryWarmup: number;
  queries: number;
}

const FULL: Sizes = { vectors: 100_000, queryWarmup: 20, queries: 500 };
const QUICK: Sizes = { vectors: 10_000, queryWarmup: 10, queries: 200 };

const DIMENSIONS = 256;
const BATCH = 500;
const K = 10;
/** One namespace holds every vector: a query scans all of them, the worst case. */
const NAMESPACE = 'bench';
const KINDS: KnowledgeKind[] = ['turn', 'summary', 'fact'];
const SEED = 20_240_601;

const randomVector = (random: () => number): number[] => Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);

// Batches are made on the fly: 100k vectors held as number[] would take ~200 MB of the RSS measured.
function batchOf(random: () => number, from: number, count: number): KnowledgeEntry[] {
  return Array.from({ length: count }, (_, j) => {
    const i = from + j;
    const kind = KINDS[i % KINDS.length] as KnowledgeKind;
    return { id: `v${i}`, namespace: NAMESPACE, kind, sessionId: `s${i % 200}`, vector: randomVector(random), current: true, createdAt: i };
  });
}

async function stage<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new Error(`sqlite-knowledge-base: stage "${name}" failed`, { cause: error });
  }
}

async function withKnowledgeBase<T>(path: string, fn: (kb: KnowledgeBase) => Promise<T>): Promise<T> {
  const kb = await createSqliteKnowledgeBase({ path, dimensions: DIMENSIONS });
  try {
    return await fn(kb);
  } finally {
    await kb.close();
  }
}

/** Upserts in batches with the namespace cached, as in an app that queries what it indexes. */
async function measureUpserts(path: string, sizes: Sizes, random: () => number): Promise<number[]> {
  return withKnowledgeBase(path, async (kb) => {
    await kb.query({ vector: randomVector(random), k: K, filter: { namespace: NAMESPACE } });
    const samples: number[] = [];
    for (let from = 0; from < sizes.vectors; from += BATCH) {
      // Made outside the timed call: only the upsert is measured.
      const batch = batchOf(random, from, Math.min(BATCH, sizes.vectors - from));
      samples.push(await timeOnce(() => kb.upsert(batch)));
    }
    return samples;
  });
}

/** A fresh instance on the filled file: the first query loads the namespace, then warm queries. */
async function measureQueries(path: string, sizes: Sizes, random: () => number): Promise<{ firstMs: number; samples: number[]; rssMb: number }> {
  return withKnowledgeBase(path, async (kb) => {
    const query = (): Promise<unknown> => kb.query({ vector: randomVector(random), k: K, filter: { namespace: NAMESPACE } });
    const firstMs = await timeOnce(query);
    const samples = await timeEach(sizes.queryWarmup + sizes.queries, query);
    return { firstMs, samples: samples.slice(sizes.queryWarmup), rssMb: Math.round(process.memoryUsage().rss / 1024 ** 2) };
  });
}

/** The file plus any -wal / -shm left beside it. */
const bytesOnDisk = (dir: string): number => readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);

const label = (count: number): string => `${count / 1000}k`;

/**
 * The embedded SQLite knowledge base on a temp file: upsert throughput (batches of 500),
 * the first query of a fresh instance (loads the namespace into its cache), warm query
 * latency (k = 10, one namespace), and bytes on disk per vector.
 */
export async function runSqliteKnowledgeBaseBench(options: { quick: boolean }): Promise<BenchSection> {
  const sizes = options.quick ? QUICK : FULL;
  const random = seededRandom(SEED);
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-kb-'));
  const path = join(dir, 'knowledge.sqlite');
  const name = `${label(sizes.vectors)} x ${DIMENSIONS}d`;
  try {
    const batches = await stage('upsert', () => measureUpserts(path, sizes, random));
    const upsertMs = batches.reduce((sum, ms) => sum + ms, 0);
    const bytes = bytesOnDisk(dir);
    const { firstMs, samples, rssMb } = await stage('query', () => measureQueries(path, sizes, random));
    return {
      latencies: [
        { metric: `upsert batch of ${BATCH}, ${name}`, summary: summarize(batches) },
        { metric: `query k=${K}, ${name} in one namespace`, summary: summarize(samples) },
      ],
      figures: [
        { name: `upsert throughput, ${name}`, value: Math.round(sizes.vectors / (upsertMs / 1000)), unit: 'vectors/s' },
        { name: `first query (cache load), ${name}`, value: firstMs, unit: 'ms' },
        { name: `bytes on disk per vector (${DIMENSIONS * 4} of them the vector)`, value: Math.round(bytes / sizes.vectors), unit: 'bytes' },
        { name: `rss with ${name} cached`, value: rssMb, unit: 'MB' },
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KnowledgeBase, KnowledgeEntry, KnowledgeKind } from '@strata/core';
import { createSqliteKnowledgeBase } from '@strata/store-sqlite';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { summarize, timeEach, timeOnce } from '../lib/stats.js';
import { seededRandom } from '../lib/conversation-generator.js';
import type { Random } from '../lib/conversation-generator.js';

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

const SCENARIO = 'sqlite-knowledge-base';
const FULL: Sizes = { vectors: 100_000, queryWarmup: 20, queries: 500 };
const QUICK: Sizes = { vectors: 10_000, queryWarmup: 10, queries: 200 };

export const DIMENSIONS = 256;
export const BATCH = 500;
export const K = 10;
/** One namespace holds every vector: a query scans all of them, the worst case. */
export const NAMESPACE = 'bench';
const KINDS: readonly KnowledgeKind[] = ['turn', 'summary', 'fact'];
export const SEED = 20_240_601;

const randomVector = (random: Random): number[] => Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);

// Batches are made on the fly: 100k vectors held as number[] would take ~200 MB of the RSS measured.
function batchOf(random: Random, from: number, count: number, kinds: readonly KnowledgeKind[]): KnowledgeEntry[] {
  return Array.from({ length: count }, (_, j) => {
    const i = from + j;
    const kind = kinds[i % kinds.length] as KnowledgeKind;
    return { id: `v${i}`, namespace: NAMESPACE, kind, sessionId: `s${i % 200}`, vector: randomVector(random), current: true, createdAt: i };
  });
}

/** Runs `fn`, naming the scenario and stage in the error if it fails. */
export async function stage<T>(scenario: string, name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new Error(`${scenario}: stage "${name}" failed`, { cause: error });
  }
}

/** Opens a knowledge base, hands it to `fn`, and closes it whatever happens. */
export async function withKnowledgeBase<T>(open: () => Promise<KnowledgeBase>, fn: (kb: KnowledgeBase) => Promise<T>): Promise<T> {
  const kb = await open();
  try {
    return await fn(kb);
  } finally {
    await kb.close();
  }
}

/** Upserts entries `from` to `to` (exclusive) in batches of {@link BATCH}; returns each batch's duration. */
export async function timeUpserts(kb: KnowledgeBase, random: Random, range: { from: number; to: number; kinds?: readonly KnowledgeKind[] }): Promise<number[]> {
  const samples: number[] = [];
  for (let from = range.from; from < range.to; from += BATCH) {
    // Made outside the timed call: only the upsert is measured.
    const batch = batchOf(random, from, Math.min(BATCH, range.to - from), range.kinds ?? KINDS);
    samples.push(await timeOnce(() => kb.upsert(batch)));
  }
  return samples;
}

/** One query (k = {@link K}, the bench namespace) with a fresh random vector. */
export const queryOnce = (kb: KnowledgeBase, random: Random): Promise<unknown> => kb.query({ vector: randomVector(random), k: K, filter: { namespace: NAMESPACE } });

/** `warmup` untimed-in-result queries, then the durations of `count` more. */
export async function timeQueries(kb: KnowledgeBase, random: Random, warmup: number, count: number): Promise<number[]> {
  const samples = await timeEach(warmup + count, () => queryOnce(kb, random));
  return samples.slice(warmup);
}

const openSqlite = (path: string) => (): Promise<KnowledgeBase> => createSqliteKnowledgeBase({ path, dimensions: DIMENSIONS });

/** Upserts in batches with the namespace cached, as in an app that queries what it indexes. */
async function measureUpserts(path: string, sizes: Sizes, random: Random): Promise<number[]> {
  return withKnowledgeBase(openSqlite(path), async (kb) => {
    await queryOnce(kb, random);
    return timeUpserts(kb, random, { from: 0, to: sizes.vectors });
  });
}

/** A fresh instance on the filled file: the first query loads the namespace, then warm queries. */
async function measureQueries(path: string, sizes: Sizes, random: Random): Promise<{ firstMs: number; samples: number[]; rssMb: number }> {
  return withKnowledgeBase(openSqlite(path), async (kb) => {
    const firstMs = await timeOnce(() => queryOnce(kb, random));
    const samples = await timeQueries(kb, random, sizes.queryWarmup, sizes.queries);
    return { firstMs, samples, rssMb: Math.round(process.memoryUsage().rss / 1024 ** 2) };
  });
}

/** The file plus any -wal / -shm left beside it. */
const bytesOnDisk = (dir: string): number => readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);

export const label = (count: number): string => `${count / 1000}k`;

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
    const batches = await stage(SCENARIO, 'upsert', () => measureUpserts(path, sizes, random));
    const upsertMs = batches.reduce((sum, ms) => sum + ms, 0);
    const bytes = bytesOnDisk(dir);
    const { firstMs, samples, rssMb } = await stage(SCENARIO, 'query', () => measureQueries(path, sizes, random));
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

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChromaClient } from 'chromadb';
import type { KnowledgeBase } from '@strata/core';
import { createChromaKnowledgeBase } from '@strata/kb-chroma';
import { createSqliteKnowledgeBase } from '@strata/store-sqlite';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { seededRandom } from '../lib/conversation-generator.js';
import { summarize } from '../lib/stats.js';
import type { BenchSection } from './sqlite-knowledge-base.js';
import { BATCH, DIMENSIONS, K, label, queryOnce, SEED, stage, timeQueries, timeUpserts, withKnowledgeBase } from './sqlite-knowledge-base.js';

const SCENARIO = 'knowledge-bases';

interface Plan {
  /** The index is filled up to each size in turn, and queried at each. */
  sizes: number[];
  queryWarmup: number;
  queries: number;
}

const FULL: Plan = { sizes: [10_000, 100_000], queryWarmup: 20, queries: 300 };
const QUICK: Plan = { sizes: [10_000], queryWarmup: 10, queries: 100 };

/** A knowledge base to measure, and how to remove what it stored. */
interface Target {
  name: string;
  open: () => Promise<KnowledgeBase>;
  cleanup: () => Promise<void>;
}

function sqliteTarget(): Target {
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-kbs-'));
  return {
    name: 'sqlite',
    open: () => createSqliteKnowledgeBase({ path: join(dir, 'knowledge.sqlite'), dimensions: DIMENSIONS }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A collection of its own (unique prefix), dropped afterwards. */
function chromaTarget(url: string): Target {
  const prefix = `bench-${process.pid}-${Date.now()}`;
  const model = 'bench-random';
  let isCreated = false;
  return {
    name: 'chroma',
    open: async () => {
      const kb = await createChromaKnowledgeBase({ url, collectionPrefix: prefix, embeddingModel: model, dimensions: DIMENSIONS });
      isCreated = true;
      return kb;
    },
    // Nothing to drop when the server was not there: the error of open() is the one to see.
    cleanup: async () => {
      if (!isCreated) return;
      const { hostname, port, protocol } = new URL(url);
      const client = new ChromaClient({ host: hostname, port: Number(port || (protocol === 'https:' ? 443 : 80)), ssl: protocol === 'https:' });
      await client.deleteCollection({ name: `${prefix}__${model}__${DIMENSIONS}` });
    },
  };
}

/**
 * Fills one target with facts up to each size, measuring upsert throughput on the way, then
 * query latency at that size. The same seed for every target: the same vectors and queries.
 */
async function measureTarget(target: Target, plan: Plan): Promise<BenchSection> {
  const random = seededRandom(SEED);
  const section: BenchSection = { latencies: [], figures: [] };
  await withKnowledgeBase(target.open, async (kb) => {
    // As in an app that queries what it indexes (SQLite then keeps the namespace cached).
    await queryOnce(kb, random);
    let filled = 0;
    for (const size of plan.sizes) {
      const batches = await stage(SCENARIO, `${target.name} upsert to ${label(size)}`, () => timeUpserts(kb, random, { from: filled, to: size, kinds: ['fact'] }));
      const seconds = batches.reduce((sum, ms) => sum + ms, 0) / 1000;
      section.figures.push(throughput(target.name, filled, size, seconds));
      filled = size;
      const samples = await stage(SCENARIO, `${target.name} query at ${label(size)}`, () => timeQueries(kb, random, plan.queryWarmup, plan.queries));
      section.latencies.push({ metric: `${target.name} query k=${K}, ${label(size)} facts x ${DIMENSIONS}d, namespace filter`, summary: summarize(samples) });
    }
  });
  return section;
}

const throughput = (name: string, from: number, to: number, seconds: number): Figure => ({
  name: `${name} upsert throughput, ${label(from)} -> ${label(to)} facts (batches of ${BATCH})`,
  value: Math.round((to - from) / seconds),
  unit: 'vectors/s',
});

/**
 * Chroma (a server, HNSW) and the embedded SQLite knowledge base (exact scan of a cached
 * namespace) side by side: upsert throughput in batches of 500 and query latency (k = 10,
 * one namespace) at 10k and 100k 256-dimensional facts; quick mode stops at 10k.
 * Chroma must be running: `bash scripts/services.sh up` (STRATA_CHROMA_URL, default port 8765).
 */
export async function runKnowledgeBasesBench(options: { quick: boolean; chromaUrl?: string }): Promise<BenchSection> {
  const plan = options.quick ? QUICK : FULL;
  const url = options.chromaUrl ?? process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765';
  const latencies: LatencyMetric[] = [];
  const figures: Figure[] = [];
  for (const target of [sqliteTarget(), chromaTarget(url)]) {
    try {
      const section = await measureTarget(target, plan);
      latencies.push(...section.latencies);
      figures.push(...section.figures);
    } finally {
      await target.cleanup();
    }
  }
  return { latencies, figures };
}

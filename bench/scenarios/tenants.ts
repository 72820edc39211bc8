import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemory, type Memory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore, type SqliteSessionStore } from '@strata/store-sqlite';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { importMessages } from '../lib/bulk-corpus.js';
import { summarize } from '../lib/stats.js';

/**
 * Many tenants in one SQLite file (the embedded default): 10 namespaces of 10k messages each,
 * searched round-robin as a multi-tenant app would. Reports the RSS this process grows by over
 * its empty state, what the lexical cache holds against its cap, and getContext latency when
 * tenants take turns beyond the cap (each comes back from its snapshot). The file is built by a
 * child process, so that the import's garbage does not count against the tenants' memory.
 */

const SEED = 27;
const QUERIES = ['what did we plan for the trip', 'where do I live now', 'quantum chromodynamics lecture notes', 'the book you recommended', 'how is the garden'];
/** Set in the child that builds the file: `<path> <namespaces> <messages per namespace>`. */
const BUILD_ENV = 'STRATA_BENCH_TENANTS_BUILD';

interface TenantSizes {
  namespaces: number;
  messages: number;
  rounds: number;
}

const FULL: TenantSizes = { namespaces: 10, messages: 10_000, rounds: 3 };
const QUICK: TenantSizes = { namespaces: 4, messages: 2_000, rounds: 2 };

async function open(path: string, lexicalCacheDocuments?: number): Promise<{ memory: Memory; store: SqliteSessionStore }> {
  const store = await createSqliteSessionStore(lexicalCacheDocuments === undefined ? { path } : { path, lexicalCacheDocuments });
  return { memory: await createMemory({ store, knowledge: await createSqliteKnowledgeBase({ path }) }), store };
}

/** The child's work: import every tenant and search each once (an app in use), so that the file holds their snapshots. */
async function build(path: string, namespaces: number, messages: number): Promise<void> {
  const { memory } = await open(path);
  for (let t = 0; t < namespaces; t++) {
    const namespace = `tenant-${t}`;
    const { sessionIds } = await importMessages(memory, { namespace, seed: SEED + t, messages, turns: 1_000, perBundle: 10_000 });
    await memory.getContext(sessionIds[0] ?? '', { query: QUERIES[0] ?? '', budgetTokens: 2_000 });
  }
  await memory.close();
}

function buildInChild(path: string, sizes: TenantSizes): void {
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, [BUILD_ENV]: `${path} ${sizes.namespaces} ${sizes.messages}` },
  });
  if (child.status !== 0) throw new Error(`building the tenants file failed (${child.signal ?? `exit code ${String(child.status)}`})`);
}

const rssMb = (): number => process.memoryUsage().rss / 1024 ** 2;

/** Round-robin getContext over the tenants; RSS growth, the cache's largest hold, and latencies. */
async function rotate(path: string, sizes: TenantSizes, cap: number | undefined): Promise<{ rssGrowthMb: number; maxHeld: number; maxDocuments: number; samples: number[] }> {
  const before = rssMb();
  const { memory, store } = await open(path, cap);
  const sessions: string[] = [];
  for (let t = 0; t < sizes.namespaces; t++) sessions.push((await memory.sessions.list({ namespace: `tenant-${t}` }))[0]?.id ?? '');
  const samples: number[] = [];
  let maxHeld = 0;
  for (let round = 0; round < sizes.rounds; round++) {
    for (const [t, sessionId] of sessions.entries()) {
      const started = performance.now();
      await memory.getContext(sessionId, { query: QUERIES[(round + t) % QUERIES.length] ?? '', budgetTokens: 2_000 });
      samples.push(performance.now() - started);
      const held = store.lexicalCacheStats().held.reduce((sum, h) => sum + h.documents, 0);
      maxHeld = Math.max(maxHeld, held);
    }
  }
  const rssGrowthMb = rssMb() - before;
  const { maxDocuments } = store.lexicalCacheStats();
  await memory.close();
  return { rssGrowthMb, maxHeld, maxDocuments, samples };
}

export async function runTenantsBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; notes: string[] }> {
  const sizes = options.quick ? QUICK : FULL;
  const dir = mkdtempSync(join(tmpdir(), 'strata-tenants-'));
  try {
    const path = join(dir, 'memory.sqlite');
    buildInChild(path, sizes);
    const label = `${sizes.namespaces} namespaces x ${sizes.messages / 1000}k messages`;
    const figures: Figure[] = [];
    const latencies: LatencyMetric[] = [];
    // The default cap first (in a fresh process, RSS grows only for the tenants), then a cap of
    // a quarter of the tenants, which makes every call of the rotation restore a namespace.
    const capped = Math.round((sizes.namespaces * sizes.messages) / 4);
    for (const cap of [undefined, capped]) {
      const run = await rotate(path, sizes, cap);
      const name = cap === undefined ? `default cap (${run.maxDocuments} documents)` : `cap ${cap} documents`;
      figures.push(
        { name: `RSS growth over the empty process, ${label}, ${name}${cap === undefined ? ' (target <= 100 MB)' : ''}`, value: Math.round(run.rssGrowthMb), unit: 'MB' },
        { name: `most documents the lexical cache held, ${name}`, value: run.maxHeld, unit: 'documents' },
      );
      latencies.push({ metric: `getContext, tenants round-robin, ${label}, ${name} (2,000 tokens)`, summary: summarize(run.samples) });
    }
    return {
      latencies,
      figures,
      notes: [
        'One SQLite file (WAL), offline models, in-process queue. The file is built in a child process (import, then one getContext per tenant, so each has its lexical snapshot) and measured in this one.',
        'RSS growth: from before the memory is opened to after the last round; the default-cap run comes first, so this process had allocated nothing for tenants before it.',
        'With the smaller cap the cache holds a quarter of the tenants, and every call of the rotation brings one back from its snapshot.',
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const buildArgs = process.env[BUILD_ENV];
if (buildArgs !== undefined) {
  const [path, namespaces, messages] = buildArgs.split(' ');
  await build(path ?? '', Number(namespaces), Number(messages));
}

// Kept in one file: one scenario, read top to bottom: the topology it starts, its measurements at each size, its report.
/**
 * `npm run bench -- scale-out`: the PostgreSQL session store (@strata/store-postgres) beside the
 * embedded SQLite store (@strata/store-sqlite), in one run, on what scaling out asks of a store:
 * 1. latency at size: single appends and getContext with 10k, 100k and 1M messages in the
 *    namespace (--quick: 1k and 10k), corpora imported with memory.import, derivation on
 *    createMemory's in-process queue for both stores; and the import throughput;
 * 2. write throughput with 1, 2 and 4 app processes appending at once to one schema (PostgreSQL)
 *    or one file (SQLite, WAL), each in its own child process;
 * 3. derivation freshness with the work in other processes: an app on BullMQ
 *    (deriveConcurrency 0) and 2 worker processes, turns appended at a steady rate, enqueue ->
 *    applied from readQueueStats.
 * Everything lives in PostgreSQL schemas, Redis prefixes, a Chroma collection and temp dirs of
 * this run, removed afterwards. Needs PostgreSQL (STRATA_POSTGRES_URL) and Redis
 * (STRATA_REDIS_URL); Chroma (STRATA_CHROMA_URL) is used for the PostgreSQL app's vectors in
 * part 3 when it answers, else a SQLite knowledge base file.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { setImmediate as nextMacrotask, setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ChromaClient } from 'chromadb';
import pg from 'pg';
import { createMemory, HashingEmbeddings, type KnowledgeBase, type Memory, type MemoryOptions, type SessionStore } from '@strata/core';
import { collectionNameFor, createChromaKnowledgeBase } from '@strata/kb-chroma';
import { createPostgresSessionStore, PostgresSessionStore } from '@strata/store-postgres';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import { countRedisKeys, deleteRedisKeys } from '@strata/testkit/redis';
import { createBullMqJobQueue, readQueueStats, type LatencyStats } from '@strata/worker';
import type { BenchTable, Figure, LatencyMetric } from '../lib/bench-result.js';
import { importMessages } from '../lib/bulk-corpus.js';
import { bulkAppendFigures } from './bulk-append.js';
import { ConversationGenerator } from '../lib/conversation-generator.js';
import type { AppendProcessConfig, AppendProcessReport } from '../lib/scale-out-process.js';
import { nsToMs, summarize, timeEach, timeOnce, type LatencySummary } from '../lib/stats.js';
import { startWorkers, stopWorkers } from '../lib/worker-processes.js';
import { BENCH_DIMENSIONS, offlineModels } from './worker-bench-models.js';

const POSTGRES_URL = process.env.STRATA_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.STRATA_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHROMA_URL = process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP_ENTRY = fileURLToPath(new URL('../lib/scale-out-process.ts', import.meta.url));

type StoreKind = 'postgres' | 'sqlite';
const STORES: StoreKind[] = ['postgres', 'sqlite'];
const STORE_NAME: Record<StoreKind, string> = { postgres: 'PostgreSQL', sqlite: 'SQLite' };

interface Plan {
  /** Messages in the namespace when latency is measured: one corpus per store, grown by import to each size. */
  corpora: number[];
  appendWarmup: number;
  appends: number;
  contextWarmup: number;
  contextCalls: number;
  /** getContext calls at 1M messages and more, where a PostgreSQL call takes about a second. */
  contextCallsAtMillion: number;
  /** App processes appending at once (part 2). */
  processes: number[];
  appendsPerProcess: number;
  /** Part 3: turns appended per second, for `freshnessSeconds`, round robin over `freshnessSessions`. */
  freshnessRate: number;
  freshnessSeconds: number;
  freshnessSessions: number;
}

const FULL: Plan = {
  corpora: [10_000, 100_000, 1_000_000],
  appendWarmup: 100,
  appends: 2000,
  contextWarmup: 20,
  contextCalls: 500,
  contextCallsAtMillion: 200,
  processes: [1, 2, 4],
  appendsPerProcess: 1000,
  freshnessRate: 10,
  freshnessSeconds: 45,
  freshnessSessions: 8,
};
const QUICK: Plan = {
  corpora: [1000, 10_000],
  appendWarmup: 50,
  appends: 500,
  contextWarmup: 10,
  contextCalls: 100,
  contextCallsAtMillion: 100,
  processes: [1, 2, 4],
  appendsPerProcess: 200,
  freshnessRate: 10,
  freshnessSeconds: 12,
  freshnessSessions: 8,
};
/** Part 3's derivation: this many worker processes, each with this concurrency (as worker-throughput's freshness). */
const FRESHNESS_WORKERS = { processes: 2, concurrency: 4 };

const SESSION_TURNS = 50;
const PER_BUNDLE = 5000;
const BUDGET_TOKENS = 1000;
const NAMESPACE = 'bench';
const SEED = 20_250_301;

const label = (messages: number): string => (messages >= 1_000_000 ? `${messages / 1_000_000}M` : messages >= 1000 ? `${messages / 1000}k` : String(messages));
const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 'es'}`;
const round1 = (value: number): number => Math.round(value * 10) / 10;

/** Runs `fn`, reporting its duration on stderr (a full run takes minutes) and naming it in any error. */
async function stage<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const started = process.hrtime.bigint();
  try {
    const result = await fn();
    process.stderr.write(`bench: scale-out: ${name} (${(nsToMs(process.hrtime.bigint() - started) / 1000).toFixed(1)} s)\n`);
    return result;
  } catch (error) {
    throw new Error(`scale-out: stage "${name}" failed`, { cause: error });
  }
}

/**
 * What this run creates outside its process, each name unique to the run, removed by
 * `release` whatever happened: PostgreSQL schemas, temp dirs, Redis prefixes, Chroma collections.
 */
class RunResources {
  readonly id = randomBytes(4).toString('hex');
  private readonly schemas: string[] = [];
  private readonly dirs: string[] = [];
  private readonly prefixes: string[] = [];
  private readonly collections: string[] = [];

  schema(part: string): string {
    const name = `strata_bench_scale_${this.id}_${part}`;
    this.schemas.push(name);
    return name;
  }

  dir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'strata-bench-scale-'));
    this.dirs.push(dir);
    return dir;
  }

  prefix(part: string): string {
    const prefix = `strata-bench-scale-${this.id}-${part}`;
    this.prefixes.push(prefix);
    return prefix;
  }

  /** The collection prefix of a Chroma KB; `collection` is the name it creates, dropped by `release`. */
  chromaPrefix(): string {
    return `strata-bench-scale-${this.id}`;
  }

  collection(name: string): void {
    this.collections.push(name);
  }

  /** Removes everything; a failure is reported on stderr and does not stop the rest. */
  async release(): Promise<{ schemas: number; keysLeft: number }> {
    const warn = (what: string, error: unknown): void => void process.stderr.write(`bench: scale-out: cleanup of ${what} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    if (this.schemas.length) {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      try {
        await client.connect();
        for (const schema of this.schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch((error: unknown) => warn(`schema ${schema}`, error));
      } catch (error) {
        warn('PostgreSQL schemas', error);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
    let keysLeft = 0;
    for (const prefix of this.prefixes) {
      await deleteRedisKeys(REDIS_URL, prefix).catch((error: unknown) => warn(`Redis prefix ${prefix}`, error));
      keysLeft += await countRedisKeys(REDIS_URL, prefix).catch(() => 0);
    }
    if (this.collections.length) {
      const { hostname, port, protocol } = new URL(CHROMA_URL);
      const client = new ChromaClient({ host: hostname, port: Number(port || (protocol === 'https:' ? 443 : 80)), ssl: protocol === 'https:' });
      for (const name of this.collections) await client.deleteCollection({ name }).catch((error: unknown) => warn(`Chroma collection ${name}`, error));
    }
    return { schemas: this.schemas.length, keysLeft };
  }
}

/** Null when PostgreSQL and Redis answer; otherwise why not. */
async function unreachableService(): Promise<string | null> {
  const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
    Promise.race([promise, sleep(ms, undefined, { ref: false }).then(() => Promise.reject(new Error(`${what} did not answer within ${ms} ms`)))]);
  try {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  } catch (error) {
    return `PostgreSQL unreachable at ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')} (${error instanceof Error ? error.message : String(error)}; set STRATA_POSTGRES_URL)`;
  }
  try {
    await within(countRedisKeys(REDIS_URL, 'strata-bench-scale-probe'), 5000, 'Redis');
  } catch (error) {
    return `Redis unreachable at ${REDIS_URL} (${error instanceof Error ? error.message : String(error)}; set STRATA_REDIS_URL or run bash scripts/services.sh up)`;
  }
  return null;
}

async function isChromaUp(): Promise<boolean> {
  try {
    const response = await fetch(`${CHROMA_URL.replace(/\/$/, '')}/api/v2/heartbeat`, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** The session store of `kind`: a PostgreSQL schema, or the SQLite file `path`. */
async function openStore(kind: StoreKind, where: { schema: string; path: string }): Promise<SessionStore> {
  return kind === 'postgres' ? createPostgresSessionStore({ url: POSTGRES_URL, schema: where.schema }) : createSqliteSessionStore({ path: where.path });
}

/**
 * A memory whose only difference between the two kinds is its session store: the vectors
 * are in a SQLite knowledge base file (SQLite: the store's own file, as the CLI's default).
 */
async function openMemory(kind: StoreKind, where: { schema: string; path: string }, options: MemoryOptions = {}): Promise<Memory> {
  const store = await openStore(kind, where);
  return createMemory({ store, knowledge: await createSqliteKnowledgeBase({ path: where.path }), ...options });
}

/** A schema (PostgreSQL) or file (SQLite) of its own for one part of the run. */
function placeFor(kind: StoreKind, resources: RunResources, part: string): { schema: string; path: string } {
  const dir = resources.dir();
  return kind === 'postgres' ? { schema: resources.schema(part), path: join(dir, 'knowledge.sqlite') } : { schema: '', path: join(dir, 'memory.sqlite') };
}

/** Turns of the single append part 4 moves into the embedded default (the bulk-append scenario's figures). */
const BULK_APPEND_TURNS = 10_000;

// ---------------------------------------------------------------- part 1: latency at size

interface SizeResult {
  messages: number;
  /** Messages in the namespace before this import, and the import's throughput. */
  importedFrom: number;
  importRate: number;
  context: LatencySummary;
  firstContextMs: number;
  /** PostgreSQL: from the first getContext's return to the lexical replica holding the namespace. */
  replicaReadyMs: number | undefined;
  append: LatencySummary;
}

/** Chat turns a second of the second app process while PostgreSQL's getContext is timed (an append and a getContext each). */
const COMPANION_TURNS_PER_SECOND = 10;

/**
 * getContext on random imported sessions with the generator's queries (as memory-latency's
 * timeContext). The first call loads what the store caches per namespace (SQLite: its lexical
 * index and vectors, before it answers; PostgreSQL: its lexical replica, in the background,
 * whose load is awaited and timed). On PostgreSQL a second app process on the schema makes
 * chat turns meanwhile (`companion`), so the timed calls read its writes.
 */
async function timeContext(
  memory: Memory,
  store: SessionStore,
  chat: ConversationGenerator,
  sessionIds: string[],
  plan: Plan,
  calls: number,
  companion: (() => Promise<() => Promise<void>>) | undefined,
): Promise<{ samples: number[]; firstMs: number; replicaReadyMs: number | undefined }> {
  const call = async (): Promise<void> => {
    const sessionId = sessionIds[chat.index(sessionIds.length)] as string;
    await memory.getContext(sessionId, { query: chat.query(), budgetTokens: BUDGET_TOKENS });
  };
  const firstMs = await timeOnce(call);
  let replicaReadyMs: number | undefined;
  if (store instanceof PostgresSessionStore) {
    const started = performance.now();
    while (!store.lexicalReplicaStats()?.held.some((held) => held.namespace === NAMESPACE)) {
      await call();
      await sleep(50);
    }
    replicaReadyMs = performance.now() - started;
  }
  const stop = await companion?.();
  try {
    const all = await timeEach(plan.contextWarmup + calls, call, () => nextMacrotask());
    return { samples: all.slice(plan.contextWarmup), firstMs, replicaReadyMs };
  } finally {
    await stop?.();
  }
}

/** Single appends as memory-latency's: a new session every SESSION_TURNS turns, an untimed macrotask after each. */
async function timeAppends(memory: Memory, chat: ConversationGenerator, plan: Plan): Promise<number[]> {
  let sessionId = '';
  const all = await timeEach(
    plan.appendWarmup + plan.appends,
    async (i) => {
      if (i % SESSION_TURNS === 0) sessionId = (await memory.sessions.create({ namespace: NAMESPACE })).id;
      await memory.append(sessionId, chat.next());
    },
    () => nextMacrotask(),
  );
  return all.slice(plan.appendWarmup);
}

/** One namespace grown by import to each corpus size; at each, getContext then single appends. */
async function measureAtSizes(kind: StoreKind, plan: Plan, resources: RunResources): Promise<SizeResult[]> {
  const name = STORE_NAME[kind];
  const place = placeFor(kind, resources, 'latency');
  const store = await openStore(kind, place);
  const memory = await createMemory({ store, knowledge: await createSqliteKnowledgeBase({ path: place.path }) });
  // PostgreSQL's second app process: chat turns on the same schema while getContext is timed
  const companion =
    kind === 'postgres'
      ? async (): Promise<() => Promise<void>> => {
          const app = spawnApp({
            store: kind,
            postgresUrl: POSTGRES_URL,
            schema: place.schema,
            path: join(resources.dir(), 'companion-knowledge.sqlite'),
            namespace: NAMESPACE,
            appends: 1_000_000,
            sessionTurns: SESSION_TURNS,
            seed: SEED + 50,
            chatTurnsPerSecond: COMPANION_TURNS_PER_SECOND,
          });
          await app.line('ready', 300_000);
          app.child.stdin.write('go\n');
          return () => killApps([app]);
        }
      : undefined;
  try {
    const chat = new ConversationGenerator(SEED + 7);
    const sessionIds: string[] = [];
    const results: SizeResult[] = [];
    let stored = 0;
    for (const messages of plan.corpora) {
      const size = label(messages);
      const imported = await stage(`${name}: import ${label(stored)} -> ${size}`, () =>
        importMessages(memory, { namespace: NAMESPACE, seed: SEED + messages, messages: messages - stored, turns: SESSION_TURNS, perBundle: PER_BUNDLE, firstSession: sessionIds.length }),
      );
      const count = imported.sessionIds.length * SESSION_TURNS;
      sessionIds.push(...imported.sessionIds);
      const importedFrom = stored;
      stored += count;
      const context = await stage(`${name}: getContext at ${size}`, () =>
        timeContext(memory, store, chat, sessionIds, plan, messages >= 1_000_000 ? plan.contextCallsAtMillion : plan.contextCalls, companion),
      );
      const appends = await stage(`${name}: appends at ${size}`, () => timeAppends(memory, chat, plan));
      stored += plan.appendWarmup + plan.appends;
      results.push({
        messages,
        importedFrom,
        importRate: count / (imported.ms / 1000),
        context: summarize(context.samples),
        firstContextMs: context.firstMs,
        replicaReadyMs: context.replicaReadyMs,
        append: summarize(appends),
      });
    }
    return results;
  } finally {
    await stage(`${name}: close (waits for running derivation; drops queued jobs and unplanned sessions)`, () => memory.close());
  }
}

// ---------------------------------------------------------------- part 2: write throughput by app processes

type AppChild = ChildProcessByStdio<Writable, Readable, null>;

interface AppProcess {
  child: AppChild;
  /** The next line it prints; rejects if it exits first or after `ms`. */
  line: (what: string, ms: number) => Promise<string>;
  exited: Promise<void>;
}

function spawnApp(config: AppendProcessConfig): AppProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@strata/source', APP_ENTRY, JSON.stringify(config)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let exitCode: string | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitCode = signal ?? String(code);
      resolve();
    }),
  );
  const line = async (what: string, ms: number): Promise<string> => {
    const timeout = new AbortController();
    try {
      const next = await Promise.race([lines.next(), sleep(ms, undefined, { signal: timeout.signal }).then(() => Promise.reject(new Error(`an app process did not print ${what} within ${ms} ms`)))]);
      if (next.done === true) throw new Error(`an app process exited (${String(exitCode ?? 'output closed')}) before it printed ${what}`);
      return String(next.value);
    } finally {
      timeout.abort();
    }
  };
  return { child, line, exited };
}

/** SIGKILL for what is still running (after a failure); resolves when all have exited. */
async function killApps(apps: AppProcess[]): Promise<void> {
  for (const app of apps) if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGKILL');
  await Promise.all(apps.map((app) => app.exited));
}

interface WriteResult {
  processes: number;
  appends: number;
  wallMs: number;
  perSecond: number;
  append: LatencySummary;
  jobsPlanned: number;
}

/** `processes` app processes on one schema or file, each appending its turns; total appends over the wall time. */
async function measureWrites(kind: StoreKind, processes: number, plan: Plan, resources: RunResources): Promise<WriteResult> {
  const place = placeFor(kind, resources, `writes_${processes}`);
  // created and migrated here, once, so that the processes do not race to do it
  await (await openMemory(kind, place)).close();
  const config = (i: number): AppendProcessConfig => ({
    store: kind,
    postgresUrl: POSTGRES_URL,
    schema: place.schema,
    path: place.path,
    namespace: NAMESPACE,
    appends: plan.appendsPerProcess,
    sessionTurns: SESSION_TURNS,
    seed: SEED + 100 + i,
  });
  const apps = Array.from({ length: processes }, (_, i) => spawnApp(config(i)));
  try {
    await Promise.all(apps.map((app) => app.line('ready', 90_000)));
    const started = process.hrtime.bigint();
    for (const app of apps) app.child.stdin.write('go\n');
    const reports = await Promise.all(
      apps.map(async (app) => {
        const line = await app.line('done', 600_000);
        if (!line.startsWith('done ')) throw new Error(`an app process printed "${line.slice(0, 80)}" instead of done`);
        return { report: JSON.parse(line.slice(5)) as AppendProcessReport, at: process.hrtime.bigint() };
      }),
    );
    const wallMs = Math.max(...reports.map(({ at }) => nsToMs(at - started)));
    await Promise.all(apps.map((app) => Promise.race([app.exited, sleep(60_000, undefined, { ref: false })])));
    const appends = processes * plan.appendsPerProcess;
    return {
      processes,
      appends,
      wallMs,
      perSecond: appends / (wallMs / 1000),
      append: summarize(reports.flatMap(({ report }) => report.samples)),
      jobsPlanned: reports.reduce((sum, { report }) => sum + report.jobsPlanned, 0),
    };
  } finally {
    await killApps(apps);
  }
}

// ---------------------------------------------------------------- part 3: freshness with worker processes

interface FreshnessResult {
  knowledge: string;
  appended: number;
  appendsPerSecond: number;
  append: LatencySummary;
  drainMs: number;
  apply: LatencyStats;
  derive: LatencyStats;
  applied: number;
  failures: number;
}

/**
 * An app on `kind` with a BullMQ queue that derives nothing itself, 2 worker processes
 * deriving; turns appended at a steady rate, round robin over a few sessions, then drained;
 * enqueue -> applied as the queue recorded it (readQueueStats, shared by all processes of the prefix).
 */
async function measureFreshness(kind: StoreKind, plan: Plan, resources: RunResources, isChromaReachable: boolean): Promise<FreshnessResult> {
  const prefix = resources.prefix(`fresh-${kind}`);
  const place = placeFor(kind, resources, 'freshness');
  const models = offlineModels();
  const useChroma = kind === 'postgres' && isChromaReachable;
  const workers = await startWorkers(FRESHNESS_WORKERS.processes, { url: REDIS_URL, prefix, models: 'offline', concurrency: FRESHNESS_WORKERS.concurrency });
  let memory: Memory | undefined;
  try {
    let knowledge: KnowledgeBase;
    if (useChroma) {
      const collectionPrefix = resources.chromaPrefix();
      // the workers' and the app's embeddings (worker-bench-models: hashing, BENCH_DIMENSIONS)
      const { modelName } = new HashingEmbeddings({ dimensions: BENCH_DIMENSIONS });
      resources.collection(collectionNameFor(collectionPrefix, modelName, BENCH_DIMENSIONS));
      knowledge = await createChromaKnowledgeBase({ url: CHROMA_URL, collectionPrefix, embeddingModel: modelName, dimensions: BENCH_DIMENSIONS });
    } else {
      knowledge = await createSqliteKnowledgeBase({ path: place.path, dimensions: BENCH_DIMENSIONS });
    }
    const queue = await createBullMqJobQueue({ url: REDIS_URL, prefix, deriveConcurrency: 0 });
    memory = await createMemory({ store: await openStore(kind, place), knowledge, queue, ...models });
    const sessions = await Promise.all(Array.from({ length: plan.freshnessSessions }, () => memory!.sessions.create({ namespace: NAMESPACE })));
    const chats = sessions.map((_, i) => new ConversationGenerator(SEED + 200 + i));
    const total = Math.round(plan.freshnessRate * plan.freshnessSeconds);
    const intervalMs = 1000 / plan.freshnessRate;
    const samples: number[] = [];
    const started = process.hrtime.bigint();
    for (let i = 0; i < total; i++) {
      const waitMs = i * intervalMs - nsToMs(process.hrtime.bigint() - started);
      if (waitMs > 0) await sleep(waitMs);
      const k = i % sessions.length;
      const before = process.hrtime.bigint();
      await memory.append((sessions[k] as { id: string }).id, (chats[k] as ConversationGenerator).next());
      samples.push(nsToMs(process.hrtime.bigint() - before));
    }
    const appendSeconds = nsToMs(process.hrtime.bigint() - started) / 1000;
    const drainMs = await timeOnce(() => memory!.flush());
    const stats = await readQueueStats({ url: REDIS_URL, prefix });
    return {
      knowledge: useChroma ? 'Chroma' : 'SQLite KB file',
      appended: total,
      appendsPerSecond: total / appendSeconds,
      append: summarize(samples),
      drainMs,
      apply: stats.latencyMs.apply,
      derive: stats.latencyMs.derive,
      applied: stats.applied,
      failures: stats.failures,
    };
  } finally {
    await memory?.close();
    await stopWorkers(workers);
    await deleteRedisKeys(REDIS_URL, prefix);
  }
}

// ---------------------------------------------------------------- the scenario

export async function runScaleOutBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; tables: BenchTable[]; notes: string[] } | null> {
  const reason = await unreachableService();
  if (reason !== null) {
    process.stdout.write(`bench: scale-out skipped: ${reason}\n`);
    return null;
  }
  const plan = options.quick ? QUICK : FULL;
  const cores = availableParallelism();
  const load = loadavg()[0] ?? 0;
  const isChromaReachable = await isChromaUp();
  const resources = new RunResources();
  const sizes = new Map<StoreKind, SizeResult[]>();
  const writes = new Map<StoreKind, WriteResult[]>();
  const freshness = new Map<StoreKind, FreshnessResult>();
  let released: { schemas: number; keysLeft: number };
  try {
    for (const kind of STORES) sizes.set(kind, await measureAtSizes(kind, plan, resources));
    for (const processes of plan.processes) {
      for (const kind of STORES) {
        const result = await stage(`${STORE_NAME[kind]}: ${plural(processes, 'app process')} appending`, () => measureWrites(kind, processes, plan, resources));
        writes.set(kind, [...(writes.get(kind) ?? []), result]);
      }
    }
    for (const kind of STORES)
      freshness.set(
        kind,
        await stage(`${STORE_NAME[kind]}: freshness with ${plural(FRESHNESS_WORKERS.processes, 'worker process')}`, () => measureFreshness(kind, plan, resources, isChromaReachable)),
      );
  } finally {
    released = await resources.release();
  }
  const bulk = await stage(`SQLite: one ${label(BULK_APPEND_TURNS)}-turn append, then a chat turn and its derivation`, async () => bulkAppendFigures(BULK_APPEND_TURNS));

  const latencies: LatencyMetric[] = [];
  const figures: Figure[] = [{ name: 'cores (os.availableParallelism())', value: cores, unit: '' }, { name: 'load average (1 min) when the scenario started', value: round1(load), unit: '' }, ...bulk];
  const side: string[][] = [];
  const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');
  const pgSizes = sizes.get('postgres') ?? [];
  const sqliteSizes = sizes.get('sqlite') ?? [];
  for (const [i, messages] of plan.corpora.entries()) {
    const size = label(messages);
    for (const kind of STORES) {
      const at = sizes.get(kind)?.[i] as SizeResult;
      latencies.push({ metric: `${STORE_NAME[kind]}: append 1 message, ${size} messages in namespace`, summary: at.append });
      latencies.push({
        metric: `${STORE_NAME[kind]}: getContext, ${size} messages in namespace (imported)${kind === 'postgres' ? `, a second app process making ${COMPANION_TURNS_PER_SECOND} chat turns/s` : ''}`,
        summary: at.context,
      });
    }
    for (const kind of STORES) {
      const at = sizes.get(kind)?.[i] as SizeResult;
      figures.push({ name: `${STORE_NAME[kind]}: import throughput, ${label(at.importedFrom)} -> ${size} messages (bundles of 5,000)`, value: Math.round(at.importRate), unit: 'messages/s' });
      figures.push({ name: `${STORE_NAME[kind]}: first getContext after import to ${size} (loads caches)`, value: at.firstContextMs, unit: 'ms' });
      if (at.replicaReadyMs !== undefined)
        figures.push({ name: `${STORE_NAME[kind]}: lexical replica held ${size} messages after (loaded in the background; SQL answers meanwhile)`, value: Math.round(at.replicaReadyMs), unit: 'ms' });
    }
    const onPg = pgSizes[i] as SizeResult;
    const lite = sqliteSizes[i] as SizeResult;
    side.push(
      [`append 1 message, ${size}: p50 ms`, onPg.append.p50.toFixed(3), lite.append.p50.toFixed(3), ratio(onPg.append.p50, lite.append.p50)],
      [`append 1 message, ${size}: p99 ms`, onPg.append.p99.toFixed(3), lite.append.p99.toFixed(3), ratio(onPg.append.p99, lite.append.p99)],
      [`getContext, ${size}: p50 ms`, onPg.context.p50.toFixed(3), lite.context.p50.toFixed(3), ratio(onPg.context.p50, lite.context.p50)],
      [`getContext, ${size}: p99 ms`, onPg.context.p99.toFixed(3), lite.context.p99.toFixed(3), ratio(onPg.context.p99, lite.context.p99)],
      [`import ${label(onPg.importedFrom)} -> ${size}: messages/s`, String(Math.round(onPg.importRate)), String(Math.round(lite.importRate)), ratio(onPg.importRate, lite.importRate)],
    );
  }

  const writeRows: string[][] = [];
  for (const [i, processes] of plan.processes.entries()) {
    const row = [String(processes), String(cores)];
    for (const kind of STORES) {
      const runs = writes.get(kind) ?? [];
      const run = runs[i] as WriteResult;
      const single = (runs[0] as WriteResult).perSecond;
      const setup = `${plural(processes, 'app process')} at once, ${plan.appendsPerProcess} single appends each`;
      figures.push({ name: `${STORE_NAME[kind]}: appends/s, ${setup} (total over the wall time)`, value: Math.round(run.perSecond), unit: 'appends/s' });
      latencies.push({ metric: `${STORE_NAME[kind]}: append 1 message, ${plural(processes, 'app process')} appending at once`, summary: run.append });
      row.push(String(Math.round(run.perSecond)), `${(run.perSecond / single).toFixed(2)}x`, run.append.p99.toFixed(3));
    }
    writeRows.push(row);
  }

  const freshRows: string[][] = [];
  const workersSetup = `${plural(FRESHNESS_WORKERS.processes, 'worker process')} x concurrency ${FRESHNESS_WORKERS.concurrency}, ${plan.freshnessRate} turns/s`;
  for (const kind of STORES) {
    const run = freshness.get(kind) as FreshnessResult;
    const name = `${STORE_NAME[kind]} + ${run.knowledge}`;
    latencies.push({ metric: `${name}: append 1 message, BullMQ queue (${workersSetup})`, summary: run.append });
    figures.push(
      { name: `${name}: enqueue -> applied p50 (readQueueStats latencyMs.apply, ${workersSetup})`, value: run.apply.p50, unit: 'ms' },
      { name: `${name}: enqueue -> applied p95 (readQueueStats latencyMs.apply, ${workersSetup})`, value: run.apply.p95, unit: 'ms' },
      { name: `${name}: jobs applied (latency samples: ${run.apply.count})`, value: run.applied, unit: 'jobs' },
      { name: `${name}: turns appended per second (target ${plan.freshnessRate})`, value: round1(run.appendsPerSecond), unit: 'turns/s' },
      { name: `${name}: flush after the last append (the backlog left)`, value: run.drainMs, unit: 'ms' },
    );
    freshRows.push([
      name,
      String(run.appended),
      round1(run.appendsPerSecond).toFixed(1),
      String(run.applied),
      String(run.apply.p50),
      String(run.apply.p95),
      String(run.derive.p50),
      String(run.derive.p95),
      String(run.failures),
    ]);
  }

  const sizesText = plan.corpora.map(label).join(' and ');
  const fresh = freshness.get('postgres') as FreshnessResult;
  return {
    latencies,
    figures,
    tables: [
      { title: 'PostgreSQL beside SQLite (part 1: one app process, in-process derivation)', header: ['measure', 'PostgreSQL', 'SQLite', 'PostgreSQL / SQLite'], rows: side },
      {
        title: 'write throughput by app processes on one schema / one file (part 2)',
        header: ['app processes', 'cores', 'PostgreSQL appends/s', 'vs 1 process', 'PostgreSQL append p99 ms', 'SQLite appends/s', 'vs 1 process', 'SQLite append p99 ms'],
        rows: writeRows,
      },
      {
        title: `derivation freshness, ${workersSetup} (part 3)`,
        header: ['app store + KB', 'turns', 'turns/s', 'jobs applied', 'enqueue -> applied p50 ms', 'p95 ms', 'enqueue -> derived p50 ms', 'p95 ms', 'failed jobs'],
        rows: freshRows,
      },
    ],
    notes: [
      `PostgreSQL: ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')}, ${released.schemas} schema(s) made for this run (strata_bench_scale_${resources.id}_*) and dropped after it; SQLite: files in temp dirs, removed; Redis: ${REDIS_URL}, prefixes strata-bench-scale-${resources.id}-*, deleted (${released.keysLeft} keys left)${isChromaReachable ? `; Chroma: ${CHROMA_URL}, one collection, deleted` : ''}. The bench, its app and worker processes share this machine's ${cores} cores (os.availableParallelism()), with the servers when they run here too; the load average at the start is among the figures.`,
      `Part 1 (latency at size): one memory per store, one namespace grown by memory.import (bundles of ${PER_BUNDLE}, ${SESSION_TURNS} turns per session) to ${sizesText} messages; at each size getContext (${plan.contextWarmup} warm-up + ${plan.contextCalls} calls, ${plan.contextCallsAtMillion} at 1M: a generated question on a random imported session, a ${BUDGET_TOKENS}-token budget, an untimed macrotask after each, as memory-latency), then ${plan.appendWarmup} warm-up + ${plan.appends} single appends (one message per call, a new session every ${SESSION_TURNS} turns, an untimed macrotask after each, as memory-latency). Those appends stay in the namespace; the next import brings it to the next size exactly. Derivation runs on createMemory's in-process queue for both stores, so the imported turns derive in the background while these rows are timed (as memory-latency's imported rows). Only the session store differs: the PostgreSQL memory keeps its vectors in a SQLite knowledge base file, as the SQLite memory does in its own file. On PostgreSQL, the first getContext starts the load of the process's lexical replica of the namespace in the background (BM25 in SQL answers meanwhile); the bench waits until it is held (timed, figures) before the warm-up, and a second app process on the schema makes ${COMPANION_TURNS_PER_SECOND} chat turns a second (an append and a getContext each, turns of its own sessions in the namespace; it loads its own replica of the namespace before it starts) while getContext is timed, so each timed call reads another process's writes. SQLite's rows are one process: the embedded default, the reference the PostgreSQL rows are compared with.`,
      `Part 2 (write throughput): ${plan.processes.join(', ')} app processes (child Node processes) on one PostgreSQL schema or one SQLite file (WAL, busy timeout 5 s), a fresh one per run, each process appending ${plan.appendsPerProcess} turns one at a time to sessions of its own (a new one every ${SESSION_TURNS} turns, a macrotask after each append). They start together on a signal once all are connected; appends/s is all appends over the wall time from that signal to the last process done. Their queue derives nothing (as a scale-out app whose workers derive): each planned job is kept pending, so planning reads what it would with a real backlog, and the figure is the store's write path, not the models'. The latency rows pool the appends of all processes.`,
      `Part 3 (freshness): an app process (the bench) on PostgreSQL + ${fresh.knowledge}${isChromaReachable ? '' : ` (Chroma did not answer at ${CHROMA_URL})`}, and on SQLite (store and knowledge base in one file), each with a BullMQ queue (deriveConcurrency 0: it only applies results) and ${plural(FRESHNESS_WORKERS.processes, 'worker process')} (startWorker, offline models, concurrency ${FRESHNESS_WORKERS.concurrency}); ${plan.freshnessRate} turns/s for ${plan.freshnessSeconds} s, round robin over ${plan.freshnessSessions} sessions, then flush. enqueue -> applied is readQueueStats(...).latencyMs.apply: every job of the run (ingest, summaries, consolidation), recorded in Redis by the applying app (nearest rank of the newest 2,000). The samples start with the workers' first jobs (cold processes), which weigh on p95 in --quick's short run.`,
      `Part 4 (a large single append): the bulk-append scenario's figures at ${label(BULK_APPEND_TURNS)} turns (SQLite file, offline models, each variant in a fresh process): one append of the whole history, then one chat turn, then the derivation of the backlog, watched from the event loop (longest gap of a 1 ms timer, monitorEventLoopDelay).`,
    ],
  };
}

// Kept in one file: one scenario, read top to bottom: the servers it starts, the load at each level, the same calls in process, its report.
/**
 * `npm run bench -- server`: `strata serve` (the built CLI) under HTTP load on loopback, beside
 * the same calls made in process in the same run, so that what HTTP adds is a difference:
 * 1. SQLite (the CLI's default: one file, worker-thread derivation, offline models): one
 *    server; 1,000 namespaces (--quick: 100) with one session each; wrk drives a mix of appends
 *    (one small message, an Idempotency-Key each) and getContext (a 1,000-token budget) over
 *    those sessions at 1, 16 and 64 connections; then every acknowledged append is read back
 *    and must be stored exactly once; then the same mix in process (createMemory over a SQLite
 *    file, the same queue and models), from promise pools of the same sizes.
 * 2. The same on PostgreSQL + Chroma with two `strata serve` processes behind a round-robin TCP
 *    proxy (node:net), and in process on PostgreSQL + Chroma; the schemas, the collection and
 *    the records of this run are removed afterwards. Skipped, with a note, when PostgreSQL
 *    (STRATA_POSTGRES_URL) or Chroma (STRATA_CHROMA_URL; `bash scripts/services.sh up`) does
 *    not answer.
 * Needs wrk (`apt-get install -y wrk`) and the built CLI (`npm run build`).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChromaClient } from 'chromadb';
import pg from 'pg';
import { createMemory, createWorkerThreadJobQueue, HashingEmbeddings, type Memory, type SessionStore, type KnowledgeBase } from '@strata/core';
import { collectionNameFor, createChromaKnowledgeBase } from '@strata/kb-chroma';
import { createFileKeyStore } from '@strata/server';
import { createPostgresSessionStore } from '@strata/store-postgres';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import { checkAckedAppends, type DeliveryCheck } from '../lib/acked-appends.js';
import type { BenchTable, Figure } from '../lib/bench-result.js';
import { ConversationGenerator, seededRandom } from '../lib/conversation-generator.js';
import { type PoolRun, runPromisePool } from '../lib/promise-pool-load.js';
import { startRoundRobinProxy } from '../lib/round-robin-proxy.js';
import { cliEnv, cliUnavailable, type ProcessMemory, readProcessCpuMs, readProcessMemory, runStrata, type ServeProcess, startServe } from '../lib/serve-process.js';
import { type LoadTarget, runWrk, type WrkMix, type WrkRun, wrkUnavailable, wrkVersion } from '../lib/wrk-load.js';

const POSTGRES_URL = process.env.STRATA_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CHROMA_URL = (process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765').replace(/\/$/, '');

interface Plan {
  namespaces: number;
  /** Seconds of load per level, and of the untimed warm-up (16 connections) before the first. */
  seconds: number;
  warmupSeconds: number;
  /** The one-admin-key probe (16 connections). */
  probeSeconds: number;
  levels: number[];
}
const FULL: Plan = { namespaces: 1000, seconds: 25, warmupSeconds: 5, probeSeconds: 5, levels: [1, 16, 64] };
const QUICK: Plan = { namespaces: 100, seconds: 3, warmupSeconds: 1, probeSeconds: 2, levels: [1, 16, 64] };

const APPEND_SHARE = 0.5;
const BUDGET_TOKENS = 1000;
const SEED = 20_261_128;
/** The issue's targets, reported beside the figures and never tuned. */
const TARGET = { overheadMs: 1, rpsAt16: 1500, p99At64Ms: 30 };

type StoreKind = 'sqlite' | 'postgres';
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** What a level cost besides its latency: CPU per request, and the derivation left queued at its end. */
interface LevelCost {
  /** CPU time (every thread of the process or processes) over the level's requests. */
  cpuMsPerRequest: number;
  /** Derivation jobs queued, running or failed at the end of the level. */
  backlog: number;
}

interface Level {
  http: WrkRun & LevelCost;
  inProcess: PoolRun & LevelCost;
  /** Each server's memory at the end of the level. */
  memory: (ProcessMemory | null)[];
}

interface StoreRun {
  kind: StoreKind;
  setup: string;
  levels: Level[];
  /** 16 connections all on the one admin key. */
  probe: WrkRun;
  delivery: DeliveryCheck;
  exits: { code: number | null; signal: NodeJS.Signals | null; ms: number }[];
  /** Connections the proxy handed to each server (PostgreSQL). */
  handed?: number[];
}

const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;
const namespaceOf = (prefix: string, i: number): string => `${prefix}${String(i).padStart(4, '0')}`;

/** Runs `fn`, reporting its duration on stderr (a full run takes minutes) and naming it in any error. */
async function stage<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await fn();
    process.stderr.write(`bench: server: ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
    return result;
  } catch (error) {
    throw new Error(`server: stage "${name}" failed`, { cause: error });
  }
}

/** The messages and questions of the mix: generated user turns (one to three sentences) and queries about them. */
function mixText(): { texts: string[]; queries: string[] } {
  const chat = new ConversationGenerator(SEED);
  const texts: string[] = [];
  while (texts.length < 200) {
    const turn = chat.next();
    if (turn.role === 'user') texts.push(turn.content);
  }
  return { texts, queries: Array.from({ length: 100 }, () => chat.query()) };
}

/** One session in each of `count` namespaces `<prefix>0000`…, created in process before any server opens the store. */
async function seedSessions(memory: Memory, prefix: string, count: number): Promise<{ namespace: string; sessionId: string }[]> {
  const seeded: { namespace: string; sessionId: string }[] = [];
  for (let i = 0; i < count; i++) {
    const namespace = namespaceOf(prefix, i);
    seeded.push({ namespace, sessionId: (await memory.sessions.create({ namespace, title: 'bench' })).id });
  }
  return seeded;
}

/**
 * The admin key by `strata keys create` (prefix `prefix`, every namespace of the run), and one
 * exact read,write key per namespace in the same keys file, by the file key store the CLI uses.
 */
async function createKeys(env: NodeJS.ProcessEnv, keysFile: string, prefix: string, namespaces: string[]): Promise<{ admin: string; perNamespace: string[] }> {
  const created = await runStrata(['keys', 'create', '--namespace', prefix, '--prefix', '--scope', 'admin', '--name', 'bench admin', '--json'], env);
  const admin = (JSON.parse(created) as { secret: string }).secret;
  const keys = await createFileKeyStore({ path: keysFile });
  const perNamespace: string[] = [];
  for (const namespace of namespaces) perNamespace.push((await keys.create({ namespace, scopes: ['read', 'write'], name: 'bench' })).secret);
  return { admin, perNamespace };
}

/** Derivation jobs pending in each server (GET /v1/status with the admin key, which reaches every namespace of the run). */
async function serverBacklog(servers: ServeProcess[], adminSecret: string): Promise<number> {
  let pending = 0;
  for (const server of servers) {
    const response = await fetch(`${server.url}/v1/status`, { headers: { authorization: `Bearer ${adminSecret}` } });
    if (!response.ok) throw new Error(`GET /v1/status answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    pending += ((await response.json()) as { pending: unknown[] }).pending.length;
  }
  return pending;
}

const cpuOf = (servers: ServeProcess[]): number => servers.reduce((sum, s) => sum + (readProcessCpuMs(s.pid) ?? Number.NaN), 0);

/** The levels over HTTP: a warm-up, 1 / 16 / 64 connections, then the one-admin-key probe. Every run's appends count for the delivery check. */
async function loadOverHttp(url: string, servers: ServeProcess[], keys: { admin: string }, mixes: { mix: WrkMix; adminMix: WrkMix }, plan: Plan, dir: string, label: string) {
  const { mix, adminMix } = mixes;
  const runs: WrkRun[] = [];
  runs.push(await stage(`${label}: HTTP warm-up, 16 connections`, () => runWrk({ url, connections: 16, seconds: plan.warmupSeconds, mix, label: `${label}w`, dir })));
  const levels: Omit<Level, 'inProcess'>[] = [];
  for (const connections of plan.levels) {
    const cpuBefore = cpuOf(servers);
    const run = await stage(`${label}: HTTP, ${connections} connection(s)`, () => runWrk({ url, connections, seconds: plan.seconds, mix, label: `${label}c${connections}`, dir }));
    const cpuMsPerRequest = (cpuOf(servers) - cpuBefore) / run.requests;
    const memory = servers.map((s) => readProcessMemory(s.pid));
    runs.push(run);
    levels.push({ http: { ...run, cpuMsPerRequest, backlog: await serverBacklog(servers, keys.admin) }, memory });
  }
  const probe = await stage(`${label}: HTTP, one admin key, 16 connections`, () => runWrk({ url, connections: 16, seconds: plan.probeSeconds, mix: adminMix, label: `${label}p`, dir }));
  runs.push(probe);
  return { levels, probe, runs };
}

/** The same mix in process: a warm-up, then promise pools of each level's size. */
async function loadInProcess(memory: Memory, sessionIds: string[], text: { texts: string[]; queries: string[] }, plan: Plan, label: string): Promise<(PoolRun & LevelCost)[]> {
  const random = seededRandom(SEED + 1);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  let level = 0;
  const call = (loop: number, n: number): Promise<unknown> => {
    const sessionId = pick(sessionIds);
    if (random() < APPEND_SHARE) return memory.append(sessionId, { role: 'user', content: `${pick(text.texts)} [ipx${level}x${loop}x${n}]` });
    return memory.getContext(sessionId, { query: pick(text.queries), budgetTokens: BUDGET_TOKENS });
  };
  await stage(`${label}: in-process warm-up, 16 loops`, () => runPromisePool(16, plan.warmupSeconds, call));
  const runs: (PoolRun & LevelCost)[] = [];
  for (const connections of plan.levels) {
    level = connections;
    const cpuBefore = process.cpuUsage();
    const run = await stage(`${label}: in process, ${connections} loop(s)`, () => runPromisePool(connections, plan.seconds, call));
    const cpu = process.cpuUsage(cpuBefore);
    if (run.firstError !== undefined) process.stderr.write(`bench: server: ${label}: in process, ${run.errors} call(s) failed, the first: ${String(run.firstError)}\n`);
    runs.push({ ...run, cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / run.requests, backlog: (await memory.pending()).length });
  }
  return runs;
}

/** The wrk mixes of a store: each session with its own namespace's key, or every one with the admin key. */
function mixesOf(
  seeded: { sessionId: string }[],
  keys: { admin: string; perNamespace: string[] },
  text: { texts: string[]; queries: string[] },
): { mix: WrkMix; adminMix: WrkMix; targets: LoadTarget[] } {
  const targets = seeded.map(({ sessionId }, i) => ({ sessionId, authorization: `Bearer ${keys.perNamespace[i]}` }));
  const base = { ...text, appendShare: APPEND_SHARE, budgetTokens: BUDGET_TOKENS };
  return { targets, mix: { ...base, targets }, adminMix: { ...base, targets: seeded.map(({ sessionId }) => ({ sessionId, authorization: `Bearer ${keys.admin}` })) } };
}

async function runSqlite(plan: Plan, runId: string, text: { texts: string[]; queries: string[] }): Promise<StoreRun> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-server-'));
  try {
    const env = cliEnv(dir);
    const path = join(dir, 'memory.sqlite');
    const prefix = `srv${runId}-`;
    const seeded = await stage(`SQLite: seed ${plan.namespaces} namespaces`, async () => {
      const memory = await createMemory({ store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }) });
      try {
        return await seedSessions(memory, prefix, plan.namespaces);
      } finally {
        await memory.close();
      }
    });
    const keys = await stage(`SQLite: ${plan.namespaces + 1} keys`, () =>
      createKeys(
        env,
        join(dir, 'keys.json'),
        prefix,
        seeded.map((s) => s.namespace),
      ),
    );
    const { mix, adminMix, targets } = mixesOf(seeded, keys, text);
    const server = await startServe({ env });
    let exits: StoreRun['exits'] = [];
    try {
      const http = await loadOverHttp(server.url, [server], keys, { mix, adminMix }, plan, dir, 'SQLite');
      const delivery = await stage('SQLite: read back every session', () => checkAckedAppends(server.url, targets, http.runs));
      exits = [await server.stop()];
      const inProcess = await runInProcessSqlite(plan, runId, text);
      const levels = http.levels.map((level, i) => ({ ...level, inProcess: inProcess[i] as PoolRun & LevelCost }));
      return { kind: 'sqlite', setup: 'one `strata serve` on the SQLite default (one file in a temp data dir)', levels, probe: http.probe, delivery, exits };
    } finally {
      if (!exits.length) await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** In process, as `strata serve` wires its memory by default: one SQLite file for store and KB, derivation on a worker thread, offline models. */
async function runInProcessSqlite(plan: Plan, runId: string, text: { texts: string[]; queries: string[] }): Promise<(PoolRun & LevelCost)[]> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-server-inproc-'));
  const path = join(dir, 'memory.sqlite');
  const memory = await createMemory({ store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }), queue: createWorkerThreadJobQueue({ policy: {} }) });
  try {
    const seeded = await stage(`SQLite: in process, seed ${plan.namespaces} namespaces`, () => seedSessions(memory, `inp${runId}-`, plan.namespaces));
    return await loadInProcess(
      memory,
      seeded.map((s) => s.sessionId),
      text,
      plan,
      'SQLite',
    );
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Null when PostgreSQL and Chroma answer; otherwise why not. */
async function postgresUnavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    return `PostgreSQL unreachable at ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')} (${error instanceof Error ? error.message : String(error)}; set STRATA_POSTGRES_URL)`;
  } finally {
    await client.end().catch(() => undefined);
  }
  try {
    const response = await fetch(`${CHROMA_URL}/api/v2/heartbeat`, { signal: AbortSignal.timeout(3000) });
    if (!response.ok) return `Chroma at ${CHROMA_URL} answered its heartbeat with ${response.status}`;
  } catch (error) {
    return `Chroma unreachable at ${CHROMA_URL} (${error instanceof Error ? error.message : String(error)}; bash scripts/services.sh up, or set STRATA_CHROMA_URL)`;
  }
  return null;
}

const storeUrlOf = (schema: string): string => {
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('schema', schema);
  return url.toString();
};

/** What the PostgreSQL part leaves outside its process, removed whatever happened. */
async function releasePostgres(schemas: string[], namespaces: string[], collection: string | undefined): Promise<string> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
  const { hostname, port } = new URL(CHROMA_URL);
  const chroma = new ChromaClient({ host: hostname, port: Number(port || 80), ssl: false });
  if (collection !== undefined) await chroma.deleteCollection({ name: collection }).catch(() => undefined);
  // the servers write to the CLI's own collection; this run's namespaces are removed from it
  const hashing = new HashingEmbeddings();
  const shared = await chroma.getCollection({ name: collectionNameFor('strata', hashing.modelName, hashing.dimensions) }).catch(() => undefined);
  if (shared === undefined) return `${schemas.length} schemas dropped`;
  for (let i = 0; i < namespaces.length; i += 100) await shared.delete({ where: { namespace: { $in: namespaces.slice(i, i + 100) } } });
  return `${schemas.length} schemas dropped, the run's records deleted from Chroma collection ${shared.name}${collection ? ` and collection ${collection} dropped` : ''}`;
}

/** Where the PostgreSQL part keeps what it makes: names unique to the run. */
interface PostgresPlace {
  schema: string;
  inProcessSchema: string;
  collectionPrefix: string;
  hashing: HashingEmbeddings;
  prefix: string;
  namespaces: string[];
  dir: string;
}

async function runPostgres(plan: Plan, runId: string, text: { texts: string[]; queries: string[] }): Promise<{ run: StoreRun; cleanup: string }> {
  const schema = `strata_bench_server_${runId}`;
  const prefix = `srv${runId}-`;
  const place: PostgresPlace = {
    schema,
    inProcessSchema: `${schema}_inproc`,
    collectionPrefix: `strata-bench-server-${runId}`,
    hashing: new HashingEmbeddings(),
    prefix,
    namespaces: Array.from({ length: plan.namespaces }, (_, i) => namespaceOf(prefix, i)),
    dir: mkdtempSync(join(tmpdir(), 'strata-bench-server-pg-')),
  };
  const release = async (): Promise<string> => {
    rmSync(place.dir, { recursive: true, force: true });
    const collection = collectionNameFor(place.collectionPrefix, place.hashing.modelName, place.hashing.dimensions);
    return stage('PostgreSQL: drop schemas, delete Chroma records', () => releasePostgres([place.schema, place.inProcessSchema], place.namespaces, collection));
  };
  let run: StoreRun;
  try {
    run = await measurePostgres(plan, runId, text, place);
  } catch (error) {
    await release().catch((cleanupError: unknown) => process.stderr.write(`bench: server: PostgreSQL cleanup failed too: ${String(cleanupError)}\n`));
    throw error;
  }
  return { run, cleanup: await release() };
}

/** Seeds, starts two servers behind the proxy, loads them, reads back, stops them, then the same in process. */
async function measurePostgres(plan: Plan, runId: string, text: { texts: string[]; queries: string[] }, place: PostgresPlace): Promise<StoreRun> {
  const env = cliEnv(place.dir);
  const seeded = await stage(`PostgreSQL: seed ${plan.namespaces} namespaces`, async () => {
    const memory = await createMemory({ store: await createPostgresSessionStore({ url: POSTGRES_URL, schema: place.schema }) });
    try {
      return await seedSessions(memory, place.prefix, plan.namespaces);
    } finally {
      await memory.close();
    }
  });
  const keys = await stage(`PostgreSQL: ${plan.namespaces + 1} keys`, () => createKeys(env, join(place.dir, 'keys.json'), place.prefix, place.namespaces));
  const { mix, adminMix, targets } = mixesOf(seeded, keys, text);
  const globalArgs = ['--store', storeUrlOf(place.schema), '--chroma-url', CHROMA_URL];
  const servers: ServeProcess[] = [];
  let exits: StoreRun['exits'] = [];
  try {
    for (let i = 0; i < 2; i++) servers.push(await startServe({ env, globalArgs }));
    const proxy = await startRoundRobinProxy(servers.map((s) => ({ host: '127.0.0.1', port: s.port })));
    try {
      const http = await loadOverHttp(proxy.url, servers, keys, { mix, adminMix }, plan, place.dir, 'PostgreSQL');
      const delivery = await stage('PostgreSQL: read back every session', () => checkAckedAppends(proxy.url, targets, http.runs));
      const handed = proxy.handed();
      exits = await Promise.all(servers.map((s) => s.stop()));
      const inProcess = await runInProcessPostgres(plan, runId, text, place);
      const levels = http.levels.map((level, i) => ({ ...level, inProcess: inProcess[i] as PoolRun & LevelCost }));
      const setup = 'two `strata serve` processes on one PostgreSQL schema + Chroma, behind a round-robin TCP proxy (node:net, in the bench process)';
      return { kind: 'postgres', setup, levels, probe: http.probe, delivery, exits, handed };
    } finally {
      await proxy.close();
    }
  } finally {
    if (!exits.length) await Promise.all(servers.map((s) => s.stop()));
  }
}

/** In process on PostgreSQL + Chroma (a collection of its own), the rest as `strata serve` wires it. */
async function runInProcessPostgres(plan: Plan, runId: string, text: { texts: string[]; queries: string[] }, where: PostgresPlace): Promise<(PoolRun & LevelCost)[]> {
  const store: SessionStore = await createPostgresSessionStore({ url: POSTGRES_URL, schema: where.inProcessSchema });
  const knowledge: KnowledgeBase = await createChromaKnowledgeBase({
    url: CHROMA_URL,
    collectionPrefix: where.collectionPrefix,
    embeddingModel: where.hashing.modelName,
    dimensions: where.hashing.dimensions,
  });
  const memory = await createMemory({ store, knowledge, queue: createWorkerThreadJobQueue({ policy: {} }) });
  try {
    const seeded = await stage(`PostgreSQL: in process, seed ${plan.namespaces} namespaces`, () => seedSessions(memory, `inp${runId}-`, plan.namespaces));
    return await loadInProcess(
      memory,
      seeded.map((s) => s.sessionId),
      text,
      plan,
      'PostgreSQL',
    );
  } finally {
    await memory.close();
  }
}

// ---------------------------------------------------------------- report

const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(2) : '–');
const thousands = (value: number): string => Math.round(value).toLocaleString('en-US');
const verdict = (isMet: boolean): string => (isMet ? '**met**' : '**not met**');
const rpsOf = (run: { requests: number; seconds: number }): number => run.requests / run.seconds;
const errorsOf = (run: WrkRun): number => run.non2xx + run.socketErrors;

function overhead(level: Level): string {
  const diff = level.http.p50Ms - level.inProcess.p50Ms;
  return `${diff >= 0 ? '+' : ''}${ms(diff)} ms (${round(level.http.p50Ms / level.inProcess.p50Ms, 1)}x)`;
}

function memoryText(memory: (ProcessMemory | null)[]): string {
  if (memory.some((m) => m === null)) return 'n/a';
  const known = memory as ProcessMemory[];
  return `${known.map((m) => Math.round(m.rssMb)).join(' + ')} / ${known.map((m) => Math.round(m.peakMb)).join(' + ')}`;
}

function storeTable(run: StoreRun): BenchTable {
  return {
    title: `${STORE_NAME[run.kind]}: ${run.setup}`,
    header: [
      'connections',
      'requests/s',
      'p50 ms',
      'p99 ms',
      'errors (non-2xx + socket)',
      'server RSS MB (end of level / peak)',
      'in-process requests/s',
      'in-process p50 ms',
      'in-process p99 ms',
      'HTTP overhead at p50',
      'CPU ms per request: server / in process',
      'derivation backlog at end: server / in process',
    ],
    rows: run.levels.map((level) => [
      String(level.http.connections),
      thousands(rpsOf(level.http)),
      ms(level.http.p50Ms),
      ms(level.http.p99Ms),
      `${errorsOf(level.http)} (${level.http.non2xx} + ${level.http.socketErrors})`,
      memoryText(level.memory),
      thousands(rpsOf(level.inProcess)),
      ms(level.inProcess.p50Ms),
      ms(level.inProcess.p99Ms),
      overhead(level),
      `${ms(level.http.cpuMsPerRequest)} / ${ms(level.inProcess.cpuMsPerRequest)}`,
      `${level.http.backlog} / ${level.inProcess.backlog}`,
    ]),
  };
}

function targetRows(runs: StoreRun[]): string[][] {
  const at = (run: StoreRun, connections: number): Level | undefined => run.levels.find((l) => l.http.connections === connections);
  const overheadCell = (run: StoreRun): string => {
    const parts = run.levels.map((l) => `${l.http.connections}: ${overhead(l)}`);
    const met = run.levels.filter((l) => l.http.p50Ms - l.inProcess.p50Ms <= TARGET.overheadMs).map((l) => l.http.connections);
    const all = met.length === run.levels.length;
    return `${parts.join('; ')}: ${all ? verdict(true) : `${verdict(false)}${met.length ? ` (met at ${met.join(', ')} connection(s))` : ''}`}`;
  };
  const rpsCell = (run: StoreRun): string => {
    const level = at(run, 16);
    return level ? `${thousands(rpsOf(level.http))} req/s: ${verdict(rpsOf(level.http) >= TARGET.rpsAt16)}` : 'not measured';
  };
  const p99Cell = (run: StoreRun): string => {
    const level = at(run, 64);
    return level ? `${ms(level.http.p99Ms)} ms: ${verdict(level.http.p99Ms <= TARGET.p99At64Ms)}` : 'not measured';
  };
  const errorCell = (run: StoreRun): string => {
    const errors = run.levels.reduce((sum, l) => sum + errorsOf(l.http), 0);
    return `${errors}: ${verdict(errors === 0)}`;
  };
  const deliveryCell = (run: StoreRun): string => {
    const d = run.delivery;
    return `${thousands(d.acked)} acknowledged, ${d.lost} lost, ${d.duplicates} stored twice: ${verdict(d.isExactlyOnce)}`;
  };
  return [
    [`HTTP adds <= ${TARGET.overheadMs} ms at p50 over in process (connections: difference)`, ...runs.map(overheadCell)],
    [`>= ${thousands(TARGET.rpsAt16)} req/s at 16 connections`, ...runs.map(rpsCell)],
    [`p99 <= ${TARGET.p99At64Ms} ms at 64 connections`, ...runs.map(p99Cell)],
    ['0 errors (non-2xx + socket errors, the three levels)', ...runs.map(errorCell)],
    ['every acknowledged append stored once', ...runs.map(deliveryCell)],
  ];
}

function figuresOf(run: StoreRun): Figure[] {
  const name = STORE_NAME[run.kind];
  const figures: Figure[] = [];
  for (const level of run.levels) {
    const c = level.http.connections;
    figures.push(
      { name: `${name}: requests/s over HTTP, ${c} connection(s)`, value: Math.round(rpsOf(level.http)), unit: 'req/s' },
      { name: `${name}: HTTP p50 / in-process p50, ${c} connection(s)`, value: round(level.http.p50Ms / level.inProcess.p50Ms, 1), unit: 'x' },
    );
  }
  figures.push(
    { name: `${name}: requests answered 429 with one admin key, 16 connections, ${thousands(run.probe.seconds)} s`, value: run.probe.statuses.get(429) ?? 0, unit: 'requests' },
    { name: `${name}: acknowledged appends read back`, value: run.delivery.acked, unit: 'appends' },
  );
  return figures;
}

function notesOf(runs: StoreRun[], plan: Plan, skipped: string | null, cleanup: string | null): string[] {
  const probe = (run: StoreRun): string => {
    const ok = [...run.probe.statuses].filter(([s]) => s >= 200 && s < 300).reduce((sum, [, n]) => sum + n, 0);
    return `${STORE_NAME[run.kind]}: ${thousands(ok / run.probe.seconds)} answers/s were 2xx and ${thousands((run.probe.statuses.get(429) ?? 0) / run.probe.seconds)}/s were 429`;
  };
  const delivery = (run: StoreRun): string => {
    const d = run.delivery;
    return `${STORE_NAME[run.kind]}: ${thousands(d.sent)} appends sent, ${thousands(d.acked)} acknowledged (201), ${thousands(d.stored)} stored; every acknowledged one found once (${d.lost} lost, ${d.duplicates} duplicated); ${d.storedUnacked} stored without the load generator seeing the answer (in flight when a wrk run stopped, at most its connections), so ${d.sessionsOff} of ${d.sessions} sessions hold more than their acknowledged count; ${d.sessionsOverSent} hold more than was sent to them`;
  };
  const exits = (run: StoreRun): string => `${STORE_NAME[run.kind]}: ${run.exits.map((e) => `exit ${e.signal ?? e.code} after ${e.ms} ms`).join(', ')}`;
  return [
    `Load: ${wrkVersion()} with a generated Lua script (bench/lib/wrk-load.ts); autocannon is not installed in this repository. wrk runs on min(2, connections) threads; its latency is from sending a request to its answer on a kept-alive connection. The in-process side runs the same mix from promise pools of the same sizes, in the bench process, after the servers have stopped; each of its samples is a loop's wait for the next macrotask plus the call, as a request to a server waits for its event loop (behind the other connections and the derivation results being applied) before it is handled: at 16 and 64 the in-process latency is mostly that wait. Everything (wrk, the servers, PostgreSQL, Chroma, the proxy) shares this machine's cores.`,
    `Mix: each request picks one of ${plan.namespaces} sessions (one per namespace) at random, then with probability ${APPEND_SHARE} appends one user message (one to three generated sentences and a tag unique to the request, the tag also its Idempotency-Key), else asks for its context (a generated question, budgetTokens ${BUDGET_TOKENS}). ${plan.seconds} s per level after a ${plan.warmupSeconds} s warm-up at 16 connections; the sessions grow through the run (each level starts where the last ended). Derivation (worker thread, offline models) runs in the servers as it does in process.`,
    `Keys: each session is reached with its own namespace's exact key (read, write), and the admin key (prefix, scope admin) made by \`strata keys create\` only in the probe. \`strata serve\` limits each key to 50 requests/s (burst 100) by default (its --rate-limit changes that; the servers here keep the default): with one admin key for the whole load, every answer beyond 50/s is 429. The probe at 16 connections for ${plan.probeSeconds} s on that key: ${runs.map(probe).join('; ')}.`,
    `Delivery: after the levels, every session is read back (GET /v1/sessions/{id}/messages, all pages). ${runs.map(delivery).join('. ')}.`,
    `SIGTERM: ${runs.map(exits).join('; ')} (code 0: requests in flight finished, the memory closed).`,
    ...runs
      .filter((r) => r.handed)
      .map((r) => `The proxy handed ${r.handed?.join(' / ')} connections to the two servers (round robin by connection: at 1 connection, one server takes the whole level).`),
    ...(skipped ? [`PostgreSQL part skipped: ${skipped}.`] : []),
    ...(cleanup ? [`PostgreSQL cleanup: ${cleanup}.`] : []),
    'RSS: VmRSS at the end of each level and VmHWM (the peak since start) from /proc/<pid>/status of each server process.',
    `Load average at the end of the run (1, 5, 15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}: other work on this machine during the run shows here and in the one at the start.`,
  ];
}

/** The scenario: null (skipped, with the reason on stderr) without wrk or the built CLI. */
export async function runServerBench(options: { quick: boolean }): Promise<{ latencies: []; figures: Figure[]; tables: BenchTable[]; notes: string[] } | null> {
  const missing = wrkUnavailable() ?? cliUnavailable();
  if (missing !== null) {
    process.stderr.write(`bench: server: skipped, ${missing}\n`);
    return null;
  }
  const plan = options.quick ? QUICK : FULL;
  const runId = randomBytes(4).toString('hex');
  const text = mixText();
  const runs: StoreRun[] = [await runSqlite(plan, runId, text)];
  const skipped = await postgresUnavailable();
  let cleanup: string | null = null;
  if (skipped === null) {
    const postgres = await runPostgres(plan, runId, text);
    runs.push(postgres.run);
    cleanup = postgres.cleanup;
  } else process.stderr.write(`bench: server: PostgreSQL part skipped, ${skipped}\n`);
  return {
    latencies: [],
    figures: runs.flatMap(figuresOf),
    tables: [...runs.map(storeTable), { title: 'targets (issue 35), not tuned', header: ['target', ...runs.map((r) => STORE_NAME[r.kind])], rows: targetRows(runs) }],
    notes: notesOf(runs, plan, skipped, cleanup),
  };
}

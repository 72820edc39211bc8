/**
 * Benchmark entry: `npm run bench` (full, < 10 min) or `npm run bench -- --quick` (< 1 min).
 * Runs each scenario in its own Node process and writes bench/results/<name>.json and .md. Scenario names after the
 * flags run only those. Scenarios that need a service run only when named:
 * `npm run bench -- knowledge-bases` (Chroma), `npm run bench -- worker-throughput` (Redis) and
 * `npm run bench -- postgres-driver` and `npm run bench -- locomo-postgres` (PostgreSQL, STRATA_POSTGRES_URL),
 * `npm run bench -- scale-out` (PostgreSQL and Redis; Chroma if it answers), `npm run bench -- import-throughput` and `npm run bench -- postgres-search` (PostgreSQL), `npm run bench -- scale-out-faults` (the fault test at
 * full size: PostgreSQL, Redis and Chroma), `npm run bench -- server` (wrk and the built CLI; PostgreSQL
 * and Chroma for its second part); `bash scripts/services.sh up` starts Chroma and Redis.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './lib/bench-result.js';
import { describeEnvironment, type Environment } from './lib/environment.js';
import { writeResults } from './lib/write-results.js';
import type { LatencySizes, MemoryTarget } from './scenarios/memory-latency.js';
import { FULL_SIZES, QUICK_SIZES, runMemoryLatency } from './scenarios/memory-latency.js';
import { inMemoryTarget, sqliteTarget } from './scenarios/memory-targets.js';
import { runKnowledgeBasesBench } from './scenarios/knowledge-bases.js';
import { runSqliteKnowledgeBaseBench } from './scenarios/sqlite-knowledge-base.js';
import { runWorkerThroughputBench } from './scenarios/worker-throughput.js';
import { runRetrievalQualityBench } from './scenarios/retrieval-quality.js';
import { runPeersBench } from './scenarios/peers.js';
import { runTopicsCompressionBench } from './scenarios/topics-compression.js';
import { runLocomoBench } from './scenarios/locomo.js';
import { runScaleBench } from './scenarios/scale.js';
import { runTenantsBench } from './scenarios/tenants.js';
import { runEncryptionBench } from './scenarios/encryption.js';
import { runCliStartupBench } from './scenarios/cli-startup.js';
import { runPostgresDriverBench } from './scenarios/postgres-driver.js';
import { runLocomoPostgresBench } from './scenarios/locomo-postgres.js';
import { runBulkAppendBench } from './scenarios/bulk-append.js';
import { runImportThroughputBench } from './scenarios/import-throughput.js';
import { runPostgresSearchBench } from './scenarios/postgres-search.js';
import { runScaleOutBench } from './scenarios/scale-out.js';
import { runScaleOutFaultsBench } from './scenarios/scale-out-faults.js';
import { runServerBench } from './scenarios/server.js';
import { runSlowEndpointBench } from './scenarios/slow-endpoint.js';

/** Set in the process that runs one scenario. */
const CHILD_ENV = 'STRATA_BENCH_SCENARIO_PROCESS';
const SCENARIOS = [
  'locomo',
  'retrieval-quality',
  'peers',
  'in-memory-latency',
  'sqlite-latency',
  'scale',
  'bulk-append',
  'tenants',
  'encryption',
  'sqlite-knowledge-base',
  'topics-compression',
  'knowledge-bases',
  'worker-throughput',
  'cli-startup',
  'postgres-driver',
  'locomo-postgres',
  'scale-out',
  'import-throughput',
  'postgres-search',
  'scale-out-faults',
  'server',
  'slow-endpoint',
];
/** Scenarios that need a server (Chroma, Redis, PostgreSQL): run only when named, so a fresh clone runs the rest as is. */
const ONLY_WHEN_NAMED = new Set(['knowledge-bases', 'worker-throughput', 'postgres-driver', 'locomo-postgres', 'scale-out', 'import-throughput', 'postgres-search', 'scale-out-faults', 'server']);

/**
 * Each target with the corpora it is measured at: appended and derived up to 10k (1k is
 * skipped on SQLite), imported up to 1M.
 */
function plan(isQuick: boolean): { result: string; target: MemoryTarget; sizes: LatencySizes }[] {
  const base = isQuick ? QUICK_SIZES : FULL_SIZES;
  return [
    { result: 'in-memory-latency', target: inMemoryTarget, sizes: base },
    { result: 'sqlite-latency', target: sqliteTarget(), sizes: { ...base, corpora: isQuick ? [1000] : [10_000] } },
  ];
}

function parseArgs(argv: string[]): { isQuick: boolean; wants: (name: string) => boolean } {
  const unknown = argv.filter((arg) => arg !== '--quick' && !SCENARIOS.includes(arg));
  if (unknown.length) throw new Error(`unknown argument(s): ${unknown.join(' ')}. Usage: npm run bench [-- --quick] [${SCENARIOS.join(' | ')} ...]`);
  const isQuick = argv.includes('--quick');
  const named = new Set(argv.filter((arg) => SCENARIOS.includes(arg)));
  const wants = (name: string): boolean => (named.size ? named.has(name) : !ONLY_WHEN_NAMED.has(name));
  return { isQuick, wants };
}

/** Prints an error and its causes: the cause names the core API call that failed. */
function report(error: unknown): void {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    const text = current instanceof Error ? (current.stack ?? current.message) : String(current);
    process.stderr.write(`${depth ? 'caused by: ' : ''}${text}\n`);
    current = current instanceof Error ? current.cause : undefined;
  }
}

/**
 * Each scenario runs in a fresh Node process (same flags): timings and RSS do not depend on
 * the heap, caches and timers a previous scenario left behind.
 */
async function runIsolated(name: string, isQuick: boolean): Promise<void> {
  const args = [...process.execArgv, fileURLToPath(import.meta.url), ...(isQuick ? ['--quick'] : []), name];
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, [CHILD_ENV]: '1' } });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`scenario ${name} failed (${signal ?? `exit code ${String(code)}`})`);
}

async function main(): Promise<void> {
  const { isQuick, wants } = parseArgs(process.argv.slice(2));
  if (process.env[CHILD_ENV] === undefined) {
    for (const name of SCENARIOS) if (wants(name)) await runIsolated(name, isQuick);
    return;
  }
  const environment = describeEnvironment();
  // real multi-session dialogue (../shared/evals/locomo-dev.json; skipped with a message when absent)
  // the strata CLI: start-up of the commands a user types to look around
  if (wants('cli-startup')) await runOne('cli-startup', isQuick, environment, () => runCliStartupBench({ quick: isQuick }));
  if (wants('locomo')) await runOne('locomo', isQuick, environment, () => runLocomoBench({ quick: isQuick }));
  if (wants('retrieval-quality')) await runOne('retrieval-quality', isQuick, environment, () => runRetrievalQualityBench({ quick: isQuick }));
  if (wants('peers')) await runOne('peers', isQuick, environment, () => runPeersBench({ quick: isQuick }));
  for (const { result, target, sizes } of plan(isQuick)) {
    if (wants(result)) await runOne(result, isQuick, environment, () => runMemoryLatency(target, sizes));
  }
  // derivation at scale: per-turn cost as a session grows, the event loop during an import's derivation, a 100k-turn session
  if (wants('scale')) await runOne('scale', isQuick, environment, () => runScaleBench({ quick: isQuick }));
  // one large append (and one import) into the embedded default: the chat turn after it and the event loop while it derives
  if (wants('bulk-append')) await runOne('bulk-append', isQuick, environment, () => runBulkAppendBench({ quick: isQuick }));
  // many tenants in one SQLite file: RSS against the lexical cache's cap, latency when tenants rotate past it
  if (wants('tenants')) await runOne('tenants', isQuick, environment, () => runTenantsBench({ quick: isQuick }));
  // encryption at rest: plain and encrypted SQLite side by side, append and getContext
  if (wants('encryption')) await runOne('encryption', isQuick, environment, () => runEncryptionBench({ quick: isQuick }));
  if (wants('sqlite-knowledge-base')) await runOne('sqlite-knowledge-base', isQuick, environment, () => runSqliteKnowledgeBaseBench({ quick: isQuick }));
  // cold history: compression ratio of decayed topics, restore latency of one topic
  if (wants('topics-compression')) await runOne('topics-compression', isQuick, environment, () => runTopicsCompressionBench({ quick: isQuick }));
  // embedded SQLite KB and Chroma side by side in one run (Chroma: scripts/services.sh up)
  if (wants('knowledge-bases')) await runOne('knowledge-bases', isQuick, environment, () => runKnowledgeBasesBench({ quick: isQuick }));
  // derivation on BullMQ with 1, 2, 4 worker processes, and freshness (Redis: scripts/services.sh up)
  if (wants('worker-throughput')) await runOne('worker-throughput', isQuick, environment, () => runWorkerThroughputBench({ quick: isQuick }));
  // the PostgreSQL drivers pg and postgres.js side by side on a session store's queries, and on pool exhaustion (PostgreSQL: STRATA_POSTGRES_URL)
  if (wants('postgres-driver')) await runOne('postgres-driver', isQuick, environment, () => runPostgresDriverBench({ quick: isQuick }));
  // LoCoMo retrieval with the PostgreSQL store (BM25 in SQL) next to the embedded default's in-process BM25 (PostgreSQL: STRATA_POSTGRES_URL)
  if (wants('locomo-postgres')) await runOne('locomo-postgres', isQuick, environment, () => runLocomoPostgresBench({ quick: isQuick }));
  // the PostgreSQL store beside SQLite at 10k/100k messages, with 1/2/4 app processes writing, and derivation freshness with worker processes (PostgreSQL and Redis)
  if (wants('scale-out')) await runOne('scale-out', isQuick, environment, () => runScaleOutBench({ quick: isQuick }));
  // memory.import on PostgreSQL beside SQLite: turns only, and a bundle as export writes it (PostgreSQL)
  if (wants('import-throughput')) await runOne('import-throughput', isQuick, environment, () => runImportThroughputBench({ quick: isQuick }));
  // BM25 search on PostgreSQL at 1M turns with the postings' key index in its schema 3 and schema 4 forms, same data (PostgreSQL)
  if (wants('postgres-search')) await runOne('postgres-search', isQuick, environment, () => runPostgresSearchBench({ quick: isQuick }));
  // strata serve under HTTP load (wrk) beside the same calls in process: SQLite, then PostgreSQL + Chroma behind two servers
  // the scale-out fault test at full size: 4 apps x 5,000 appends, an app and a worker killed mid-run (PostgreSQL, Redis and Chroma)
  if (wants('scale-out-faults')) await runOne('scale-out-faults', isQuick, environment, () => runScaleOutFaultsBench({ quick: isQuick }));
  // what a 20 s model endpoint costs the app's calls: nothing, if derivation stays in the background
  if (wants('slow-endpoint')) await runOne('slow-endpoint', isQuick, environment, () => runSlowEndpointBench({ quick: isQuick }));
  if (wants('server')) await runOne('server', isQuick, environment, () => runServerBench({ quick: isQuick }));
}

/** Runs one scenario and writes its results; a scenario that returns null was skipped (it said why) and writes nothing. */
async function runOne(result: string, isQuick: boolean, environment: Environment, scenario: () => Promise<Omit<BenchResult, 'name' | 'isQuick' | 'environment'> | null>): Promise<void> {
  const started = process.hrtime.bigint();
  const output = await scenario();
  if (output === null) return;
  const markdown = await writeResults({ name: result, isQuick, environment, ...output });
  process.stdout.write(`${markdown}\n`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(`bench: ${result} done in ${seconds.toFixed(1)} s; results in bench/results/\n\n`);
}

main().catch((error: unknown) => {
  report(error);
  process.exitCode = 1;
});

/**
 * Benchmark entry: `npm run bench` (full) or `npm run bench -- --quick` (< 30 s).
 * Runs the scenarios and writes bench/results/<name>.json and .md.
 */
import type { BenchResult } from './lib/bench-result.js';
import { describeEnvironment, type Environment } from './lib/environment.js';
import { writeResults } from './lib/write-results.js';
import type { LatencySizes, MemoryTarget } from './scenarios/memory-latency.js';
import { FULL_SIZES, QUICK_SIZES, runMemoryLatency } from './scenarios/memory-latency.js';
import { inMemoryTarget, sqliteTarget } from './scenarios/memory-targets.js';
import { runKnowledgeBasesBench } from './scenarios/knowledge-bases.js';
import { runSqliteKnowledgeBaseBench } from './scenarios/sqlite-knowledge-base.js';

/** Each target with the corpora it is measured at (SQLite, the embedded default, up to 100k). */
function plan(isQuick: boolean): { result: string; target: MemoryTarget; sizes: LatencySizes }[] {
  const base = isQuick ? QUICK_SIZES : FULL_SIZES;
  return [
    { result: 'in-memory-latency', target: inMemoryTarget, sizes: base },
    { result: 'sqlite-latency', target: sqliteTarget(), sizes: { ...base, corpora: isQuick ? [1000] : [10_000, 100_000] } },
  ];
}

function parseArgs(argv: string[]): { isQuick: boolean } {
  const unknown = argv.filter((arg) => arg !== '--quick');
  if (unknown.length) throw new Error(`unknown argument(s): ${unknown.join(' ')}. Usage: npm run bench [-- --quick]`);
  return { isQuick: argv.includes('--quick') };
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

async function main(): Promise<void> {
  const { isQuick } = parseArgs(process.argv.slice(2));
  const environment = describeEnvironment();
  for (const { result, target, sizes } of plan(isQuick)) {
    await runOne(result, isQuick, environment, () => runMemoryLatency(target, sizes));
  }
  await runOne('sqlite-knowledge-base', isQuick, environment, () => runSqliteKnowledgeBaseBench({ quick: isQuick }));
  // embedded SQLite KB and Chroma side by side in one run (Chroma: scripts/services.sh up)
  await runOne('knowledge-bases', isQuick, environment, () => runKnowledgeBasesBench({ quick: isQuick }));
}

async function runOne(result: string, isQuick: boolean, environment: Environment, scenario: () => Promise<Omit<BenchResult, 'name' | 'isQuick' | 'environment'>>): Promise<void> {
  const started = process.hrtime.bigint();
  const output = await scenario();
  const markdown = await writeResults({ name: result, isQuick, environment, ...output });
  process.stdout.write(`${markdown}\n`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(`bench: ${result} done in ${seconds.toFixed(1)} s; results in bench/results/\n\n`);
}

main().catch((error: unknown) => {
  report(error);
  process.exitCode = 1;
});

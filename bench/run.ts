/**
 * Benchmark entry: `npm run bench` (full) or `npm run bench -- --quick` (< 30 s).
 * Runs the scenarios and writes bench/results/<name>.json and .md.
 */
import { describeEnvironment } from './lib/environment.js';
import { writeResults } from './lib/write-results.js';
import { FULL_SIZES, QUICK_SIZES, runInMemoryLatency } from './scenarios/in-memory-latency.js';

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
  const started = process.hrtime.bigint();
  const output = await runInMemoryLatency(isQuick ? QUICK_SIZES : FULL_SIZES);
  const markdown = await writeResults({ name: 'in-memory-latency', isQuick, environment, ...output });
  process.stdout.write(`${markdown}\n`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(`bench: in-memory-latency done in ${seconds.toFixed(1)} s; results in bench/results/\n`);
}

main().catch((error: unknown) => {
  report(error);
  process.exitCode = 1;
});

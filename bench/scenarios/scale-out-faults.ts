/**
 * `npm run bench -- scale-out-faults`: the scale-out fault test
 * (examples/test/scale-out-faults.int.test.ts) at full size. Four app processes append to
 * shared sessions on PostgreSQL while two BullMQ workers derive; one app and one worker are
 * SIGKILLed mid-run. The test asserts that no acknowledged turn is lost, no seq has a gap and
 * no job is applied twice; CI runs it at 500 appends per app, this at 5,000 (--quick: 300).
 * It runs the test file itself through vitest, so the two sizes check exactly the same
 * things, and records its figures and wall time. Needs PostgreSQL, Redis and Chroma
 * (`bash scripts/services.sh up`).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Figure } from '../lib/bench-result.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TEST_FILE = 'examples/test/scale-out-faults.int.test.ts';
const FIGURES_LINE = 'scale-out faults figures: ';

interface FaultFigures {
  appendsPerApp: number;
  acknowledged: number;
  stored: number;
  ledger: number;
  deliveredAgain: number;
  takenBack: number;
  facts: number;
  summaries: number;
}

/** Runs the fault test once with `appends` per app; its output, wall time and exit code. */
async function runFaultTest(appends: number): Promise<{ output: string; seconds: number; code: number | null }> {
  // vitest's bin, beside its package.json (the only file of it that its exports map lets one resolve)
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [vitest, 'run', TEST_FILE], {
    cwd: REPO_ROOT,
    env: { ...process.env, STRATA_SCALE_OUT_APPENDS: String(appends), STRATA_REQUIRE_SERVICES: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { output, seconds: Number(process.hrtime.bigint() - started) / 1e9, code };
}

export async function runScaleOutFaultsBench(options: { quick: boolean }): Promise<{ latencies: []; figures: Figure[]; notes: string[] }> {
  const appends = options.quick ? 300 : 5000;
  process.stderr.write(`bench: scale-out-faults: 4 apps x ${appends} appends, 2 workers, one app and one worker killed mid-run\n`);
  const run = await runFaultTest(appends);
  const line = run.output.split('\n').find((l) => l.startsWith(FIGURES_LINE));
  if (run.code !== 0 || line === undefined) {
    throw new Error(`the fault test failed (exit ${String(run.code)}) at ${appends} appends per app:\n${run.output.slice(-4000)}`);
  }
  const f = JSON.parse(line.slice(FIGURES_LINE.length)) as FaultFigures;
  return {
    latencies: [],
    figures: [
      { name: 'appends per app process (4 apps)', value: f.appendsPerApp, unit: 'appends' },
      { name: 'acknowledged appends', value: f.acknowledged, unit: 'appends' },
      { name: 'stored appends', value: f.stored, unit: 'messages' },
      { name: 'jobs in the ledger', value: f.ledger, unit: 'jobs' },
      { name: 'results delivered again after the kills (applied once)', value: f.deliveredAgain, unit: 'results' },
      { name: 'jobs taken back from a killed worker', value: f.takenBack, unit: 'jobs' },
      { name: 'facts', value: f.facts, unit: 'facts' },
      { name: 'summaries', value: f.summaries, unit: 'summaries' },
      { name: 'wall time of the test', value: Math.round(run.seconds), unit: 's' },
    ],
    notes: [
      `The test (${TEST_FILE}) passed: every acknowledged append is stored once at its seq, each session's seqs run 1..lastSeq without a gap, no fact or summary was written twice, no job failed, and forgetting a session empties PostgreSQL and Chroma of it.`,
      'CI runs the same file at 500 appends per app (its default); this run sets STRATA_SCALE_OUT_APPENDS.',
    ],
  };
}

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { summarize } from '../lib/stats.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The built CLI as `npx strata` runs it: the linked bin shim, which imports dist/bin.js. */
const BIN = join(ROOT, 'apps/demo-cli/bin/strata.js');
const TARGET_MS = 300;

/** Commands a user types to look around; the start-up target covers these three. */
const COMMANDS: { label: string; args: string[] }[] = [
  { label: 'strata --help', args: ['--help'] },
  { label: 'strata config', args: ['config'] },
  { label: 'strata sessions (an empty data dir)', args: ['sessions'] },
];

/**
 * Wall time from spawning `node apps/demo-cli/bin/strata.js ARGS` to its exit, in a fresh
 * process each time (a start-up is never warm), against a throwaway data dir. A bare
 * `node -e 0` is timed the same way: the part no CLI code can remove on this machine.
 */
export async function runCliStartupBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; notes: string[] } | null> {
  if (!existsSync(join(ROOT, 'apps/demo-cli/dist/bin.js'))) {
    process.stderr.write('cli-startup: skipped, the CLI is not built (npm run build)\n');
    return null;
  }
  const runs = options.quick ? 5 : 30;
  const dir = mkdtempSync(join(tmpdir(), 'strata-cli-startup-'));
  const env = { ...process.env, STRATA_DATA_DIR: dir, XDG_CONFIG_HOME: join(dir, 'config'), NO_COLOR: '1' };
  try {
    const time = (args: string[]): number[] => {
      const samples: number[] = [];
      for (let i = 0; i < runs + 1; i++) {
        const started = performance.now();
        const child = spawnSync(process.execPath, args, { env, cwd: ROOT, stdio: 'ignore' });
        const elapsed = performance.now() - started;
        if (child.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${String(child.status ?? child.signal)}`);
        // the first run reads the files from disk; a user's second command finds them cached
        if (i > 0) samples.push(elapsed);
      }
      return samples;
    };
    const baseline = summarize(time(['-e', '0']));
    const latencies: LatencyMetric[] = [{ metric: 'node -e 0 (the floor: Node itself starting)', summary: baseline }];
    const figures: Figure[] = [];
    for (const command of COMMANDS) {
      const summary = summarize(time([BIN, ...command.args]));
      latencies.push({ metric: command.label, summary });
      figures.push({ name: `${command.label}: p50 start-to-exit (target <= ${TARGET_MS} ms)`, value: Math.round(summary.p50), unit: 'ms' });
    }
    return {
      latencies,
      figures,
      notes: [
        `Each command in a fresh Node process, ${runs} timed runs after one untimed, spawn to exit, against an empty data dir (the first \`sessions\` creates the SQLite file).`,
        'Heavy modules load when a command needs them: the wiring (SQLite, models, Chroma, BullMQ), the config schemas, the tokenizer tables (on the first token count), the date parser and the tagger model (on first use).',
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { execFileSync } from 'node:child_process';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

/** Where a benchmark ran: numbers are only comparable on the same machine and commit. */
export interface Environment {
  cpu: string;
  cores: number;
  totalMemoryGb: number;
  node: string;
  platform: string;
  commit: string;
  /** Uncommitted changes in the tree: the numbers may not belong to `commit`. */
  isDirty: boolean;
  date: string;
  /** 1, 5 and 15 minute load averages when the run started: timings on a busy machine are distorted. */
  loadAverage?: number[];
  /** NODE_OPTIONS the run was started with (V8's thread pool, heap sizes): they change tail latencies. */
  nodeOptions?: string;
}

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch (error) {
    // Not a checkout (e.g. an exported tarball): report the commit as unknown, not fail.
    process.stderr.write(`bench: git ${args.join(' ')} failed (${error instanceof Error ? error.message : String(error)})\n`);
    return null;
  }
}

export function describeEnvironment(): Environment {
  const cpuList = cpus();
  // the results are this run's output: a tree changed only there is still the commit's code
  const status = git(['status', '--porcelain', '--', '.', ':(exclude)bench/results']);
  return {
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    totalMemoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${platform()} ${release()} ${arch()}`,
    commit: git(['rev-parse', '--short', 'HEAD']) ?? 'unknown',
    isDirty: status === null ? false : status.length > 0,
    date: new Date().toISOString(),
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    ...(process.env.NODE_OPTIONS?.trim() ? { nodeOptions: process.env.NODE_OPTIONS.trim() } : {}),
  };
}

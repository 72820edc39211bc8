/**
 * `strata worker`-like processes for the worker-throughput bench (bench/scenarios/worker-bench-process.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = fileURLToPath(new URL('../scenarios/worker-bench-process.ts', import.meta.url));

/** What a bench worker process is told (argv[2], JSON). */
export interface BenchWorkerConfig {
  url: string;
  prefix: string;
  models: 'instant' | 'offline';
  concurrency: number;
}

/** Starts `count` worker processes and resolves when each has said `ready`; rejects after 60 s or if one exits first. */
export async function startWorkers(count: number, config: BenchWorkerConfig): Promise<ChildProcess[]> {
  const started = Array.from({ length: count }, () => startWorker(config));
  const settled = await Promise.allSettled(started);
  const children = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure !== undefined) {
    await stopWorkers(children);
    throw failure.reason;
  }
  return children;
}

function startWorker(config: BenchWorkerConfig): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@strata/source', ENTRY, JSON.stringify(config)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise<ChildProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('a bench worker did not start within 60 s'));
    }, 60_000);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('ready')) return;
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`a bench worker exited (${code}) before it was ready`));
    });
  });
}

/** SIGTERM (the worker finishes running jobs and exits); resolves when every one has exited. */
export async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

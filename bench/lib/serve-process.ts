/**
 * `strata serve` as a user runs it (the built CLI, apps/demo-cli/bin/strata.js) for the server
 * bench: started on a free port, its memory read from /proc, stopped with SIGTERM.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The built CLI as `npx strata` runs it: the linked bin shim, which imports dist/bin.js. */
export const STRATA_BIN = join(ROOT, 'apps/demo-cli/bin/strata.js');

/** Null when the CLI is built and knows `serve`; otherwise why not. */
export function cliUnavailable(): string | null {
  if (!existsSync(join(ROOT, 'apps/demo-cli/dist/bin.js'))) return 'the CLI is not built (npm run build)';
  const help = spawnSync(process.execPath, [STRATA_BIN, 'serve', '--help'], { cwd: ROOT, encoding: 'utf8' });
  return help.status === 0 ? null : `the built CLI has no \`serve\` command (npm run build): ${help.stderr.trim()}`;
}

/** The CLI's environment without the caller's strata settings (a Chroma URL or a PostgreSQL store in the shell would change what it opens). */
export function cliEnv(dataDir: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STRATA_') && name !== 'OPENAI_API_KEY' && name !== 'NODE_OPTIONS'));
  return { ...env, STRATA_DATA_DIR: dataDir, XDG_CONFIG_HOME: join(dataDir, 'config'), NO_COLOR: '1' };
}

/** Resident memory of a process, from /proc/<pid>/status, in MB. */
export interface ProcessMemory {
  /** VmRSS: resident now. */
  rssMb: number;
  /** VmHWM: the peak resident set since the process started. */
  peakMb: number;
}

/** Null off Linux (no /proc) or once the process is gone. */
export function readProcessMemory(pid: number): ProcessMemory | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: Math.round(kb('VmRSS') / 102.4) / 10, peakMb: Math.round(kb('VmHWM') / 102.4) / 10 };
}

/** CPU time (user + system, every thread) a process has used so far, in ms, from /proc/<pid>/stat; null when unknown. */
export function readProcessCpuMs(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // the fields after the command name (which may hold spaces), from field 3 on: utime and stime are fields 14 and 15, in clock ticks
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** USER_HZ: 100 on Linux for every architecture Node runs on. */
const CLOCK_TICKS = 100;

/** A running `strata serve`. */
export interface ServeProcess {
  url: string;
  port: number;
  pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  /** SIGTERM, then its exit: code 0 means it finished the requests in flight and closed the memory. */
  stop: () => Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/** Runs `strata GLOBAL_ARGS serve --port 0 SERVE_ARGS`; resolves once it prints the URL it listens on (60 s at most). */
export function startServe(options: { env: NodeJS.ProcessEnv; globalArgs?: string[]; serveArgs?: string[] }): Promise<ServeProcess> {
  const args = [STRATA_BIN, ...(options.globalArgs ?? []), 'serve', '--port', '0', ...(options.serveArgs ?? [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`strata serve did not say where it listens within 60 s:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (!listening) return;
      clearTimeout(timer);
      const url = listening[1] as string;
      resolve({ url, port: Number(new URL(url).port), pid: child.pid as number, output: () => output, stop: () => stop(child, exited) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`strata serve exited (${signal ?? code}) before listening:\n${output}`));
    });
  });
}

async function stop(child: ChildProcess, exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>) {
  const started = performance.now();
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const result = await exited;
  return { ...result, ms: Math.round(performance.now() - started) };
}

/** Runs the CLI once (e.g. `keys create … --json`) and returns its stdout; throws with its stderr when it fails. */
export function runStrata(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [STRATA_BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`strata ${args.join(' ')} exited with ${String(code)}:\n${stderr}`))));
  });
}

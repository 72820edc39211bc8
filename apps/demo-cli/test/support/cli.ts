import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

export const root = fileURLToPath(new URL('../../../..', import.meta.url));
/** The built CLI, as `npm run strata` and the package's bin run it. */
export const bin = join(root, 'apps/demo-cli/dist/bin.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A throwaway home for one test file: data dir, config dir, HOME. Nothing reaches the user's
 * real data dir or config, and no STRATA_* / OPENAI_* variable leaks in from the caller.
 */
export function createSandbox(prefix: string): { dir: string; dataDir: string; env: NodeJS.ProcessEnv; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), `strata-${prefix}-`));
  const dataDir = join(dir, 'data');
  for (const sub of ['home', 'config', 'xdg-data']) mkdirSync(join(dir, sub));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(STRATA_|OPENAI_|XDG_|NO_COLOR|FORCE_COLOR|CI$)/.test(key)));
  const env = { ...inherited, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'xdg-data'), STRATA_DATA_DIR: dataDir };
  return { dir, dataDir, env, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `strata ARGS`, feeding `input` on stdin (then closing it), and collects everything. */
export function runCli(args: string[], options: { env: NodeJS.ProcessEnv; input?: string | Buffer; timeoutMs?: number }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Parses stdout of a `--json` command, failing with the output when it is not JSON. */
export function json<T>(result: CliResult): T {
  if (result.code !== 0) throw new Error(`exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Opens the CLI's SQLite file read-only, runs `read`, closes it. */
export function readDb<T>(dataDir: string, read: (db: Database.Database) => T, file = 'memory.sqlite'): T {
  const db = new Database(join(dataDir, file), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** A running `strata` whose output can be awaited, for tests that signal it mid-session. */
export function startCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const w of waiters.filter((w) => w.pattern.test(stdout))) w.resolve();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    output: () => stdout,
    exited,
    /** Resolves once stdout matches (the test's own timeout bounds the wait). */
    waitFor: (pattern: RegExp) => new Promise<void>((resolve) => (pattern.test(stdout) ? resolve() : waiters.push({ pattern, resolve }))),
  };
}

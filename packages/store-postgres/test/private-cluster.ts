import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL cluster of this test alone (initdb in a temp dir, its own port), so a
 * test can restart a server without touching the one other tests use. PostgreSQL refuses to
 * run as root: as root the cluster belongs to the system user `postgres`.
 */
export interface PrivateCluster {
  url: string;
  /** Restarts the server (fast shutdown, then start) while the caller's event loop keeps running, so its calls meet the restart. */
  restart(): Promise<void>;
  stop(): void;
}

/** The PostgreSQL program `name`: on PATH, else in the newest /usr/lib/postgresql/<version>/bin. */
function program(name: string): string | undefined {
  try {
    return execFileSync('bash', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
    return versions.map((v) => `/usr/lib/postgresql/${v}/bin/${name}`).find((path) => existsSync(path));
  }
}

/** Null when this machine can run one; else why not. */
export function privateClusterUnavailable(): string | null {
  if (program('initdb') === undefined || program('pg_ctl') === undefined) return 'initdb and pg_ctl are not installed';
  if (process.getuid?.() === 0 && !hasUser('postgres')) return 'running as root without a postgres user to own the cluster';
  return null;
}

function hasUser(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Ports to try, below Linux's ephemeral range (32768-60999), so that no client socket of another
 * test can hold the port between the pick and the server's bind.
 */
function candidatePorts(count: number): number[] {
  return Array.from({ length: count }, () => 20_000 + Math.floor(Math.random() * 12_000));
}

/** Starts a cluster on a free port; a port another program holds is passed over for the next. */
export function startPrivateCluster(): PrivateCluster {
  const initdb = program('initdb') as string;
  const pgCtl = program('pg_ctl') as string;
  const dir = mkdtempSync(join(tmpdir(), 'strata-pg-'));
  const isRoot = process.getuid?.() === 0;
  const run = (file: string, args: string[]): void => {
    if (isRoot) execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'ignore', cwd: '/' });
    else execFileSync(file, args, { stdio: 'ignore' });
  };
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const logTail = (): string => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '(no server log)');
  run(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const optionsFor = (port: number): string => `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  let started: number | undefined;
  for (const port of candidatePorts(5)) {
    try {
      run(pgCtl, ['-D', data, '-l', log, '-o', optionsFor(port), '-w', 'start']);
      started = port;
      break;
    } catch {
      // the port was taken (the log says so); the next candidate is tried
    }
  }
  if (started === undefined) {
    const tail = logTail();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`a private PostgreSQL cluster did not start on any of 5 ports; its log ends:\n${tail}`);
  }
  const options = optionsFor(started);
  return {
    url: `postgres://postgres@127.0.0.1:${started}/postgres`,
    restart: async () => {
      const args = ['-D', data, '-l', log, '-o', options, '-m', 'fast', '-w', 'restart'];
      try {
        if (isRoot) await promisify(execFile)('runuser', ['-u', 'postgres', '--', pgCtl, ...args], { cwd: '/' });
        else await promisify(execFile)(pgCtl, args);
      } catch (error) {
        throw new Error(`the private PostgreSQL cluster did not restart; its log ends:\n${logTail()}`, { cause: error });
      }
    },
    stop: () => {
      try {
        run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL cluster of this test alone (initdb in a temp dir, its own port), so a
 * test can restart a server without touching the one other tests use. PostgreSQL refuses to
 * run as root: as root the cluster belongs to the system user `postgres`.
 */
export interface PrivateCluster {
  url: string;
  restart(): void;
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

export function startPrivateCluster(port: number): PrivateCluster {
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
  run(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  run(pgCtl, ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () => run(pgCtl, ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-m', 'fast', '-w', 'restart']),
    stop: () => {
      try {
        run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

import { open, rm, stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { StrataError } from '@strata/core';

/*
 * Writers of one keys file (a running server never writes; `strata keys` processes and a test's
 * two stores do) take turns through a lock file created with O_CREAT|O_EXCL ('wx'): the kernel
 * creates it for exactly one of them, on every local file system, with no package to install
 * (proper-lockfile is not a dependency). Each writer re-reads the keys file under the lock and
 * then replaces it, so no writer's key is lost to another's read-modify-write. A writer killed
 * while it holds the lock leaves the file behind; a lock older than `staleMs` (writers hold it for
 * a few milliseconds) is taken to be such a leftover and removed.
 */

/** How long a writer waits for the lock before giving up. */
const WAIT_MS = 10_000;
/** Age after which a lock file is a dead writer's leftover. */
const STALE_MS = 15_000;

/** Runs `write` while holding `<path>.lock`; the lock is released whatever `write` does. */
export async function withFileLock<T>(path: string, write: () => Promise<T>, options: { waitMs?: number; staleMs?: number } = {}): Promise<T> {
  const lock = `${path}.lock`;
  await acquire(lock, options.waitMs ?? WAIT_MS, options.staleMs ?? STALE_MS);
  try {
    return await write();
  } finally {
    await rm(lock, { force: true });
  }
}

async function acquire(lock: string, waitMs: number, staleMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      // the holder's pid, for a person who finds a leftover lock
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw lockError(lock, error);
    }
    if (await removeIfStale(lock, staleMs)) continue;
    if (Date.now() > deadline) {
      throw new StrataError('BACKEND_UNAVAILABLE', `the keys file is locked by another writer (${lock} exists for more than ${waitMs} ms)`, {
        hint: `Try again; if no strata process is changing keys, remove ${lock}.`,
      });
    }
    // jittered, so that two waiting writers do not retry in step
    await delay(5 + Math.random() * 20);
  }
}

/** Removes the lock when its holder has had it for longer than any writer holds it; true when removed. */
async function removeIfStale(lock: string, staleMs: number): Promise<boolean> {
  try {
    const { mtimeMs } = await stat(lock);
    if (Date.now() - mtimeMs <= staleMs) return false;
  } catch (error) {
    // released between our open and stat: try again at once
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw lockError(lock, error);
  }
  await rm(lock, { force: true });
  return true;
}

function lockError(lock: string, error: unknown): StrataError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  return new StrataError(code === 'ENOENT' ? 'CONFIG_INVALID' : 'BACKEND_UNAVAILABLE', `cannot lock the keys file with ${lock} (${code})`, {
    hint: code === 'ENOENT' ? 'Create the folder of the keys file first, or pass another path.' : 'Check that the folder of the keys file exists and is writable by this user.',
    cause: error,
  });
}

import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import type { LexicalIndex, NewMessage, SessionStore, StrataErrorCode } from '@strata/core';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';

/**
 * Root writes through chmod 0o555 (CAP_DAC_OVERRIDE), so as root the read-only-directory case
 * runs in a child without that capability (util-linux `setpriv`). It stays uid 0, the owner
 * of the checkout, so it can still read the code wherever the checkout is (e.g. a 0700 temp
 * directory, which an unprivileged user could not enter).
 */
const isRoot = process.getuid?.() === 0;
const root = fileURLToPath(new URL('../../..', import.meta.url));
const openStoreFixture = fileURLToPath(new URL('./fixtures/open-store.ts', import.meta.url));
const WITHOUT_DAC_OVERRIDE = ['--bounding-set=-dac_override,-dac_read_search', '--'];

/** Runs fixtures/open-store.ts without the capability to write through file modes, and returns what it printed. */
function openStoreWithoutOverride(path: string): { ok: boolean; code?: string; message?: string; hint?: string } {
  const run = spawnSync('setpriv', [...WITHOUT_DAC_OVERRIDE, process.execPath, '--import', 'tsx', '--conditions=@strata/source', openStoreFixture, path], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.status !== 0) throw new Error(`open-store fixture exited ${String(run.status)}:\n${run.stderr}${run.error ? String(run.error) : ''}`);
  return JSON.parse(run.stdout.trim()) as { ok: boolean; code?: string; message?: string; hint?: string };
}

/** Awaits a call that must fail with a StrataError of `code` whose message names `path`. */
async function expectFailure(call: Promise<unknown>, code: StrataErrorCode, path: string): Promise<StrataError> {
  const error = await call.then(
    () => new Error('expected the call to fail, but it succeeded'),
    (caught: unknown) => caught,
  );
  if (!StrataError.is(error)) throw error;
  expect(error.code).toBe(code);
  expect(error.message).toContain(path);
  expect(error.hint.length).toBeGreaterThan(20);
  return error;
}

describe('SqliteSessionStore on bad files', () => {
  let directory: string;

  const digest = async (path: string): Promise<string> =>
    createHash('sha256')
      .update(await readFile(path))
      .digest('hex');

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'strata-bad-files-'));
  });

  afterEach(async () => {
    await chmod(directory, 0o700);
    await rm(directory, { recursive: true, force: true });
  });

  it('a corrupt file is CONFIG_INVALID, and the file is left as it was', async () => {
    const path = join(directory, 'corrupt.db');
    await writeFile(path, randomBytes(16_384));
    const before = await digest(path);
    const error = await expectFailure(createSqliteSessionStore({ path }), 'CONFIG_INVALID', path);
    expect(error.message).toMatch(/not a SQLite database or is corrupt/);
    expect(error.hint).toMatch(/backup/);
    expect(await digest(path)).toBe(before);
  });

  it("another application's SQLite file is CONFIG_INVALID, and its tables are untouched", async () => {
    const path = join(directory, 'contacts.db');
    const foreign = new Database(path);
    foreign.exec("CREATE TABLE contacts (name TEXT, phone TEXT); INSERT INTO contacts VALUES ('Ada', '123'), ('Grace', '456');");
    foreign.close();
    const before = await digest(path);
    const error = await expectFailure(createSqliteSessionStore({ path }), 'CONFIG_INVALID', path);
    expect(error.message).toContain('contacts');
    expect(error.hint).toMatch(/other applications/);
    expect(await digest(path)).toBe(before);
    const after = new Database(path, { readonly: true });
    try {
      expect(after.prepare('SELECT name, phone FROM contacts ORDER BY name').raw().all()).toEqual([
        ['Ada', '123'],
        ['Grace', '456'],
      ]);
      expect(after.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all()).toEqual(['contacts']);
      expect(after.pragma('journal_mode', { simple: true })).toBe('delete');
    } finally {
      after.close();
    }
  });

  it('a path in a read-only directory is BACKEND_UNAVAILABLE', async () => {
    const locked = join(directory, 'locked');
    await mkdir(locked, { mode: 0o555 });
    const path = join(locked, 'strata.db');
    if (isRoot) {
      // Root writes through any mode: open the store in a child process without that capability.
      const outcome = openStoreWithoutOverride(path);
      expect(outcome).toMatchObject({ ok: false, code: 'BACKEND_UNAVAILABLE' });
      expect(outcome.message).toContain(path);
      expect(outcome.hint).toMatch(/writable/);
    } else {
      const error = await expectFailure(createSqliteSessionStore({ path }), 'BACKEND_UNAVAILABLE', path);
      expect(error.hint).toMatch(/writable/);
    }
    expect(existsSync(path)).toBe(false);
    await chmod(locked, 0o700);
  });

  it('a path whose directory does not exist is BACKEND_UNAVAILABLE naming the directory', async () => {
    const missing = join(directory, 'missing', 'deeper');
    const path = join(missing, 'strata.db');
    const error = await expectFailure(createSqliteSessionStore({ path }), 'BACKEND_UNAVAILABLE', path);
    expect(error.message).toContain(`${missing} does not exist`);
    expect(error.hint).toMatch(/Create the directory/);
  });

  it('a path that is a directory is BACKEND_UNAVAILABLE', async () => {
    const path = join(directory, 'a-directory');
    await mkdir(path);
    const error = await expectFailure(createSqliteSessionStore({ path }), 'BACKEND_UNAVAILABLE', path);
    expect(error.hint).toMatch(/writable/);
  });

  describe('when the disk is full', () => {
    let path: string;
    let store: SessionStore & LexicalIndex;

    /** Two large turns; the word `batchN` appears only in batch N. */
    const batch = (n: number): NewMessage[] => [1, 2].map((i) => ({ id: `b${n}-${i}`, role: 'user', content: `batch${n} ${'lorem ipsum '.repeat(250)}`, createdAt: n, metadata: {} }));
    const append = (n: number): Promise<unknown> => store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: batch(n) }] });
    const search = async (text: string): Promise<string[]> => (await store.search({ namespace: 'ns', text, kinds: ['turn'], k: 10 })).map((hit) => hit.id).sort();

    beforeEach(async () => {
      path = join(directory, 'small.db');
      // 64 pages of 4 KiB: the schema takes about half, a few batches fill the rest.
      store = await createSqliteSessionStore({ path, maxPageCount: 64 });
      const session = { id: 's1', namespace: 'ns', metadata: {}, createdAt: 0, updatedAt: 0, lastSeq: 0 };
      await store.write({ ops: [{ type: 'putSession', session }] });
    });

    afterEach(async () => {
      await store.close();
    });

    /** Appends batches until one fails; returns how many succeeded and the failure. */
    const fillUp = async (): Promise<{ succeeded: number; failure: Promise<unknown> }> => {
      for (let n = 0; n < 1_000; n += 1) {
        const attempt = append(n);
        const failed = await attempt.then(
          () => false,
          () => true,
        );
        if (failed) return { succeeded: n, failure: attempt };
      }
      throw new Error('the database never filled up');
    };

    it('fails with BACKEND_UNAVAILABLE saying so, and keeps exactly the batches that succeeded', async () => {
      const { succeeded, failure } = await fillUp();
      expect(succeeded).toBeGreaterThan(0);
      const error = await expectFailure(failure, 'BACKEND_UNAVAILABLE', path);
      expect(error.message).toMatch(/full/);
      expect(error.retryable).toBe(true);
      expect(error.hint).toMatch(/Nothing of the failed write was stored/);

      const stored = await store.messages({ sessionId: 's1' });
      expect(stored.map((m) => m.id)).toEqual(Array.from({ length: succeeded }, (_, n) => [`b${n}-1`, `b${n}-2`]).flat());
      expect(stored.map((m) => m.seq)).toEqual(Array.from({ length: 2 * succeeded }, (_, i) => i + 1));
      expect((await store.sessions({ ids: ['s1'] }))[0]?.lastSeq).toBe(2 * succeeded);
      expect(await search(`batch${succeeded}`)).toEqual([]);
      expect(await search('batch0')).toEqual(['b0-1', 'b0-2']);
    });

    it('still reads, and writes again once space is freed', async () => {
      const { succeeded } = await fillUp();
      expect((await store.messages({ sessionId: 's1', last: 2 })).map((m) => m.id)).toEqual([`b${succeeded - 1}-1`, `b${succeeded - 1}-2`]);
      await store.write({ ops: [{ type: 'delete', messages: ['b0-1', 'b0-2'] }] });
      await append(succeeded);
      expect(await search(`batch${succeeded}`)).toEqual([`b${succeeded}-1`, `b${succeeded}-2`]);
    });
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionStore } from '@strata/core';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';

const MB = 1024 * 1024;
const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
/** About 1,000 WAL frames of 4 KiB pages: where a commit schedules a checkpoint. */
const SOFT_BYTES = 1000 * (4096 + 24);
/** SQLite's auto-checkpoint, the backstop, runs at 2,000 frames. */
const BACKSTOP_BYTES = 2000 * (4096 + 24);

/**
 * Checkpoints run between writes, not inside them, and the WAL stays bounded both for a
 * writer that yields to the event loop between writes and for one that never does.
 */
describe('SqliteSessionStore WAL checkpoints', () => {
  let directory: string;
  let path: string;
  let store: SessionStore;
  const size = (file: string): number => statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  /** The main file changes only when a checkpoint copies pages into it (WAL mode). */
  const mainFileStamp = (): bigint => statSync(path, { bigint: true }).mtimeNs;
  const append = (sessionId: string, i: number): Promise<unknown> =>
    store.write({
      ops: [{ type: 'appendMessages', sessionId, messages: [{ id: `m${i}`, role: 'user', content: `turn ${i} about the trip to Lisbon and the weather there`, createdAt: i, metadata: { i } }] }],
    });

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'strata-wal-'));
    path = join(directory, 'strata.db');
    store = await createSqliteSessionStore({ path, synchronous: 'FULL' });
    await store.write({ ops: [{ type: 'putSession', session: { id: 's1', namespace: 'ns', metadata: {}, createdAt: 0, updatedAt: 0, lastSeq: 0 } }] });
  });

  afterEach(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('a writer that yields between writes: the thread copies the bulk of the WAL while writes go on, this process checkpoints only the rest, and the WAL stays bounded', async () => {
    /*
     * Before each wal_checkpoint on this process's connections (the store's; the thread's
     * connection lives in another thread and is not seen here), the frames in the WAL and the
     * frames already copied into the file, from the WAL index (the -shm file: mxFrame of its
     * header at byte 16, nBackfill of the checkpoint info at byte 96, native byte order).
     */
    const original = Database.prototype.pragma;
    const leftHere: { frames: number; left: number }[] = [];
    const pragma = vi.spyOn(Database.prototype, 'pragma').mockImplementation(function (this: Database.Database, ...args: Parameters<Database.Database['pragma']>) {
      if (String(args[0]).startsWith('wal_checkpoint')) {
        const index = readFileSync(`${path}-shm`);
        const frames = index.readUInt32LE(16);
        leftHere.push({ frames, left: frames - index.readUInt32LE(96) });
      }
      return original.apply(this, args);
    });
    let largest = 0;
    let copiedDuringWrites = 0;
    try {
      for (let i = 1; i <= 4000; i++) {
        const before = mainFileStamp();
        const checkpointsBefore = leftHere.length;
        await append('s1', i);
        // pages reached the file while this write ran, and no checkpoint of this process did it
        if (mainFileStamp() !== before && leftHere.length === checkpointsBefore) copiedDuringWrites++;
        largest = Math.max(largest, size(`${path}-wal`));
        await nextMacrotask();
      }
    } finally {
      pragma.mockRestore();
    }
    const full = leftHere.filter((c) => c.frames >= 900);
    // about 1,000 frames at each checkpoint: this process had only what came during the thread's copy left to copy
    expect(full.length).toBeGreaterThan(2);
    expect(sum(full.map((c) => c.left))).toBeLessThan(sum(full.map((c) => c.frames)) / 2);
    expect(copiedDuringWrites).toBeGreaterThan(0);
    // writes go on during a copy, so the WAL may pass the mark by what they add; the backstop bounds it
    expect(largest).toBeLessThan(BACKSTOP_BYTES + MB);
    expect(await store.messages({ sessionId: 's1', last: 1 })).toMatchObject([{ id: 'm4000', seq: 4000 }]);
  });

  it('a writer that never yields: its commits checkpoint a quarter past the mark, so the WAL stays near 1,000 pages', async () => {
    let largest = 0;
    let checkpointsInWrites = 0;
    for (let i = 1; i <= 3000; i++) {
      const before = mainFileStamp();
      await append('s1', i);
      if (mainFileStamp() !== before) checkpointsInWrites++;
      largest = Math.max(largest, size(`${path}-wal`));
    }
    expect(checkpointsInWrites).toBeGreaterThan(1);
    expect(largest).toBeGreaterThan(SOFT_BYTES);
    expect(largest).toBeLessThan(SOFT_BYTES + 2 * MB);
    expect((await store.messages({ sessionId: 's1' })).map((m) => m.seq)).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
  });

  it('an encrypted file: the thread opens it with the key and copies the WAL while writes go on, and the file stays whole', async () => {
    const secret = join(directory, 'secret.db');
    const encrypted = await createSqliteSessionStore({ path: secret, encryptionKey: 'a key of this test' });
    const stamp = (): bigint => statSync(secret, { bigint: true }).mtimeNs;
    const pragma = vi.spyOn(Database.prototype, 'pragma');
    const checkpointsHere = (): number => pragma.mock.calls.filter(([sql]) => String(sql).startsWith('wal_checkpoint')).length;
    let copiedDuringWrites = 0;
    let largest = 0;
    try {
      await encrypted.write({ ops: [{ type: 'putSession', session: { id: 's1', namespace: 'ns', metadata: {}, createdAt: 0, updatedAt: 0, lastSeq: 0 } }] });
      for (let i = 1; i <= 2500; i++) {
        const before = stamp();
        const here = checkpointsHere();
        await encrypted.write({
          ops: [{ type: 'appendMessages', sessionId: 's1', messages: [{ id: `m${i}`, role: 'user', content: `turn ${i} about the trip to Lisbon`, createdAt: i, metadata: {} }] }],
        });
        if (stamp() !== before && checkpointsHere() === here) copiedDuringWrites++;
        largest = Math.max(largest, size(`${secret}-wal`));
        await nextMacrotask();
      }
    } finally {
      pragma.mockRestore();
      await encrypted.close();
    }
    expect(copiedDuringWrites).toBeGreaterThan(0);
    // writes go on during a copy, so the WAL may pass the mark by what they add; the backstop bounds it
    expect(largest).toBeLessThan(BACKSTOP_BYTES + MB);
    // a file that opens with its key alone, whole, with every turn, its WAL checkpointed away at close
    expect(size(`${secret}-wal`)).toBe(0);
    const reopened = await createSqliteSessionStore({ path: secret, encryptionKey: 'a key of this test' });
    try {
      expect((await reopened.messages({ sessionId: 's1', last: 1 }))[0]).toMatchObject({ id: 'm2500', seq: 2500 });
    } finally {
      await reopened.close();
    }
  });

  it('a forget while the thread copies the WAL: the forget waits for the copy, and neither the WAL nor the file keeps the text', async () => {
    const secret = 'Wombat4821';
    const onDisk = (): number =>
      [path, `${path}-wal`].reduce((count, file) => {
        const bytes = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
        let found = 0;
        for (const needle of [secret, secret.toLowerCase()]) for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) found++;
        return count + found;
      }, 0);
    // the thread is up (it starts half way to the first mark and opens its connection meanwhile)
    let i = 0;
    while (i < 1500) {
      await append('s1', ++i);
      await nextMacrotask();
    }
    await store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [{ id: 'secret', role: 'user', content: `My code is ${secret}.`, createdAt: 0, metadata: {} }] }] });
    // without yielding, up to the commit that hands the thread a copy (it starts at once)
    const thread = (store as unknown as { checkpoints: { thread?: { busy(): boolean } } }).checkpoints.thread;
    while (thread?.busy() !== true && i < 20_000) await append('s1', ++i);
    expect(thread?.busy()).toBe(true);
    await store.write({ ops: [{ type: 'delete', messages: ['secret'] }] });
    expect(onDisk()).toBe(0);
    expect(await store.messages({ ids: ['secret'] })).toEqual([]);
  });

  it('a reader on an old snapshot: writes go on, the reader keeps its snapshot, and a later checkpoint truncates the WAL once it ends', async () => {
    await append('s1', 1);
    const reader = new Database(path, { readonly: true });
    try {
      reader.exec('BEGIN');
      expect(reader.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(1);
      let appended = 1;
      while (size(`${path}-wal`) <= 2 * SOFT_BYTES && appended < 20_000) {
        await append('s1', ++appended);
        await nextMacrotask();
      }
      expect(size(`${path}-wal`)).toBeGreaterThan(2 * SOFT_BYTES);
      expect(reader.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(1);
      reader.exec('COMMIT');
      // a checkpoint that found the reader is tried again after another 1,000 pages of WAL
      let largest = 0;
      while (size(`${path}-wal`) > 0 && appended < 40_000) {
        await append('s1', ++appended);
        largest = Math.max(largest, size(`${path}-wal`));
        await nextMacrotask();
      }
      expect(size(`${path}-wal`)).toBe(0);
      expect(largest).toBeLessThan(BACKSTOP_BYTES + MB);
      expect(reader.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(appended);
    } finally {
      reader.close();
    }
  });

  it('closing with a checkpoint pending leaves a whole file and no error behind', async () => {
    // without yielding, the WAL passes the mark and a checkpoint is left scheduled
    let appended = 0;
    while (size(`${path}-wal`) <= SOFT_BYTES && appended < 10_000) await append('s1', ++appended);
    expect(size(`${path}-wal`)).toBeGreaterThan(SOFT_BYTES);
    await store.close();
    await nextMacrotask();
    // the last connection to close checkpointed the WAL into the file and removed it
    expect(size(`${path}-wal`)).toBe(0);
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(raw.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(appended);
    } finally {
      raw.close();
    }
    store = await createSqliteSessionStore({ path });
  });
});

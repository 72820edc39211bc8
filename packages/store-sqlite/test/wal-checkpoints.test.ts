import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '@strata/core';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';

const MB = 1024 * 1024;
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

  it('a writer that yields between writes: every checkpoint and WAL restart runs between writes, and the WAL stays near 1,000 pages', async () => {
    let largest = 0;
    let checkpointsInWrites = 0;
    let restartsInWrites = 0;
    let checkpointsBetween = 0;
    for (let i = 1; i <= 4000; i++) {
      const before = mainFileStamp();
      const walBefore = size(`${path}-wal`);
      await append('s1', i);
      if (mainFileStamp() !== before) checkpointsInWrites++;
      // a commit that restarts the WAL cuts the file back (journal_size_limit)
      if (size(`${path}-wal`) < walBefore) restartsInWrites++;
      largest = Math.max(largest, size(`${path}-wal`));
      const idle = mainFileStamp();
      await nextMacrotask();
      if (mainFileStamp() !== idle) checkpointsBetween++;
    }
    expect(checkpointsInWrites).toBe(0);
    expect(restartsInWrites).toBe(0);
    expect(checkpointsBetween).toBeGreaterThan(2);
    // crossing the mark schedules the checkpoint; the WAL restarts (and is cut back) at the next write
    expect(largest).toBeLessThan(SOFT_BYTES + MB);
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

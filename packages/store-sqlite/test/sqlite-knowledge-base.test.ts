import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import type { KnowledgeBase, KnowledgeEntry, KnowledgeQuery } from '@strata/core';
import { createSqliteKnowledgeBase } from '../src/sqlite-knowledge-base.js';

const DIM = 4;

function entry(id: string, vector: number[], overrides: Partial<KnowledgeEntry> = {}): KnowledgeEntry {
  return { id, namespace: 'ns', kind: 'fact', sessionId: null, vector, current: true, createdAt: 1_700_000_000_000, ...overrides };
}

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

const near = (vector: number[]): KnowledgeQuery => ({ vector, k: 10, filter: { namespace: 'ns' } });
const ids = async (kb: KnowledgeBase, query = near([1, 0, 0, 0])): Promise<string[]> => (await kb.query(query)).map((m) => m.id);

describe('SqliteKnowledgeBase on a file', () => {
  let directory: string;
  let file: string;
  const opened: KnowledgeBase[] = [];
  const open = async (dimensions?: number): Promise<KnowledgeBase> => {
    const kb = await createSqliteKnowledgeBase({ path: file, ...(dimensions === undefined ? {} : { dimensions }) });
    opened.push(kb);
    return kb;
  };

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'strata-kb-'));
    file = join(directory, 'strata.db');
  });
  afterEach(async () => {
    for (const kb of opened.splice(0)) await kb.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('answers the same after close and reopen, and keeps enforcing the dimension', async () => {
    const first = await open();
    await first.upsert([
      entry('a', [1, 0, 0, 0]),
      entry('b', [0.3, 0.7, 0.1, 0], { kind: 'turn', sessionId: 's1' }),
      entry('c', [0.5, 0.5, 0.5, 0.5], { current: false }),
      entry('elsewhere', [1, 0, 0, 0], { namespace: 'other' }),
    ]);
    const before = await first.query(near([0.9, 0.2, 0.1, 0.3]));
    await first.close();

    const reopened = await open();
    expect(await reopened.query(near([0.9, 0.2, 0.1, 0.3]))).toEqual(before);
    expect(before.map((m) => m.id)).toEqual(['a', 'c', 'b']);
    expect(await reopened.count({})).toBe(4);
    expect(await reopened.count({ namespace: 'ns', currentOnly: true })).toBe(2);
    const mismatch = await errorOf(reopened.upsert([entry('d', [1, 0, 0])]));
    expect(StrataError.is(mismatch, 'CONFIG_INVALID')).toBe(true);
    expect(StrataError.is(await errorOf(reopened.query(near([1, 0]))), 'CONFIG_INVALID')).toBe(true);
    const reopenError = await errorOf(open(8));
    expect(StrataError.is(reopenError, 'CONFIG_INVALID')).toBe(true);
    expect((reopenError as StrataError).hint).toContain('reindex()');
  });

  it('records the dimension given at open before any upsert', async () => {
    await (await open(DIM)).close();
    const kb = await open();
    expect(StrataError.is(await errorOf(kb.upsert([entry('a', [1, 0])])), 'CONFIG_INVALID')).toBe(true);
    expect(await kb.count({})).toBe(0);
  });

  it('stores each vector as 4 bytes per dimension, with the dimension and epoch in knowledge_meta', async () => {
    const kb = await open();
    await kb.upsert([entry('a', [1, 0, 0, 0]), entry('b', [0.1, 0.2, 0.3, 0.4]), entry('c', [0, 0, 0, 1], { namespace: 'other' })]);
    await kb.setCurrent([{ id: 'a', current: false }]);
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.prepare('SELECT id, length(vector) AS bytes FROM knowledge ORDER BY id').all()).toEqual([
        { id: 'a', bytes: 16 },
        { id: 'b', bytes: 16 },
        { id: 'c', bytes: 16 },
      ]);
      const blob = raw.prepare("SELECT vector FROM knowledge WHERE id = 'b'").pluck().get() as Buffer;
      expect(Array.from(new Float32Array(blob.buffer, blob.byteOffset, 4))).toEqual([0.1, 0.2, 0.3, 0.4].map(Math.fround));
      const meta = raw.prepare('SELECT key, value FROM knowledge_meta ORDER BY key').all();
      expect(meta).toEqual([
        { key: 'dimensions', value: '4' },
        { key: 'epoch', value: '2' },
      ]);
    } finally {
      raw.close();
    }
  });

  it('a query sees what another connection upserted, deleted or flipped after it cached the namespace', async () => {
    const writer = await open(DIM);
    const reader = await open(DIM);
    await writer.upsert([entry('a', [1, 0, 0, 0]), entry('b', [0.8, 0.2, 0, 0])]);
    expect(await ids(reader)).toEqual(['a', 'b']);

    await writer.upsert([entry('c', [0.9, 0.1, 0, 0])]);
    expect(await ids(reader)).toEqual(['a', 'c', 'b']);
    await writer.delete({ ids: ['a'] });
    expect(await ids(reader)).toEqual(['c', 'b']);
    await writer.setCurrent([{ id: 'c', current: false }]);
    expect(await ids(reader, { ...near([1, 0, 0, 0]), filter: { namespace: 'ns', currentOnly: true } })).toEqual(['b']);
    await writer.delete({ filter: { namespace: 'ns', currentOnly: true } });
    expect(await ids(reader)).toEqual(['c']);
  });

  it('a write after another connection wrote leaves the cache with both writes', async () => {
    const first = await open(DIM);
    const second = await open(DIM);
    await first.upsert([entry('a', [1, 0, 0, 0])]);
    expect(await ids(second)).toEqual(['a']);
    await first.upsert([entry('b', [0.9, 0.1, 0, 0])]);
    await second.upsert([entry('c', [0.8, 0.2, 0, 0])]);
    expect(await ids(second)).toEqual(['a', 'b', 'c']);
    expect(await ids(first)).toEqual(['a', 'b', 'c']);
  });

  it('the first upserts of two connections must agree on the dimension', async () => {
    const first = await open();
    const second = await open();
    await first.upsert([entry('a', [1, 0, 0, 0])]);
    expect(StrataError.is(await errorOf(second.upsert([entry('b', [1, 0])])), 'CONFIG_INVALID')).toBe(true);
    await second.upsert([entry('b', [0, 1, 0, 0])]);
    expect(await first.count({})).toBe(2);
  });
});

describe('SqliteKnowledgeBase', () => {
  let kb: KnowledgeBase;
  beforeEach(async () => {
    kb = await createSqliteKnowledgeBase({ path: ':memory:', dimensions: DIM });
  });
  afterEach(() => kb.close());

  it('moves an id out of a namespace it has already cached', async () => {
    await kb.upsert([entry('x', [1, 0, 0, 0]), entry('y', [0, 1, 0, 0])]);
    expect(await ids(kb)).toEqual(['x', 'y']);
    await kb.upsert([entry('x', [1, 0, 0, 0], { namespace: 'later' })]);
    expect(await ids(kb)).toEqual(['y']);
    expect(await ids(kb, { ...near([1, 0, 0, 0]), filter: { namespace: 'later' } })).toEqual(['x']);
  });

  it('keeps the last of repeated ids in one batch, as the file does', async () => {
    expect(await ids(kb)).toEqual([]);
    await kb.upsert([entry('x', [1, 0, 0, 0]), entry('x', [0, 1, 0, 0], { namespace: 'later' })]);
    expect(await ids(kb)).toEqual([]);
    expect(await kb.count({ namespace: 'later' })).toBe(1);
  });

  it('rejects invalid entries with INVALID_INPUT and stores none of the batch', async () => {
    const batches = [
      [entry('ok', [1, 0, 0, 0]), entry('', [1, 0, 0, 0])],
      [entry('ok', [1, 0, 0, 0]), entry('x', [1, 0, 0, 0], { namespace: '' })],
      [entry('ok', [1, 0, 0, 0]), entry('x', [Number.NaN, 0, 0, 0])],
      [entry('ok', [1, 0, 0, 0]), entry('x', [1e39, 0, 0, 0])],
      [entry('ok', [1, 0, 0, 0]), entry('x', [1, 0, 0, 0], { createdAt: Number.POSITIVE_INFINITY })],
    ];
    for (const batch of batches) expect(StrataError.is(await errorOf(kb.upsert(batch)), 'INVALID_INPUT')).toBe(true);
    expect(await kb.count({})).toBe(0);
    expect(StrataError.is(await errorOf(kb.query({ vector: [1, 0, 0, 0], k: 1, filter: { namespace: '' } })), 'INVALID_INPUT')).toBe(true);
    expect(StrataError.is(await errorOf(kb.query({ ...near([1, 0, 0, 0]), k: -1 })), 'INVALID_INPUT')).toBe(true);
  });

  it('refuses a dimension that is not a positive integer', async () => {
    const error = await errorOf(createSqliteKnowledgeBase({ path: ':memory:', dimensions: 0 }));
    expect(StrataError.is(error, 'CONFIG_INVALID')).toBe(true);
  });

  it('throws CLOSED after close', async () => {
    await kb.close();
    for (const call of [kb.count({}), kb.upsert([]), kb.query(near([1, 0, 0, 0])), kb.delete({ ids: [] })]) {
      expect(StrataError.is(await errorOf(call), 'CLOSED')).toBe(true);
    }
  });
});

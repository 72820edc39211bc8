import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fact, LexicalQuery, StoreOp, Summary } from '@strata/core';
import { createSqliteSessionStore, type SqliteSessionStore } from '../src/sqlite-session-store.js';

const WORDS = ['garden', 'tomato', 'lisbon', 'moving', 'painting', 'lake', 'sunset', 'guitar', 'kayak', 'violin', 'ramen', 'trip', 'plans', 'dog', 'cat', 'marathon'];

/** A deterministic text of a few words. */
function textOf(i: number): string {
  const words: string[] = [];
  let x = (i * 2654435761) >>> 0;
  for (let w = 0; w < 3 + (i % 5); w++) {
    x = (x * 1103515245 + 12345) >>> 0;
    words.push(WORDS[x % WORDS.length] as string);
  }
  return words.join(' ');
}

const session = (id: string, namespace: string) => ({ id, namespace, metadata: {}, createdAt: 1, updatedAt: 1, lastSeq: 0 });
const turns = (prefix: string, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}-m${from + i}`, role: 'user' as const, content: textOf(from + i), createdAt: 1_700_000_000_000 + i, metadata: {} }));
const summary = (id: string, namespace: string, sessionId: string, fromSeq: number, text: string): Summary => ({
  id,
  namespace,
  sessionId,
  level: 'batch',
  fromSeq,
  toSeq: fromSeq + 9,
  text,
  sourceMessageIds: [],
  createdAt: 5,
  degraded: false,
});
const fact = (id: string, namespace: string, predicate: string, text: string, extra: Partial<Fact> = {}): Fact => ({
  id,
  namespace,
  subject: 'user',
  predicate,
  object: text,
  text,
  sourceMessageIds: [],
  validFrom: 5,
  confidence: 1,
  createdAt: 5,
  degraded: false,
  ...extra,
});

const QUERIES = ['garden tomato', 'lisbon moving lake', 'guitar violin', 'kayak trip plans', 'marathon', 'dog cat sunset'];

async function searches(store: SqliteSessionStore, namespace: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const text of QUERIES) {
    const query: LexicalQuery = { namespace, text, kinds: ['turn', 'summary', 'fact'], k: 20 };
    out.push(await store.search(query));
    out.push(await store.search({ ...query, sessionId: `${namespace}-s1` }));
  }
  return out;
}

describe('SQLite lexical snapshots', () => {
  let dir = '';
  let path = '';
  const opened: SqliteSessionStore[] = [];
  const open = async (lexicalCacheDocuments?: number): Promise<SqliteSessionStore> => {
    const store = await createSqliteSessionStore(lexicalCacheDocuments === undefined ? { path } : { path, lexicalCacheDocuments });
    opened.push(store);
    return store;
  };
  const inspect = <T>(read: (db: Database.Database) => T): T => {
    const db = new Database(path, { readonly: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  };
  const snapshotNamespaces = (): string[] => inspect((db) => db.prepare('SELECT namespace FROM lexical_snapshots ORDER BY namespace').pluck().all() as string[]);
  /** Search results of a cache rebuilt from the rows alone, for comparison. */
  const rebuilt = async (namespace: string): Promise<unknown[]> => {
    const db = new Database(path);
    db.prepare('DELETE FROM lexical_snapshots').run();
    db.close();
    const store = await open();
    const result = await searches(store, namespace);
    expect(store.lexicalCacheStats().documentsRestored).toBe(0);
    return result;
  };

  /** Namespace `ns` with two sessions of 150 turns, summaries and facts; searched once, so its cache is loaded. */
  async function seed(store: SqliteSessionStore, ns: string): Promise<void> {
    const ops: StoreOp[] = [
      { type: 'putSession', session: session(`${ns}-s1`, ns) },
      { type: 'putSession', session: session(`${ns}-s2`, ns) },
      { type: 'appendMessages', sessionId: `${ns}-s1`, messages: turns(ns, 0, 150) },
      { type: 'appendMessages', sessionId: `${ns}-s2`, messages: turns(ns, 150, 150) },
      { type: 'putSummaries', summaries: [summary(`${ns}-sum1`, ns, `${ns}-s1`, 1, 'garden and tomato plans'), summary(`${ns}-sum2`, ns, `${ns}-s2`, 1, 'a kayak trip on the lake')] },
      { type: 'putFacts', facts: [fact(`${ns}-f1`, ns, 'lives_in', 'User lives in Lisbon.'), fact(`${ns}-f2`, ns, 'plays', 'User plays guitar.')] },
    ];
    await store.write({ ops });
    await searches(store, ns);
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strata-lexical-snapshots-'));
    path = join(dir, 'strata.sqlite');
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('restores a namespace after a clean close without analyzing any text, ranking as before', async () => {
    const writer = await open();
    await seed(writer, 'a');
    const before = await searches(writer, 'a');
    await writer.close();
    expect(snapshotNamespaces()).toEqual(['a']);

    const reader = await open();
    expect(await searches(reader, 'a')).toEqual(before);
    const stats = reader.lexicalCacheStats();
    expect(stats.documentsAnalyzedOnLoad).toBe(0);
    expect(stats.documentsRestored).toBe(304);
  });

  it('adds what was written after the snapshot, drops replaced summaries and superseded or deleted facts', async () => {
    const writer = await open();
    await seed(writer, 'a');
    await writer.close();
    // Another process writes without ever searching: its cache never loads, the snapshot stays as it was.
    const other = await open();
    await other.write({
      ops: [
        { type: 'appendMessages', sessionId: 'a-s1', messages: turns('a', 300, 25) },
        { type: 'putSummaries', summaries: [summary('a-sum1', 'a', 'a-s1', 1, 'marathon training replaced the garden')] },
        { type: 'putFacts', facts: [fact('a-f1', 'a', 'lives_in', 'User lives in Lisbon.', { validTo: 9 }), fact('a-f3', 'a', 'lives_in', 'User lives by the lake.', { validFrom: 9 })] },
        { type: 'delete', summaries: ['a-sum2'], facts: ['a-f2'] },
      ],
    });
    await other.close();
    expect(snapshotNamespaces()).toEqual(['a']);

    const reader = await open();
    const restored = await searches(reader, 'a');
    const stats = reader.lexicalCacheStats();
    expect(stats.documentsRestored).toBe(304);
    // 25 turns, the replaced summary and the new fact: only the rows after the snapshot
    expect(stats.documentsAnalyzedOnLoad).toBe(27);
    expect(restored).toEqual(await rebuilt('a'));
  });

  it('drops the snapshot of a namespace whose turns are deleted, in the same transaction, and keeps the others', async () => {
    const store = await open();
    await seed(store, 'a');
    await seed(store, 'b');
    await store.close();
    expect(snapshotNamespaces()).toEqual(['a', 'b']);
    const again = await open();
    await again.write({ ops: [{ type: 'delete', messages: ['a-m3'] }] });
    expect(snapshotNamespaces()).toEqual(['b']);
    await again.write({ ops: [{ type: 'delete', sessions: ['b-s2'] }] });
    expect(snapshotNamespaces()).toEqual([]);
  });

  it('rebuilds from the rows when the snapshot was taken under other lexical rules or is damaged', async () => {
    const writer = await open();
    await seed(writer, 'a');
    await seed(writer, 'b');
    const expected = [await searches(writer, 'a'), await searches(writer, 'b')];
    await writer.close();
    const db = new Database(path);
    db.prepare("UPDATE lexical_snapshots SET rules = 'older-rules' WHERE namespace = 'a'").run();
    db.prepare("UPDATE lexical_snapshots SET data = X'00112233' WHERE namespace = 'b'").run();
    db.close();

    const reader = await open();
    expect([await searches(reader, 'a'), await searches(reader, 'b')]).toEqual(expected);
    expect(reader.lexicalCacheStats()).toMatchObject({ documentsRestored: 0, documentsAnalyzedOnLoad: 608 });
  });

  it('holds at most its cap of documents, dropping the least recently searched namespace and restoring it from its snapshot', async () => {
    const writer = await open();
    for (const ns of ['a', 'b', 'c']) await seed(writer, ns);
    const expected = await searches(writer, 'a');
    await writer.close();

    const store = await open(700);
    await searches(store, 'a');
    await searches(store, 'b');
    expect(store.lexicalCacheStats().held.map((h) => h.namespace)).toEqual(['a', 'b']);
    await searches(store, 'c');
    const { held, maxDocuments } = store.lexicalCacheStats();
    expect(held.map((h) => h.namespace)).toEqual(['b', 'c']);
    expect(held.reduce((sum, h) => sum + h.documents, 0)).toBeLessThanOrEqual(maxDocuments);
    // new turns in 'b' while it is held; 'b' then leaves the cache with a fresh snapshot
    await store.write({ ops: [{ type: 'appendMessages', sessionId: 'b-s1', messages: turns('b', 300, 10) }] });
    expect(await searches(store, 'a')).toEqual(expected);
    expect(store.lexicalCacheStats().held.map((h) => h.namespace)).toEqual(['c', 'a']);
    const analyzedBefore = store.lexicalCacheStats().documentsAnalyzedOnLoad;
    await searches(store, 'b');
    expect(store.lexicalCacheStats().documentsAnalyzedOnLoad).toBe(analyzedBefore);
    expect(store.lexicalCacheStats().documentsAnalyzedOnLoad).toBe(0);
  });

  it('keeps a namespace larger than the cap while it is searched', async () => {
    const writer = await open();
    await seed(writer, 'a');
    const expected = await searches(writer, 'a');
    await writer.close();
    const store = await open(10);
    expect(await searches(store, 'a')).toEqual(expected);
    expect(store.lexicalCacheStats().held).toEqual([{ namespace: 'a', documents: 304 }]);
  });
});

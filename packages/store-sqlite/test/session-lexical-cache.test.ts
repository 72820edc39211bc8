import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LexicalIndex, SessionStore } from '@strata/core';
import { createSqliteKnowledgeBase } from '../src/sqlite-knowledge-base.js';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';

const NS = 'user:1';
const session = { id: 's1', namespace: NS, metadata: {}, createdAt: 1, updatedAt: 1, lastSeq: 0 };
const turn = (id: string, content: string) => ({ id, role: 'user' as const, content, createdAt: 2, metadata: {} });
const ids = async (store: SessionStore & LexicalIndex, text: string) => (await store.search({ namespace: NS, text, kinds: ['turn', 'fact'], k: 10 })).map((h) => h.id).sort();

describe('SQLite lexical search through its in-process index', () => {
  let dir = '';
  let path = '';
  const opened: { close(): Promise<void> }[] = [];
  const open = async () => {
    const store = await createSqliteSessionStore({ path });
    opened.push(store);
    return store;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strata-lexical-cache-'));
    path = join(dir, 'strata.sqlite');
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("sees another connection's writes and deletes after its index was loaded", async () => {
    const a = await open();
    const b = await open();
    await a.write({
      ops: [
        { type: 'putSession', session },
        { type: 'appendMessages', sessionId: 's1', messages: [turn('m1', 'we moved to Lisbon')] },
      ],
    });
    expect(await ids(a, 'lisbon')).toEqual(['m1']);
    await b.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('m2', 'Lisbon is sunny')] }] });
    expect(await ids(a, 'lisbon')).toEqual(['m1', 'm2']);
    await b.write({ ops: [{ type: 'delete', messages: ['m1'] }] });
    expect(await ids(a, 'lisbon')).toEqual(['m2']);
  });

  it('applies its own writes: new turns, superseded facts leave, a deleted session takes its turns', async () => {
    const a = await open();
    await a.write({
      ops: [
        { type: 'putSession', session },
        { type: 'appendMessages', sessionId: 's1', messages: [turn('m1', 'ramen tonight')] },
      ],
    });
    expect(await ids(a, 'ramen')).toEqual(['m1']);
    const fact = {
      id: 'f1',
      namespace: NS,
      subject: 'user',
      predicate: 'likes',
      object: 'ramen',
      text: 'User likes ramen.',
      sourceMessageIds: ['m1'],
      validFrom: 2,
      confidence: 1,
      createdAt: 2,
      degraded: false,
    };
    await a.write({ ops: [{ type: 'putFacts', facts: [fact] }] });
    expect(await ids(a, 'ramen')).toEqual(['f1', 'm1']);
    await a.write({ ops: [{ type: 'putFacts', facts: [{ ...fact, validTo: 3 }] }] });
    expect(await ids(a, 'ramen')).toEqual(['m1']);
    await a.write({ ops: [{ type: 'delete', sessions: ['s1'] }] });
    expect(await ids(a, 'ramen')).toEqual([]);
  });

  it('applies its own writes in commit order, whether a search or the next event-loop turn comes first', async () => {
    const a = await open();
    await a.write({
      ops: [
        { type: 'putSession', session },
        { type: 'appendMessages', sessionId: 's1', messages: [turn('m1', 'kayak trip')] },
      ],
    });
    expect(await ids(a, 'kayak')).toEqual(['m1']); // loads the namespace
    await a.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('m2', 'kayak rental')] }] });
    await a.write({ ops: [{ type: 'delete', messages: ['m1'] }] });
    await a.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('m3', 'kayak paddles')] }] });
    expect(await ids(a, 'kayak')).toEqual(['m2', 'm3']);
    await a.write({ ops: [{ type: 'delete', messages: ['m2'] }] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await ids(a, 'kayak')).toEqual(['m3']);
  });

  it('indexes what was written, even if the caller changes its ops or the returned messages afterwards', async () => {
    const a = await open();
    await a.write({ ops: [{ type: 'putSession', session }] });
    expect(await ids(a, 'anything')).toEqual([]); // loads the namespace
    const message = turn('m1', 'violin lessons');
    const fact = {
      id: 'f1',
      namespace: NS,
      subject: 'user',
      predicate: 'plays',
      object: 'violin',
      text: 'User plays violin.',
      sourceMessageIds: ['m1'],
      validFrom: 2,
      confidence: 1,
      createdAt: 2,
      degraded: false,
    };
    const receipt = await a.write({
      ops: [
        { type: 'appendMessages', sessionId: 's1', messages: [message] },
        { type: 'putFacts', facts: [fact] },
      ],
    });
    message.content = 'cello lessons';
    fact.text = 'User plays cello.';
    if (receipt.messages[0]) receipt.messages[0].content = 'cello lessons';
    expect(await ids(a, 'violin')).toEqual(['f1', 'm1']);
    expect(await ids(a, 'cello')).toEqual([]);
  });

  it('answers from the file after the knowledge base (another connection to it) writes', async () => {
    const a = await open();
    await a.write({
      ops: [
        { type: 'putSession', session },
        { type: 'appendMessages', sessionId: 's1', messages: [turn('m1', 'pottery class')] },
      ],
    });
    expect(await ids(a, 'pottery')).toEqual(['m1']);
    const kb = await createSqliteKnowledgeBase({ path, dimensions: 2 });
    opened.push(kb);
    await kb.upsert([{ id: 'v1', namespace: NS, kind: 'turn', sessionId: 's1', vector: [1, 0], current: true, createdAt: 2 }]);
    expect(await ids(a, 'pottery')).toEqual(['m1']);
  });

  describe('large writes and loads, a slice at a time', () => {
    const many = (count: number, word: string, from = 0) => Array.from({ length: count }, (_, i) => turn(`t${from + i}`, `${word} note number ${from + i} about the weekend plans`));
    /** Deletes the file's lexical snapshots, so that the next load reads and analyzes every row. */
    const dropSnapshots = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const db = new Database(path);
      db.exec('DELETE FROM lexical_snapshots');
      db.close();
    };
    /** Counts turns of the event loop until stopped: a call that held the loop throughout sees none pass. */
    const countTurns = () => {
      let turns = 0;
      let timer: NodeJS.Immediate | undefined;
      const tick = () => {
        turns++;
        timer = setImmediate(tick);
      };
      timer = setImmediate(tick);
      return () => {
        clearImmediate(timer);
        return turns;
      };
    };

    it('an append of thousands of turns yields while it indexes them, and returns with its namespace searchable without another load', async () => {
      const a = await open();
      await a.write({ ops: [{ type: 'putSession', session }] });
      const stop = countTurns();
      await a.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: many(3000, 'pelican') }] });
      expect(stop()).toBeGreaterThan(2);
      const loaded = a.lexicalCacheStats();
      expect(loaded.held).toEqual([{ namespace: NS, documents: 3000 }]);
      expect(loaded.documentsAnalyzedOnLoad).toBe(3000);
      expect((await a.search({ namespace: NS, text: 'pelican weekend', kinds: ['turn'], k: 5000 })).length).toBe(3000);
      // the search found it held: nothing loaded again
      expect(a.lexicalCacheStats().documentsAnalyzedOnLoad).toBe(3000);
    });

    it('a small write leaves the index to the next search (no load on the write path)', async () => {
      const a = await open();
      await a.write({
        ops: [
          { type: 'putSession', session },
          { type: 'appendMessages', sessionId: 's1', messages: many(10, 'heron') },
        ],
      });
      expect(a.lexicalCacheStats().held).toEqual([]);
      expect(await ids(a, 'heron t0')).toHaveLength(10);
    });

    it('a search while a namespace loads in slices sees every write committed before it, including deletes and writes made during the load', async () => {
      const a = await open();
      await a.write({
        ops: [
          { type: 'putSession', session },
          { type: 'appendMessages', sessionId: 's1', messages: many(2000, 'osprey') },
        ],
      });
      await a.close();
      opened.splice(opened.indexOf(a), 1);
      await dropSnapshots();
      const b = await open();
      // the first search loads the namespace in slices; the writes below land between them
      const first = b.search({ namespace: NS, text: 'osprey', kinds: ['turn'], k: 5000 });
      expect(b.lexicalCacheStats().documentsRestored).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      await b.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('late', 'a late osprey sighting and a kingfisher')] }] });
      await b.write({ ops: [{ type: 'delete', messages: ['t1999', 't0'] }] });
      const during = await b.search({ namespace: NS, text: 'kingfisher', kinds: ['turn'], k: 10 });
      expect(during.map((h) => h.id)).toEqual(['late']);
      const all = new Set((await first).map((h) => h.id));
      const now = new Set((await b.search({ namespace: NS, text: 'osprey', kinds: ['turn'], k: 5000 })).map((h) => h.id));
      expect(now.size).toBe(1999);
      expect(now.has('late')).toBe(true);
      expect(now.has('t0') || now.has('t1999')).toBe(false);
      // the first search was answered after the writes committed before it, at the least
      expect(all.size).toBeGreaterThanOrEqual(1999);
    });

    it("a load in slices starts over when another connection writes meanwhile, and answers with that connection's deletes", async () => {
      const a = await open();
      await a.write({
        ops: [
          { type: 'putSession', session },
          { type: 'appendMessages', sessionId: 's1', messages: many(2000, 'egret') },
        ],
      });
      await dropSnapshots();
      const b = await open();
      const searched = b.search({ namespace: NS, text: 'egret', kinds: ['turn'], k: 5000 });
      await new Promise((resolve) => setImmediate(resolve));
      await a.write({ ops: [{ type: 'delete', messages: ['t5', 't6'] }] });
      const ids = new Set((await searched).map((h) => h.id));
      expect(ids.size).toBeGreaterThanOrEqual(1998);
      const after = new Set((await b.search({ namespace: NS, text: 'egret', kinds: ['turn'], k: 5000 })).map((h) => h.id));
      expect(after.size).toBe(1998);
      expect(after.has('t5') || after.has('t6')).toBe(false);
    });

    it('closing the store while a search waits for a load rejects that search with CLOSED', async () => {
      const a = await open();
      await a.write({
        ops: [
          { type: 'putSession', session },
          { type: 'appendMessages', sessionId: 's1', messages: many(2000, 'plover') },
        ],
      });
      await a.close();
      opened.splice(opened.indexOf(a), 1);
      await dropSnapshots();
      const b = await createSqliteSessionStore({ path });
      const searched = b.search({ namespace: NS, text: 'plover', kinds: ['turn'], k: 10 });
      await new Promise((resolve) => setImmediate(resolve));
      await b.close();
      await expect(searched).rejects.toMatchObject({ code: 'CLOSED' });
    });
  });
});

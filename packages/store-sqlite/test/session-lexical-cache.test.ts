import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});

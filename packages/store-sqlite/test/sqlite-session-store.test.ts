import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import type { Fact, LexicalIndex, NewMessage, SessionStore, Summary } from '@strata/core';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';

const T0 = Date.UTC(2024, 0, 1);

const turn = (id: string, content: string): NewMessage => ({ id, role: 'user', content, createdAt: T0, metadata: {} });

const summaryOf = (id: string, sessionId: string, sourceMessageIds: string[], text = 'a summary'): Summary => ({
  id,
  sessionId,
  namespace: 'ns',
  level: 'batch',
  fromSeq: 1,
  toSeq: 3,
  text,
  sourceMessageIds,
  createdAt: T0,
  degraded: false,
});

const factOf = (id: string, sourceMessageIds: string[], text = 'the user likes tea'): Fact => ({
  id,
  namespace: 'ns',
  subject: 'user',
  predicate: `likes ${id}`,
  object: 'tea',
  text,
  sourceMessageIds,
  validFrom: T0,
  confidence: 0.8,
  createdAt: T0,
  degraded: false,
});

/** One session with three turns, a summary and a fact built from them (sources out of order on purpose). */
async function seed(store: SessionStore, sessionId = 's1'): Promise<void> {
  await store.write({
    ops: [
      { type: 'putSession', session: { id: sessionId, namespace: 'ns', metadata: {}, createdAt: T0, updatedAt: T0, lastSeq: 0 } },
      { type: 'appendMessages', sessionId, messages: ['berlin flat', 'lisbon trip', 'porto wine'].map((c, i) => turn(`${sessionId}-m${i + 1}`, c)) },
      { type: 'putSummaries', summaries: [summaryOf(`${sessionId}-sum`, sessionId, [`${sessionId}-m3`, `${sessionId}-m1`, `${sessionId}-m2`])] },
      { type: 'putFacts', facts: [factOf(`${sessionId}-fact`, [`${sessionId}-m2`, `${sessionId}-m1`])] },
      { type: 'recordJobs', jobs: [{ key: `${sessionId}-job`, type: 'summarize', sessionId, fromSeq: 1, toSeq: 3, appliedAt: T0 }] },
    ],
  });
}

describe('SqliteSessionStore on a file', () => {
  let directory: string;
  let path: string;
  let store: SessionStore & LexicalIndex;
  /** A second, raw connection to the same file, to look at tables the port does not show. */
  let raw: Database.Database;
  const count = (sql: string): unknown => raw.prepare(sql).pluck().get();

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'strata-session-'));
    path = join(directory, 'strata.db');
    store = await createSqliteSessionStore({ path });
    raw = new Database(path, { readonly: true });
  });

  afterEach(async () => {
    raw.close();
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps everything across close and reopen', async () => {
    await seed(store);
    const before = {
      sessions: await store.sessions({}),
      messages: await store.messages({ sessionId: 's1' }),
      summaries: await store.summaries({ sessionId: 's1' }),
      facts: await store.facts({ namespace: 'ns' }),
      jobs: await store.jobs({ sessionId: 's1' }),
    };
    await store.close();
    store = await createSqliteSessionStore({ path });
    expect(await store.sessions({})).toEqual(before.sessions);
    expect(await store.messages({ sessionId: 's1' })).toEqual(before.messages);
    expect(await store.summaries({ sessionId: 's1' })).toEqual(before.summaries);
    expect(await store.facts({ namespace: 'ns' })).toEqual(before.facts);
    expect(await store.jobs({ sessionId: 's1' })).toEqual(before.jobs);
    const hits = await store.search({ namespace: 'ns', text: 'lisbon', kinds: ['turn'], k: 5 });
    expect(hits.map((hit) => hit.id)).toEqual(['s1-m2']);
  });

  it('stores provenance in its own table and reads it back in the given order', async () => {
    await seed(store);
    expect((await store.summaries({ ids: ['s1-sum'] }))[0]?.sourceMessageIds).toEqual(['s1-m3', 's1-m1', 's1-m2']);
    expect((await store.facts({ ids: ['s1-fact'] }))[0]?.sourceMessageIds).toEqual(['s1-m2', 's1-m1']);
    expect(raw.prepare("SELECT message_id FROM provenance WHERE item_id = 's1-sum' ORDER BY position").pluck().all()).toEqual(['s1-m3', 's1-m1', 's1-m2']);
    await store.write({ ops: [{ type: 'putSummaries', summaries: [summaryOf('s1-sum', 's1', ['s1-m2'])] }] });
    expect((await store.summaries({ ids: ['s1-sum'] }))[0]?.sourceMessageIds).toEqual(['s1-m2']);
    expect(await store.summaries({ sourceMessageIds: ['s1-m3'] })).toEqual([]);
  });

  it('deleting summaries and facts removes their provenance, and search no longer finds them', async () => {
    await seed(store);
    const kinds: ('turn' | 'summary' | 'fact')[] = ['turn', 'summary', 'fact'];
    expect((await store.search({ namespace: 'ns', text: 'summary tea berlin', kinds, k: 10 })).map((hit) => hit.id).sort()).toEqual(['s1-fact', 's1-m1', 's1-sum']);
    await store.write({ ops: [{ type: 'delete', summaries: ['s1-sum'], facts: ['s1-fact'] }] });
    expect(count('SELECT count(*) FROM provenance')).toBe(0);
    expect((await store.search({ namespace: 'ns', text: 'summary tea berlin', kinds, k: 10 })).map((hit) => hit.id)).toEqual(['s1-m1']);
  });

  it("deleting a session removes its rows and the summaries' provenance, and keeps facts", async () => {
    await seed(store, 's1');
    await seed(store, 's2');
    await store.write({ ops: [{ type: 'delete', sessions: ['s1'] }] });
    expect(count("SELECT count(*) FROM messages WHERE session_id = 's1'")).toBe(0);
    expect(count("SELECT count(*) FROM jobs WHERE session_id = 's1'")).toBe(0);
    expect(count("SELECT count(*) FROM summaries WHERE session_id = 's1'")).toBe(0);
    expect(count("SELECT count(*) FROM provenance WHERE item_kind = 'summary'")).toBe(3);
    expect(raw.prepare("SELECT DISTINCT item_id FROM provenance WHERE item_kind = 'fact' ORDER BY 1").pluck().all()).toEqual(['s1-fact', 's2-fact']);
    const hits = await store.search({ namespace: 'ns', text: 'berlin tea summary', kinds: ['turn', 'summary', 'fact'], k: 10 });
    expect(hits.map((hit) => hit.id).sort()).toEqual(['s1-fact', 's2-fact', 's2-m1', 's2-sum']);
  });

  it('a failed batch leaves no rows behind, and search does not find its text', async () => {
    await seed(store);
    const failing = store.write({
      ops: [
        { type: 'appendMessages', sessionId: 's1', messages: [turn('new', 'madrid tapas')] },
        { type: 'putFacts', facts: [factOf('f-new', [], 'madrid')] },
        { type: 'appendMessages', sessionId: 'ghost', messages: [turn('g', 'x')] },
      ],
    });
    await expect(failing).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(count('SELECT count(*) FROM messages')).toBe(3);
    expect(count('SELECT count(*) FROM facts')).toBe(1);
    expect(await store.search({ namespace: 'ns', text: 'madrid', kinds: ['turn', 'fact'], k: 5 })).toEqual([]);
  });

  it('sees what another connection to the same file appended (seqs come from the file, not from memory)', async () => {
    await seed(store);
    const other = await createSqliteSessionStore({ path });
    try {
      await other.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('from-other', 'four')] }] });
      const receipt = await store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('from-first', 'five')] }] });
      expect(receipt.messages.map((m) => m.seq)).toEqual([5]);
      expect((await other.messages({ sessionId: 's1', last: 2 })).map((m) => [m.id, m.seq])).toEqual([
        ['from-other', 4],
        ['from-first', 5],
      ]);
    } finally {
      await other.close();
    }
  });
});

describe('SqliteSessionStore errors and edge cases', () => {
  let store: SessionStore & LexicalIndex;

  beforeEach(async () => {
    store = await createSqliteSessionStore({ path: ':memory:' });
  });

  afterEach(async () => {
    await store.close();
  });

  it('a summary of an unknown session is NOT_FOUND naming the session, and nothing is written', async () => {
    const failing = store.write({ ops: [{ type: 'putSummaries', summaries: [summaryOf('sum', 'ghost', [])] }] });
    const error = await failing.catch((caught: unknown) => caught);
    expect(StrataError.is(error, 'NOT_FOUND')).toBe(true);
    expect((error as StrataError).message).toContain('"ghost"');
    expect(await store.summaries({})).toEqual([]);
  });

  it('metadata JSON cannot hold is INVALID_INPUT and nothing is written', async () => {
    const session = { id: 's1', namespace: 'ns', metadata: { big: 1n }, createdAt: T0, updatedAt: T0, lastSeq: 0 };
    const error = await store.write({ ops: [{ type: 'putSession', session }] }).catch((caught: unknown) => caught);
    expect(StrataError.is(error, 'INVALID_INPUT')).toBe(true);
    expect(await store.sessions({})).toEqual([]);
  });

  it('query text that looks like FTS5 syntax is searched as plain words', async () => {
    await seed(store);
    for (const text of ['berlin AND NOT "', 'NEAR(berlin lisbon)', 'terms:berlin*', '^berlin OR (']) {
      const hits = await store.search({ namespace: 'ns', text, kinds: ['turn'], k: 5 });
      expect(hits.map((hit) => hit.id)).toContain('s1-m1');
    }
  });

  it('lexical scores are positive, higher for the better match', async () => {
    await seed(store);
    await store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('both', 'berlin lisbon')] }] });
    const hits = await store.search({ namespace: 'ns', text: 'berlin lisbon', kinds: ['turn'], k: 5 });
    expect(hits[0]?.id).toBe('both');
    for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
  });

  it('after close, calls throw CLOSED naming the method and the database', async () => {
    await store.close();
    const error = await store.messages({ sessionId: 's1' }).catch((caught: unknown) => caught);
    expect(StrataError.is(error, 'CLOSED')).toBe(true);
    expect((error as StrataError).message).toContain('messages()');
    expect((error as StrataError).message).toContain(':memory:');
  });
});

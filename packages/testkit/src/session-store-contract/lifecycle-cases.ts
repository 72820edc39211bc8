import { expect } from 'vitest';
import type { SessionStore } from '@strata/core';
import type { CurrentLexical, CurrentStore, Define } from './fixtures.js';
import { T0, expectStrataError, fact, idsOf, job, message, seedSession, session, summary } from './fixtures.js';

/** Deletes and cascades, copy semantics, and close. */
export function describeLifecycle(test: Define, store: CurrentStore, lexical: CurrentLexical): void {
  describeDeletes(test, store, lexical);
  describeCopies(test, store);
  describeClose(test, store, lexical);
}

/** One session with two messages, a summary and a job, plus a fact built from it. */
async function seedDerived(target: SessionStore, sessionId: string): Promise<void> {
  await seedSession(target, sessionId, ['alpha turn', 'beta turn']);
  await target.write({
    ops: [
      { type: 'putSummaries', summaries: [summary(`${sessionId}-sum`, sessionId, [1, 2], 'alpha beta summary')] },
      { type: 'putFacts', facts: [fact(`${sessionId}-fact`, 'user', `said in ${sessionId}`, 'alpha', { sourceMessageIds: [`${sessionId}-m1`] })] },
      { type: 'recordJobs', jobs: [job(`${sessionId}-job`, sessionId, [1, 2])] },
    ],
  });
}

function describeDeletes(test: Define, store: CurrentStore, lexical: CurrentLexical): void {
  test('delete removes records by id and ignores unknown ids', async () => {
    await seedDerived(store(), 's1');
    await store().write({
      ops: [{ type: 'delete', messages: ['s1-m1', 'nope'], summaries: ['s1-sum'], facts: ['s1-fact'], jobs: ['s1-job', 'nope'] }],
    });
    expect(idsOf(await store().messages({ sessionId: 's1' }))).toEqual(['s1-m2']);
    expect(await store().summaries({ sessionId: 's1' })).toEqual([]);
    expect(await store().facts({ namespace: 'ns-a', includeSuperseded: true })).toEqual([]);
    expect(await store().jobs({ sessionId: 's1' })).toEqual([]);
    expect(idsOf(await store().sessions({}))).toEqual(['s1']);
  });

  test('deleting a session deletes its messages, summaries and jobs but keeps facts', async () => {
    await seedDerived(store(), 's1');
    await seedDerived(store(), 's2');
    await store().write({ ops: [{ type: 'delete', sessions: ['s1', 'ghost'] }] });
    expect(idsOf(await store().sessions({}))).toEqual(['s2']);
    expect(idsOf(await store().messages({ namespace: 'ns-a' }))).toEqual(['s2-m1', 's2-m2']);
    expect(idsOf(await store().summaries({ namespace: 'ns-a' }))).toEqual(['s2-sum']);
    expect(await store().jobs({ sessionId: 's1' })).toEqual([]);
    expect((await store().jobs({ sessionId: 's2' })).length).toBe(1);
    expect(idsOf(await store().facts({ namespace: 'ns-a' })).sort()).toEqual(['s1-fact', 's2-fact']);
    const hits = await lexical().search({ namespace: 'ns-a', text: 'alpha', kinds: ['turn', 'summary', 'fact'], k: 10 });
    expect(hits.map((h) => h.id).sort()).toEqual(['s1-fact', 's2-fact', 's2-m1', 's2-sum']);
  });
}

function describeCopies(test: Define, store: CurrentStore): void {
  test('mutating returned records does not change the store', async () => {
    await seedDerived(store(), 's1');
    const [readSession] = await store().sessions({ ids: ['s1'] });
    const [readMessage] = await store().messages({ ids: ['s1-m1'] });
    const [readSummary] = await store().summaries({ sessionId: 's1' });
    const [readFact] = await store().facts({ namespace: 'ns-a' });
    if (!readSession || !readMessage || !readSummary || !readFact) throw new Error('seeded records are missing');
    readSession.lastSeq = 99;
    readSession.metadata.touched = true;
    readMessage.content = 'changed';
    readMessage.metadata.touched = true;
    readSummary.sourceMessageIds.push('x');
    readFact.sourceMessageIds.length = 0;
    expect(await store().sessions({ ids: ['s1'] })).toEqual([session('s1', { lastSeq: 2, updatedAt: T0 + 1_000 })]);
    expect(await store().messages({ ids: ['s1-m1'] })).toMatchObject([{ content: 'alpha turn', metadata: {} }]);
    expect((await store().summaries({ sessionId: 's1' }))[0]?.sourceMessageIds).toEqual([]);
    expect((await store().facts({ namespace: 'ns-a' }))[0]?.sourceMessageIds).toEqual(['s1-m1']);
  });

  test('mutating written inputs afterwards does not change the store', async () => {
    const tags = ['a'];
    const given = session('s1', { metadata: { tags } });
    const turn = message('m1', 'original', { metadata: { n: 1 } });
    const derived = fact('f1', 'user', 'likes', 'tea');
    await store().write({
      ops: [
        { type: 'putSession', session: given },
        { type: 'appendMessages', sessionId: 's1', messages: [turn] },
        { type: 'putFacts', facts: [derived] },
      ],
    });
    given.title = 'changed';
    tags.push('b');
    turn.content = 'changed';
    turn.metadata.n = 2;
    derived.object = 'coffee';
    expect((await store().sessions({ ids: ['s1'] }))[0]).toMatchObject({ metadata: { tags: ['a'] } });
    expect((await store().sessions({ ids: ['s1'] }))[0]?.title).toBeUndefined();
    expect(await store().messages({ ids: ['m1'] })).toMatchObject([{ content: 'original', metadata: { n: 1 } }]);
    expect((await store().facts({ ids: ['f1'] }))[0]?.object).toBe('tea');
  });
}

function describeClose(test: Define, store: CurrentStore, lexical: CurrentLexical): void {
  test('after close every method throws CLOSED, and close is idempotent', async () => {
    await seedSession(store(), 's1', ['hello']);
    await store().close();
    await store().close();
    // Thunks, so that no rejected promise sits unobserved while an earlier one is awaited.
    const calls: (() => Promise<unknown>)[] = [
      () => store().write({ ops: [{ type: 'putSession', session: session('s2') }] }),
      () => store().sessions({}),
      () => store().messages({ sessionId: 's1' }),
      () => store().summaries({}),
      () => store().facts({}),
      () => store().jobs({ sessionId: 's1' }),
      () => lexical().search({ namespace: 'ns-a', text: 'hello', kinds: ['turn'], k: 1 }),
    ];
    for (const call of calls) await expectStrataError(call(), 'CLOSED');
  });
}

// Kept in one file: the write cases of the SessionStore contract, side by side.
import { expect } from 'vitest';
import type { CurrentLexical, CurrentStore, Define } from './fixtures.js';
import { T0, expectStrataError, fact, idsOf, job, message, seedSession, session, storedMessage, summary } from './fixtures.js';

/** Sessions, seq assignment, error codes, atomicity and the job ledger. */
export function describeWrites(test: Define, store: CurrentStore, lexical: CurrentLexical): void {
  describeSessions(test, store);
  describeAppends(test, store);
  describeAtomicity(test, store, lexical);
  describeIntegrity(test, store);
  describeRepeats(test, store, lexical);
}

function describeSessions(test: Define, store: CurrentStore): void {
  test('putSession stores the session as given', async () => {
    const given = session('s1', { title: 'Trip', metadata: { tags: ['travel'], depth: { n: 1 } }, createdAt: T0 - 5 });
    await store().write({ ops: [{ type: 'putSession', session: given }] });
    expect(await store().sessions({ ids: ['s1', 'unknown'] })).toEqual([given]);
  });

  test('putSession replaces a session but never lowers lastSeq', async () => {
    await seedSession(store(), 's1', ['one', 'two']);
    await store().write({ ops: [{ type: 'putSession', session: session('s1', { title: 'Renamed', lastSeq: 0 }) }] });
    const [renamed] = await store().sessions({ ids: ['s1'] });
    expect(renamed).toMatchObject({ title: 'Renamed', lastSeq: 2 });
    await store().write({ ops: [{ type: 'putSession', session: session('s1', { lastSeq: 10 }) }] });
    expect((await store().sessions({ ids: ['s1'] }))[0]?.lastSeq).toBe(10);
  });

  test('sessions are listed most recently updated first, up to limit', async () => {
    const ops = [session('old', { updatedAt: T0 + 1 }), session('newest', { updatedAt: T0 + 3 }), session('middle', { updatedAt: T0 + 2 })].map((s) => ({ type: 'putSession' as const, session: s }));
    await store().write({ ops });
    expect(idsOf(await store().sessions({}))).toEqual(['newest', 'middle', 'old']);
    expect(idsOf(await store().sessions({ limit: 2 }))).toEqual(['newest', 'middle']);
  });

  test('sessions filter by namespace and updatedBefore (exclusive)', async () => {
    const ops = [session('a1', { updatedAt: T0 + 10 }), session('a2', { updatedAt: T0 + 20 }), session('b1', { namespace: 'ns-b', updatedAt: T0 + 5 })].map((s) => ({
      type: 'putSession' as const,
      session: s,
    }));
    await store().write({ ops });
    expect(idsOf(await store().sessions({ namespace: 'ns-a' }))).toEqual(['a2', 'a1']);
    expect(idsOf(await store().sessions({ updatedBefore: T0 + 20 }))).toEqual(['a1', 'b1']);
    expect(idsOf(await store().sessions({ namespace: 'ns-b', updatedBefore: T0 + 5 }))).toEqual([]);
  });
}

function describeAppends(test: Define, store: CurrentStore): void {
  test('appendMessages assigns seq lastSeq+1.. in order, across batches', async () => {
    const first = await seedSession(store(), 's1', ['one', 'two'], 'ns-b');
    expect(first.map((m) => [m.id, m.seq, m.sessionId, m.namespace])).toEqual([
      ['s1-m1', 1, 's1', 'ns-b'],
      ['s1-m2', 2, 's1', 'ns-b'],
    ]);
    const receipt = await store().write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [message('x', 'three')] }] });
    expect(receipt.applied).toBe(true);
    expect(receipt.messages.map((m) => m.seq)).toEqual([3]);
    expect((await store().messages({ sessionId: 's1' })).map((m) => m.seq)).toEqual([1, 2, 3]);
    expect((await store().sessions({ ids: ['s1'] }))[0]?.lastSeq).toBe(3);
  });

  test('appendMessages keeps caller ids, times, roles, tool calls and metadata', async () => {
    await store().write({ ops: [{ type: 'putSession', session: session('s1') }] });
    const given = message('caller-id', 'calling a tool', {
      role: 'assistant',
      name: 'planner',
      createdAt: T0 + 42,
      toolCalls: [{ id: 'call-1', name: 'search', args: { q: 'berlin', nested: { n: [1, 2] } } }],
      metadata: { source: 'test', score: 0.5 },
    });
    const reply = message('tool-reply', 'result', { role: 'tool', toolCallId: 'call-1', createdAt: T0 + 43 });
    await store().write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [given, reply] }] });
    expect(await store().messages({ sessionId: 's1' })).toEqual([
      { ...given, sessionId: 's1', namespace: 'ns-a', seq: 1 },
      { ...reply, sessionId: 's1', namespace: 'ns-a', seq: 2 },
    ]);
  });

  test('a turn keeps the token count stored with it, through appends and inserts', async () => {
    await store().write({ ops: [{ type: 'putSession', session: session('s1') }] });
    const counted = message('counted', 'seven tokens or so', { tokens: { counter: 'tiktoken:o200k_base', count: 7 } });
    const uncounted = message('uncounted', 'no count');
    await store().write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [counted, uncounted] }] });
    const imported = storedMessage('imported', 's1', 5, 'imported turn', { tokens: { counter: 'chars/4', count: 3 } });
    await store().write({ ops: [{ type: 'insertMessages', messages: [imported] }] });
    const read = await store().messages({ sessionId: 's1' });
    expect(read.map((m) => [m.id, m.tokens])).toEqual([
      ['counted', { counter: 'tiktoken:o200k_base', count: 7 }],
      ['uncounted', undefined],
      ['imported', { counter: 'chars/4', count: 3 }],
    ]);
  });

  test('appendMessages raises updatedAt to the newest message time, never lowers it', async () => {
    await store().write({ ops: [{ type: 'putSession', session: session('s1', { updatedAt: T0 + 100 }) }] });
    const append = (createdAt: number) => store().write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [message(`m${createdAt}`, 'hi', { createdAt })] }] });
    await append(T0 + 500);
    expect((await store().sessions({ ids: ['s1'] }))[0]?.updatedAt).toBe(T0 + 500);
    await append(T0 + 50);
    expect((await store().sessions({ ids: ['s1'] }))[0]).toMatchObject({ updatedAt: T0 + 500, lastSeq: 2 });
  });

  test('appendMessages to an unknown session throws NOT_FOUND', async () => {
    const append = store().write({ ops: [{ type: 'appendMessages', sessionId: 'ghost', messages: [message('m1', 'hello')] }] });
    const error = await expectStrataError(append, 'NOT_FOUND');
    expect(error.message).toContain('ghost');
    expect(await store().messages({ ids: ['m1'] })).toEqual([]);
  });

  test('a message id already stored, even in another session, throws CONFLICT naming it', async () => {
    await seedSession(store(), 's1', ['one']);
    await store().write({ ops: [{ type: 'putSession', session: session('s2') }] });
    const again = store().write({ ops: [{ type: 'appendMessages', sessionId: 's2', messages: [message('s1-m1', 'dup')] }] });
    expect((await expectStrataError(again, 'CONFLICT')).message).toContain('s1-m1');
    expect(await store().messages({ sessionId: 's2' })).toEqual([]);
  });

  test('a message id repeated within one batch throws CONFLICT', async () => {
    await store().write({ ops: [{ type: 'putSession', session: session('s1') }] });
    const ops = [
      { type: 'appendMessages' as const, sessionId: 's1', messages: [message('twice', 'a')] },
      { type: 'appendMessages' as const, sessionId: 's1', messages: [message('twice', 'b')] },
    ];
    expect((await expectStrataError(store().write({ ops }), 'CONFLICT')).message).toContain('twice');
  });

  test('an append of several messages with a stored id, or with one id given twice, throws CONFLICT naming it and stores none of them', async () => {
    await seedSession(store(), 's1', ['one']);
    await store().write({ ops: [{ type: 'putSession', session: session('s2') }] });
    const stored = store().write({ ops: [{ type: 'appendMessages', sessionId: 's2', messages: [message('a', 'x'), message('s1-m1', 'dup'), message('b', 'y')] }] });
    expect((await expectStrataError(stored, 'CONFLICT')).message).toContain('s1-m1');
    const twice = store().write({ ops: [{ type: 'appendMessages', sessionId: 's2', messages: [message('c', 'x'), message('d', 'y'), message('c', 'z')] }] });
    expect((await expectStrataError(twice, 'CONFLICT')).message).toContain('"c"');
    expect(await store().messages({ sessionId: 's2' })).toEqual([]);
    // the session's seqs did not move: the next append starts at 1
    const [first] = (await store().write({ ops: [{ type: 'appendMessages', sessionId: 's2', messages: [message('e', 'ok')] }] })).messages;
    expect(first?.seq).toBe(1);
  });

  test('insertMessages keeps the given seq and raises lastSeq', async () => {
    await store().write({ ops: [{ type: 'putSession', session: session('s1') }] });
    const inserted = [storedMessage('i5', 's1', 5, 'five'), storedMessage('i2', 's1', 2, 'two')];
    const receipt = await store().write({ ops: [{ type: 'insertMessages', messages: inserted }] });
    expect(receipt.messages.map((m) => [m.id, m.seq])).toEqual([
      ['i5', 5],
      ['i2', 2],
    ]);
    expect(await store().messages({ sessionId: 's1' })).toEqual([inserted[1], inserted[0]]);
    const next = await store().write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [message('n', 'next')] }] });
    expect(next.messages[0]?.seq).toBe(6);
  });

  test('insertMessages into a taken seq or with a stored id throws CONFLICT', async () => {
    await seedSession(store(), 's1', ['one']);
    const takenSeq = store().write({ ops: [{ type: 'insertMessages', messages: [storedMessage('fresh', 's1', 1, 'x')] }] });
    await expectStrataError(takenSeq, 'CONFLICT');
    const takenId = store().write({ ops: [{ type: 'insertMessages', messages: [storedMessage('s1-m1', 's1', 7, 'x')] }] });
    expect((await expectStrataError(takenId, 'CONFLICT')).message).toContain('s1-m1');
    expect(idsOf(await store().messages({ sessionId: 's1' }))).toEqual(['s1-m1']);
  });

  test('seq is never reused after the newest message is deleted', async () => {
    await seedSession(store(), 's1', ['one', 'two', 'three']);
    await store().write({ ops: [{ type: 'delete', messages: ['s1-m3'] }] });
    expect((await store().sessions({ ids: ['s1'] }))[0]?.lastSeq).toBe(3);
    const receipt = await store().write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [message('m4', 'four')] }] });
    expect(receipt.messages[0]?.seq).toBe(4);
    expect((await store().messages({ sessionId: 's1' })).map((m) => m.seq)).toEqual([1, 2, 4]);
  });
}

function describeIntegrity(test: Define, store: CurrentStore): void {
  test('a batch leaving two current facts in one slot is rejected with CONFLICT and writes nothing', async () => {
    const paris = fact('f-paris', 'user', 'lives_in', 'Paris');
    await store().write({ ops: [{ type: 'putFacts', facts: [paris] }] });
    const berlin = fact('f-berlin', 'user', 'lives_in', 'Berlin', { validFrom: T0 + 10 });
    await expectStrataError(store().write({ ops: [{ type: 'putFacts', facts: [berlin] }] }), 'CONFLICT');
    expect(idsOf(await store().facts({ namespace: 'ns-a', includeSuperseded: true }))).toEqual(['f-paris']);
  });

  test('superseding in one batch (old gets validTo, then the new current fact) is accepted', async () => {
    const paris = fact('f-paris', 'user', 'lives_in', 'Paris');
    await store().write({ ops: [{ type: 'putFacts', facts: [paris] }] });
    const berlin = fact('f-berlin', 'user', 'lives_in', 'Berlin', { validFrom: T0 + 10 });
    const old = { ...paris, validTo: T0 + 10, supersededBy: 'f-berlin' };
    await store().write({ ops: [{ type: 'putFacts', facts: [old, berlin] }] });
    expect(idsOf(await store().facts({ namespace: 'ns-a' }))).toEqual(['f-berlin']);
    // other slots and other namespaces may each have their own current fact
    await store().write({ ops: [{ type: 'putFacts', facts: [fact('f-job', 'user', 'employer', 'Acme'), fact('f-nb', 'user', 'lives_in', 'Rome', { namespace: 'ns-b' })] }] });
    expect(idsOf(await store().facts({}))).toEqual(['f-job', 'f-nb', 'f-berlin']);
  });

  test('overlapping batch summaries of a session are rejected with CONFLICT; a synopsis may span them', async () => {
    await seedSession(store(), 's1', ['1', '2', '3', '4', '5', '6']);
    await store().write({ ops: [{ type: 'putSummaries', summaries: [summary('a', 's1', [1, 3], 'first')] }] });
    await expectStrataError(store().write({ ops: [{ type: 'putSummaries', summaries: [summary('b', 's1', [3, 5], 'overlaps')] }] }), 'CONFLICT');
    await store().write({
      ops: [{ type: 'putSummaries', summaries: [summary('c', 's1', [4, 6], 'next'), summary('syn', 's1', [1, 6], 'all', { level: 'synopsis' })] }],
    });
    expect(idsOf(await store().summaries({ sessionId: 's1' }))).toEqual(['a', 'syn', 'c']);
  });

  test('a step of many records checks each: the CONFLICT names the slot two current facts would share', async () => {
    await store().write({ ops: [{ type: 'putFacts', facts: [fact('f-paris', 'user', 'lives_in', 'Paris')] }] });
    const step = [fact('f-job', 'user', 'employer', 'Acme'), fact('f-pet', 'user', 'pet', 'cat'), fact('f-berlin', 'user', 'lives_in', 'Berlin', { validFrom: T0 + 10 })];
    const error = await expectStrataError(store().write({ ops: [{ type: 'putFacts', facts: step }] }), 'CONFLICT');
    expect(error.message).toContain('lives_in');
    expect(error.message).toContain('f-paris');
    expect(idsOf(await store().facts({ namespace: 'ns-a', includeSuperseded: true }))).toEqual(['f-paris']);
  });
}

function describeRepeats(test: Define, store: CurrentStore, lexical: CurrentLexical): void {
  test('a summary or fact given twice in one step is stored once, as given last, with its sources, and found by its text only', async () => {
    await seedSession(store(), 's1', ['one', 'two', 'three']);
    await seedSession(store(), 's2', ['four']);
    await store().write({
      ops: [
        {
          type: 'putSummaries',
          summaries: [
            summary('sum', 's1', [1, 2], 'draft about quinces', { sourceMessageIds: ['s1-m1'] }),
            summary('sum', 's1', [1, 3], 'final about damsons', { sourceMessageIds: ['s1-m3', 's1-m1'] }),
          ],
        },
        {
          type: 'putFacts',
          facts: [
            fact('f1', 'user', 'fruit', 'quince', { text: 'User grows quinces.', sourceMessageIds: ['s1-m2'] }),
            fact('f1', 'user', 'fruit', 'damson', { text: 'User grows damsons.', sourceMessageIds: ['s2-m1', 's1-m1'] }),
          ],
        },
      ],
    });
    const summaries = await store().summaries({ sessionId: 's1' });
    expect(summaries.map((s) => [s.id, s.toSeq, s.text, s.sourceMessageIds])).toEqual([['sum', 3, 'final about damsons', ['s1-m3', 's1-m1']]]);
    const facts = await store().facts({ namespace: 'ns-a', includeSuperseded: true });
    expect(facts.map((f) => [f.id, f.object, f.sourceMessageIds])).toEqual([['f1', 'damson', ['s2-m1', 's1-m1']]]);
    expect(await lexical().search({ namespace: 'ns-a', text: 'quinces', kinds: ['summary', 'fact'], k: 5 })).toEqual([]);
    expect((await lexical().search({ namespace: 'ns-a', text: 'damsons', kinds: ['summary', 'fact'], k: 5 })).map((h) => h.id).sort()).toEqual(['f1', 'sum']);
  });
}

function describeAtomicity(test: Define, store: CurrentStore, lexical: CurrentLexical): void {
  test('a batch that fails on a later step writes nothing at all', async () => {
    await seedSession(store(), 's1', ['one']);
    const batch = store().write({
      ops: [
        { type: 'appendMessages', sessionId: 's1', messages: [message('new-1', 'applied first')] },
        { type: 'appendMessages', sessionId: 's1', messages: [message('s1-m1', 'conflicts')] },
      ],
    });
    await expectStrataError(batch, 'CONFLICT');
    expect(idsOf(await store().messages({ sessionId: 's1' }))).toEqual(['s1-m1']);
    expect((await store().sessions({ ids: ['s1'] }))[0]?.lastSeq).toBe(1);
    expect(await lexical().search({ namespace: 'ns-a', text: 'applied first', kinds: ['turn'], k: 5 })).toEqual([]);
  });

  test('a failing batch also rolls back sessions, derived records, jobs and deletes', async () => {
    await seedSession(store(), 's1', ['one']);
    const batch = store().write({
      ops: [
        { type: 'putSession', session: session('s2') },
        { type: 'recordJobs', jobs: [job('k1', 's1', [1, 1])] },
        { type: 'delete', messages: ['s1-m1'] },
        { type: 'appendMessages', sessionId: 'ghost', messages: [message('g1', 'x')] },
      ],
    });
    await expectStrataError(batch, 'NOT_FOUND');
    expect(idsOf(await store().sessions({}))).toEqual(['s1']);
    expect(await store().jobs({ sessionId: 's1' })).toEqual([]);
    expect(idsOf(await store().messages({ sessionId: 's1' }))).toEqual(['s1-m1']);
  });

  test('recordJobs is idempotent by key and unlessJobApplied skips a batch already applied', async () => {
    await seedSession(store(), 's1', ['one']);
    let attempt = 0;
    const apply = () => {
      attempt += 1;
      return store().write({
        unlessJobApplied: 'summarize:s1:1-1',
        ops: [
          { type: 'appendMessages', sessionId: 's1', messages: [message(`side-${attempt}`, 'side effect')] },
          { type: 'recordJobs', jobs: [job('summarize:s1:1-1', 's1', [1, 1])] },
        ],
      });
    };
    expect((await apply()).applied).toBe(true);
    expect(await apply()).toEqual({ applied: false, messages: [] });
    expect((await store().messages({ sessionId: 's1' })).length).toBe(2);
    await store().write({ ops: [{ type: 'recordJobs', jobs: [job('summarize:s1:1-1', 's1', [1, 1])] }] });
    expect((await store().jobs({ sessionId: 's1' })).map((j) => j.key)).toEqual(['summarize:s1:1-1']);
  });
}

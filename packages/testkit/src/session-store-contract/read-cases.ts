import { expect } from 'vitest';
import type { CurrentStore, Define } from './fixtures.js';
import { T0, fact, idsOf, job, message, seedSession, session, summary } from './fixtures.js';

/** Filters and orderings of every read. */
export function describeReads(test: Define, store: CurrentStore): void {
  describeMessageReads(test, store);
  describeSummaryReads(test, store);
  describeFactReads(test, store);
  describeJobReads(test, store);
}

function describeMessageReads(test: Define, store: CurrentStore): void {
  test('countMessages counts what each session holds now: forgotten messages and sessions leave the count, unknown ids count 0', async () => {
    await seedSession(store(), 'sa', ['a one', 'a two', 'a three']);
    await seedSession(store(), 'sb', ['b one'], 'ns-b');
    await store().write({ ops: [{ type: 'putSession', session: session('empty') }] });
    const counts = async (ids: string[]): Promise<[string, number][]> => [...(await store().countMessages(ids))].sort(([a], [b]) => (a < b ? -1 : 1));
    expect(await counts(['sa', 'sb', 'empty', 'unknown', 'sa'])).toEqual([
      ['empty', 0],
      ['sa', 3],
      ['sb', 1],
      ['unknown', 0],
    ]);
    expect(await counts([])).toEqual([]);
    await store().write({ ops: [{ type: 'delete', messages: ['sa-m2'] }] });
    await store().write({ ops: [{ type: 'appendMessages', sessionId: 'sb', messages: [message('sb-m2', 'b two')] }] });
    expect(await counts(['sa', 'sb'])).toEqual([
      ['sa', 2],
      ['sb', 2],
    ]);
    await store().write({ ops: [{ type: 'delete', sessions: ['sa'] }] });
    expect(await counts(['sa'])).toEqual([['sa', 0]]);
  });

  test('messages by ids come ordered by session then seq; unknown ids are skipped', async () => {
    await seedSession(store(), 'sb', ['b one', 'b two']);
    await seedSession(store(), 'sa', ['a one', 'a two']);
    const found = await store().messages({ ids: ['sb-m2', 'sa-m2', 'nope', 'sb-m1'] });
    expect(found.map((m) => [m.sessionId, m.seq])).toEqual([
      ['sa', 2],
      ['sb', 1],
      ['sb', 2],
    ]);
  });

  test('messages filter by inclusive seq bounds and keep the newest N oldest first', async () => {
    await seedSession(store(), 's1', ['1', '2', '3', '4', '5', '6']);
    const seqs = async (filter: { fromSeq?: number; toSeq?: number; last?: number }): Promise<number[]> => (await store().messages({ sessionId: 's1', ...filter })).map((m) => m.seq);
    expect(await seqs({ fromSeq: 2, toSeq: 4 })).toEqual([2, 3, 4]);
    expect(await seqs({ fromSeq: 5 })).toEqual([5, 6]);
    expect(await seqs({ last: 3 })).toEqual([4, 5, 6]);
    expect(await seqs({ toSeq: 4, last: 2 })).toEqual([3, 4]);
    expect(await seqs({ last: 10 })).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('messages filter by several seq ranges at once: overlaps once, ordered by session then seq', async () => {
    await seedSession(store(), 's1', ['1', '2', '3', '4', '5', '6']);
    await seedSession(store(), 's2', ['a', 'b', 'c']);
    const found = await store().messages({
      seqRanges: [
        { sessionId: 's2', fromSeq: 0, toSeq: 1 },
        { sessionId: 's1', fromSeq: 5, toSeq: 9 },
        { sessionId: 's1', fromSeq: 1, toSeq: 2 },
        { sessionId: 's1', fromSeq: 2, toSeq: 2 },
      ],
    });
    expect(found.map((m) => [m.sessionId, m.seq])).toEqual([
      ['s1', 1],
      ['s1', 2],
      ['s1', 5],
      ['s1', 6],
      ['s2', 1],
    ]);
    expect(await store().messages({ seqRanges: [] })).toEqual([]);
    expect(idsOf(await store().messages({ seqRanges: [{ sessionId: 's1', fromSeq: 1, toSeq: 6 }], last: 2 }))).toEqual(['s1-m5', 's1-m6']);
    expect(await store().messages({ seqRanges: [{ sessionId: 'unknown', fromSeq: 1, toSeq: 3 }] })).toEqual([]);
  });

  test('messages filter by namespace and by session', async () => {
    await seedSession(store(), 'sa', ['a'], 'ns-a');
    await seedSession(store(), 'sb', ['b'], 'ns-b');
    expect(idsOf(await store().messages({ namespace: 'ns-b' }))).toEqual(['sb-m1']);
    expect(idsOf(await store().messages({ sessionId: 'sa' }))).toEqual(['sa-m1']);
    expect(await store().messages({ sessionId: 'sa', namespace: 'ns-b' })).toEqual([]);
    expect(await store().messages({ sessionId: 'unknown' })).toEqual([]);
  });
}

function describeSummaryReads(test: Define, store: CurrentStore): void {
  const seed = async (): Promise<void> => {
    await seedSession(store(), 's1', ['1', '2', '3', '4', '5', '6']);
    await seedSession(store(), 's2', ['x']);
    const summaries = [
      summary('late', 's1', [4, 6], 'later turns', { sourceMessageIds: ['s1-m4', 's1-m5', 's1-m6'] }),
      summary('early', 's1', [1, 3], 'early turns', { sourceMessageIds: ['s1-m1', 's1-m2', 's1-m3'] }),
      summary('syn', 's1', [1, 5], 'synopsis', { level: 'synopsis', sourceMessageIds: ['early', 's1-m4'] }),
      summary('other', 's2', [1, 1], 'other session', { sourceMessageIds: ['s2-m1'] }),
    ];
    await store().write({ ops: [{ type: 'putSummaries', summaries }] });
  };

  test('summaries of a session come ordered by fromSeq; level filters', async () => {
    await seed();
    expect(idsOf(await store().summaries({ sessionId: 's1', level: 'batch' }))).toEqual(['early', 'late']);
    expect(idsOf(await store().summaries({ sessionId: 's1', level: 'synopsis' }))).toEqual(['syn']);
    expect(idsOf(await store().summaries({ level: 'batch' }))).toEqual(['early', 'late', 'other']);
  });

  test('summaries filter by minToSeq, sourceMessageIds and ids', async () => {
    await seed();
    expect(idsOf(await store().summaries({ sessionId: 's1', minToSeq: 5 })).sort()).toEqual(['late', 'syn']);
    expect(idsOf(await store().summaries({ sourceMessageIds: ['s1-m4', 's2-m1'] })).sort()).toEqual(['late', 'other', 'syn']);
    expect(idsOf(await store().summaries({ ids: ['other', 'early'] }))).toEqual(['early', 'other']);
  });

  test('putSummaries replaces a summary with the same id', async () => {
    await seed();
    const replaced = summary('early', 's1', [1, 3], 'rewritten', { degraded: true });
    await store().write({ ops: [{ type: 'putSummaries', summaries: [replaced] }] });
    expect(await store().summaries({ ids: ['early'] })).toEqual([replaced]);
  });
}

function describeFactReads(test: Define, store: CurrentStore): void {
  const seed = (): Promise<unknown> =>
    store().write({
      ops: [
        {
          type: 'putFacts',
          facts: [
            fact('f-b', 'user', 'lives_in', 'Berlin', { validFrom: T0 + 20, sourceMessageIds: ['m2'] }),
            fact('f-old', 'user', 'lives_in', 'Paris', { validFrom: T0 + 10, validTo: T0 + 20, supersededBy: 'f-b', sourceMessageIds: ['m1'] }),
            fact('f-a', 'user', 'likes', 'tea', { validFrom: T0 + 20 }),
            fact('f-pet', 'dog', 'named', 'Rex', { validFrom: T0 + 5, sourceMessageIds: ['m1', 'm3'] }),
            fact('f-other', 'user', 'likes', 'coffee', { namespace: 'ns-b' }),
          ],
        },
      ],
    });

  test('facts come ordered by validFrom then id, current only by default', async () => {
    await seed();
    expect(idsOf(await store().facts({ namespace: 'ns-a' }))).toEqual(['f-pet', 'f-a', 'f-b']);
    expect(idsOf(await store().facts({ namespace: 'ns-a', includeSuperseded: true }))).toEqual(['f-pet', 'f-old', 'f-a', 'f-b']);
  });

  test('facts filter by subject, predicate, namespace, ids and sourceMessageIds', async () => {
    await seed();
    expect(idsOf(await store().facts({ subject: 'user', predicate: 'likes' }))).toEqual(['f-other', 'f-a']);
    expect(idsOf(await store().facts({ namespace: 'ns-a', subject: 'user', predicate: 'likes' }))).toEqual(['f-a']);
    const slot = await store().facts({ namespace: 'ns-a', subject: 'user', predicate: 'lives_in', includeSuperseded: true });
    expect(slot.map((f) => [f.id, f.object, f.validTo, f.supersededBy])).toEqual([
      ['f-old', 'Paris', T0 + 20, 'f-b'],
      ['f-b', 'Berlin', undefined, undefined],
    ]);
    expect(idsOf(await store().facts({ ids: ['f-old', 'f-pet'] }))).toEqual(['f-pet']);
    expect(idsOf(await store().facts({ sourceMessageIds: ['m1'], includeSuperseded: true }))).toEqual(['f-pet', 'f-old']);
  });

  test('facts filter by predicate kind: the whole predicate, or the part before ":"', async () => {
    await seed();
    await store().write({ ops: [{ type: 'putFacts', facts: [fact('f-dog', 'user', 'pet:dog', 'Rex', { validFrom: T0 + 30 }), fact('f-pets', 'user', 'petsitter', 'yes', { validFrom: T0 + 31 })] }] });
    expect(idsOf(await store().facts({ namespace: 'ns-a', predicateKinds: ['pet', 'lives_in'] }))).toEqual(['f-b', 'f-dog']);
    expect(idsOf(await store().facts({ namespace: 'ns-a', predicateKinds: ['lives_in'], includeSuperseded: true }))).toEqual(['f-old', 'f-b']);
    expect(idsOf(await store().facts({ predicateKinds: ['likes'] }))).toEqual(['f-other', 'f-a']);
    expect(await store().facts({ namespace: 'ns-a', predicateKinds: [] })).toEqual([]);
    // one person's profile (a question about them): the subject and the kinds together, newest N
    await store().write({
      ops: [{ type: 'putFacts', facts: [fact('f-mia-home', 'mia', 'lives_in', 'Oslo', { validFrom: T0 + 32 }), fact('f-mia-pet', 'mia', 'pet:cat', 'Tofu', { validFrom: T0 + 33 })] }],
    });
    expect(idsOf(await store().facts({ namespace: 'ns-a', subject: 'mia', predicateKinds: ['pet', 'lives_in'] }))).toEqual(['f-mia-home', 'f-mia-pet']);
    expect(idsOf(await store().facts({ namespace: 'ns-a', subject: 'mia', predicateKinds: ['pet', 'lives_in'], last: 1 }))).toEqual(['f-mia-pet']);
    expect(idsOf(await store().facts({ namespace: 'ns-a', subject: 'user', predicateKinds: ['pet', 'lives_in'] }))).toEqual(['f-b', 'f-dog']);
  });

  test('facts last keeps the newest N matches (validFrom then id), oldest first, with their provenance', async () => {
    await seed();
    expect(idsOf(await store().facts({ namespace: 'ns-a', last: 2 }))).toEqual(['f-a', 'f-b']);
    expect(idsOf(await store().facts({ namespace: 'ns-a', includeSuperseded: true, last: 3 }))).toEqual(['f-old', 'f-a', 'f-b']);
    expect(idsOf(await store().facts({ namespace: 'ns-a', predicateKinds: ['likes', 'lives_in'], last: 1 }))).toEqual(['f-b']);
    expect(await store().facts({ namespace: 'ns-a', last: 0 })).toEqual([]);
    const [newest] = await store().facts({ namespace: 'ns-a', last: 1 });
    const [same] = await store().facts({ ids: [newest?.id ?? ''] });
    expect(newest).toEqual(same);
  });

  test('putFacts replaces a fact with the same id (supersession)', async () => {
    await seed();
    const superseded = fact('f-a', 'user', 'likes', 'tea', { validFrom: T0 + 20, validTo: T0 + 30, supersededBy: 'f-z' });
    await store().write({ ops: [{ type: 'putFacts', facts: [superseded] }] });
    expect(idsOf(await store().facts({ namespace: 'ns-a', predicate: 'likes' }))).toEqual([]);
    expect(await store().facts({ ids: ['f-a'], includeSuperseded: true })).toEqual([superseded]);
  });
}

function describeJobReads(test: Define, store: CurrentStore): void {
  test('jobs of a session come ordered by toSeq; type and last filter', async () => {
    const jobs = [job('sum:s1:4-6', 's1', [4, 6]), job('ing:s1:1-3', 's1', [1, 3], { type: 'ingest' }), job('sum:s1:1-2', 's1', [1, 2]), job('sum:s2:1-9', 's2', [1, 9])];
    await store().write({ ops: [{ type: 'recordJobs', jobs }] });
    const keys = async (filter: { type?: 'summarize' | 'ingest'; last?: number }): Promise<string[]> => (await store().jobs({ sessionId: 's1', ...filter })).map((j) => j.key);
    expect(await keys({})).toEqual(['sum:s1:1-2', 'ing:s1:1-3', 'sum:s1:4-6']);
    expect(await keys({ type: 'summarize' })).toEqual(['sum:s1:1-2', 'sum:s1:4-6']);
    expect(await keys({ type: 'summarize', last: 1 })).toEqual(['sum:s1:4-6']);
    expect(await keys({ last: 2 })).toEqual(['ing:s1:1-3', 'sum:s1:4-6']);
    expect(await store().jobs({ sessionId: 's1', type: 'summarize' })).toEqual([jobs[2], jobs[0]]);
  });
}

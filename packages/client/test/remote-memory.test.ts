import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyDerivationStats, type ExtractedFact, type ExtractInput, ObservationFactExtractor, StrataError } from '@strata/core';
import { openRemoteFixture, type RemoteFixture } from './support/remote-fixture.js';

/** What a rejected call threw. */
const rejection = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => error,
  );

/** The token usage one extraction of {@link ReportingExtractor} reports. */
const REPORTED = { inputTokens: 90, outputTokens: 12, calls: 1 };

/** The offline extractor, reporting usage as a model named `reporting-model` would. */
class ReportingExtractor extends ObservationFactExtractor {
  override async extract(input: ExtractInput): Promise<ExtractedFact[]> {
    input.onUsage?.({ inputTokens: REPORTED.inputTokens, outputTokens: REPORTED.outputTokens, model: 'reporting-model' });
    return super.extract(input);
  }
}

describe('createRemoteMemory: the in-process answers over HTTP', () => {
  let f: RemoteFixture;

  beforeEach(async () => {
    f = await openRemoteFixture();
  });

  afterEach(async () => {
    await f.close();
  });

  it('lists every session page after page, in the in-process order, and keeps limit and updatedBefore', async () => {
    for (let i = 0; i < 1_234; i++) await f.local.sessions.create({ namespace: i % 3 ? 'a' : 'b', id: `ses_${String(i).padStart(4, '0')}` });
    const all = await f.local.sessions.list();
    expect(await f.remote.sessions.list()).toEqual(all);
    // 500 a page: three pages, every one followed
    expect(f.sentTo('GET', '/v1/sessions')).toHaveLength(3);
    expect(await f.remote.sessions.list({ namespace: 'a' })).toEqual(await f.local.sessions.list({ namespace: 'a' }));
    expect(await f.remote.sessions.list({ limit: 700 })).toEqual(await f.local.sessions.list({ limit: 700 }));
    const updatedBefore = all[800]!.updatedAt;
    expect(await f.remote.sessions.list({ updatedBefore })).toEqual(await f.local.sessions.list({ updatedBefore }));
    expect(await f.remote.sessions.list({ updatedBefore, limit: 3 })).toEqual(await f.local.sessions.list({ updatedBefore, limit: 3 }));
    expect(await f.remote.sessions.list({ namespace: 'nobody' })).toEqual([]);
  });

  it('reads messages page after page, and every range and `last` as in process, across forgotten seqs', async () => {
    const session = await f.local.sessions.create({ namespace: 'long' });
    for (let batch = 0; batch < 3; batch++) {
      await f.local.append(
        session.id,
        Array.from({ length: 900 }, (_, i) => ({ role: 'user' as const, content: `turn ${batch * 900 + i + 1}` })),
      );
    }
    const stored = await f.local.messages(session.id);
    await f.local.forget({ messageIds: stored.filter((m) => m.seq % 7 === 0 || (m.seq > 1_000 && m.seq <= 2_100)).map((m) => m.id) });
    const ranges = [
      {},
      { fromSeq: 990, toSeq: 2_300 },
      { last: 5 },
      { last: 1_500 },
      { fromSeq: 2_000, last: 3_000 },
      { toSeq: 1_200, last: 10 },
      { fromSeq: 3_000 },
      { fromSeq: 50, toSeq: 10 },
      { fromSeq: 1_500, toSeq: 1_600, last: 2 },
    ];
    for (const range of ranges) expect(await f.remote.messages(session.id, range), JSON.stringify(range)).toEqual(await f.local.messages(session.id, range));
    for (const range of [{ fromSeq: 0 }, { last: -1 }, { toSeq: 1.5 }]) {
      const local = (await rejection(f.local.messages(session.id, range))) as StrataError;
      const remote = (await rejection(f.remote.messages(session.id, range))) as StrataError;
      expect(StrataError.is(remote, 'INVALID_INPUT') && StrataError.is(local, 'INVALID_INPUT'), JSON.stringify(range)).toBe(true);
      expect(remote.hint).toBe(local.hint);
    }
    for (const range of [{}, { last: 2 }, { fromSeq: 9, toSeq: 3, last: 1 }]) expect(StrataError.is(await rejection(f.remote.messages('ses_missing', range)), 'NOT_FOUND')).toBe(true);
  });

  it('throws the StrataError the server answered: the memory’s own code, message and hint', async () => {
    const session = await f.local.sessions.create({ namespace: 'errors', id: 'ses_taken' });
    const calls = [
      (m: typeof f.remote) => m.append(session.id, { role: 'user', content: 'broken \uD83D text' }),
      (m: typeof f.remote) => m.append(session.id, { role: 'tool', content: 'no call id' }),
      (m: typeof f.remote) => m.sessions.create({ namespace: 'errors', id: 'ses_taken' }),
      (m: typeof f.remote) => m.forget({ messageIds: ['msg_missing'] }),
      (m: typeof f.remote) => m.getContext(session.id, { budgetTokens: 0 }),
      (m: typeof f.remote) => m.import({ format: 'not a bundle' }),
    ];
    for (const call of calls) {
      const local = (await rejection(call(f.local))) as StrataError;
      const remote = await rejection(call(f.remote));
      expect(StrataError.is(local)).toBe(true);
      expect(StrataError.is(remote, local.code), String(remote)).toBe(true);
      expect({ message: (remote as StrataError).message, hint: (remote as StrataError).hint }).toEqual({ message: local.message, hint: local.hint });
      expect((remote as StrataError).cause).toMatchObject({ status: expect.any(Number), problem: { code: local.code, detail: local.message } });
    }
  });

  it('answers sessions.get of an unknown id with null, and a known one with the session', async () => {
    const session = await f.remote.sessions.create({ namespace: 'get', title: 'Trip' });
    expect(await f.remote.sessions.get(session.id)).toEqual(session);
    expect(await f.remote.sessions.get('ses_missing')).toBeNull();
    expect(await f.local.sessions.get('ses_missing')).toBeNull();
    // no URL can carry these: no session has them
    expect(await f.remote.sessions.get('..')).toBeNull();
    expect(await f.remote.sessions.get('\uD800')).toBeNull();
    expect(StrataError.is(await rejection(f.remote.sessions.get('')), 'INVALID_INPUT')).toBe(true);
  });

  it('refuses input that JSON would change, naming it, before sending anything', async () => {
    const session = await f.remote.sessions.create({ namespace: 'json' });
    const before = f.sent.length;
    const bad = [
      f.remote.append(session.id, { role: 'user', content: 'x', createdAt: Number.NaN }),
      f.remote.append(session.id, { role: 'user', content: 'x', createdAt: new Date(Number.NaN) }),
      f.remote.append(session.id, { role: 'user', content: 'x', metadata: { when: new Date(0) } }),
      f.remote.sessions.create({ namespace: 'json', metadata: { n: 1n } }),
      f.remote.search({ namespace: 'json', query: 'x', k: Number.POSITIVE_INFINITY }),
      f.remote.import({ sessions: [new Map()] }),
    ];
    const errors = (await Promise.all(bad.map(rejection))) as StrataError[];
    expect(errors.map((e) => e.code)).toEqual(bad.map(() => 'INVALID_INPUT'));
    expect(errors.map((e) => e.message.match(/\[0\]\.createdAt|metadata\.when|metadata\.n|\.k |sessions\[0\]/)?.[0])).toEqual([
      '[0].createdAt',
      '[0].createdAt',
      'metadata.when',
      'metadata.n',
      '.k ',
      'sessions[0]',
    ]);
    expect(f.sent.length).toBe(before);
    // a Date as createdAt is what the in-process memory takes too: sent as its epoch ms
    const [stored] = await f.remote.append(session.id, { role: 'user', content: 'dated', createdAt: new Date(Date.UTC(2026, 0, 5)) });
    expect(stored?.createdAt).toBe(Date.UTC(2026, 0, 5));
  });

  it('exports every format as the in-process memory writes it, and imports a bundle given as text', async () => {
    const session = await f.remote.sessions.create({ namespace: 'transfer', title: 'Notes' });
    await f.remote.append(session.id, [
      { role: 'user', content: 'I live in Lisbon.', createdAt: Date.UTC(2026, 0, 5) },
      { role: 'assistant', content: 'Noted.', createdAt: Date.UTC(2026, 0, 5, 0, 1) },
    ]);
    // settled first: a fact derived between the two reads would make them differ
    await f.remote.flush();
    for (const format of ['jsonl', 'markdown', 'text'] as const) expect(await f.remote.export(session.id, { format })).toBe(await f.local.export(session.id, { format }));
    const json = await f.remote.export(session.id, { format: 'json' });
    expect(JSON.parse(json).sessions[0].session.id).toBe(session.id);
    const before = await f.local.messages(session.id);
    expect((await f.remote.sessions.delete(session.id)).messages).toBe(2);
    expect(await f.remote.import(json)).toMatchObject({ sessions: 1, messages: 2 });
    expect((await f.remote.sessions.get(session.id))?.title).toBe('Notes');
    expect(await f.remote.messages(session.id)).toEqual(before);
    expect(StrataError.is(await rejection(f.remote.export(session.id, { format: 'pdf' as 'json' })), 'INVALID_INPUT')).toBe(true);
  });

  it('reports pending jobs and the server memory’s counters (stats as of the last pending), and flush progress up to done', async () => {
    expect(f.remote.stats()).toEqual({
      derivation: emptyDerivationStats(),
    });
    const session = await f.remote.sessions.create({ namespace: 'derive' });
    await f.remote.append(
      session.id,
      Array.from({ length: 40 }, (_, i) => ({ role: 'user' as const, content: `I planted ${i + 1} tomatoes in the garden.` })),
    );
    const events: { derivedTurns: number; totalTurns: number; done: boolean }[] = [];
    const report = await f.remote.flush({ onProgress: (p) => events.push(p), progressIntervalMs: 10 });
    expect(report).toMatchObject({ settled: true, pending: [], derivation: { failedTries: 0, degradedResults: 0 } });
    expect(Object.keys(report.derivation).sort()).toEqual(Object.keys(f.local.stats().derivation).sort());
    expect(events.at(-1)).toMatchObject({ done: true, pendingJobs: 0, failedJobs: 0 });
    expect(events.at(-1)!.derivedTurns).toBe(events.at(-1)!.totalTurns);
    expect(events.filter((e) => e.done)).toHaveLength(1);
    for (let i = 1; i < events.length; i++) expect(events[i]!.derivedTurns).toBeGreaterThanOrEqual(events[i - 1]!.derivedTurns);
    expect(await f.remote.pending()).toEqual(await f.local.pending());
    expect(f.remote.stats()).toEqual(f.local.stats());
    expect(f.remote.stats().derivation.results).toBeGreaterThan(0);
  });

  it('fails a flush whose listener throws once derivation has settled, and refuses bad flush options, as in process', async () => {
    const session = await f.remote.sessions.create({ namespace: 'listener' });
    await f.remote.append(session.id, { role: 'user', content: 'I planted tomatoes.' });
    const error = await rejection(
      f.remote.flush({
        onProgress: () => {
          throw new Error('listener broke');
        },
      }),
    );
    expect((error as Error).message).toBe('listener broke');
    expect(await f.local.pending()).toEqual([]);
    for (const options of [{ progressIntervalMs: 5 }, { onProgress: 'yes' }]) {
      const local = (await rejection(f.local.flush(options as never))) as StrataError;
      const remote = (await rejection(f.remote.flush(options as never))) as StrataError;
      expect([remote.code, remote.hint]).toEqual([local.code, local.hint]);
    }
  });

  it('reports token usage from the ledger, and the usage counters, as in process', async () => {
    const usage = await openRemoteFixture({ memory: { extractor: new ReportingExtractor() } });
    try {
      const { local, remote } = usage;
      const [mine, other] = [await remote.sessions.create({ namespace: 'tokens' }), await remote.sessions.create({ namespace: 'elsewhere' })];
      await remote.append(mine.id, { role: 'user', content: 'I planted tomatoes.' });
      await remote.append(other.id, { role: 'user', content: 'I planted beans.' });
      const report = await remote.flush();
      expect(Object.keys(report.derivation).sort()).toEqual(Object.keys(local.stats().derivation).sort());
      const filters = [{ namespace: 'tokens' }, { namespace: 'tokens', sessionId: mine.id }, { namespace: 'nobody' }, { namespace: 'tok\uD800ens' }];
      for (const filter of filters) expect(await remote.usage(filter), JSON.stringify(filter)).toEqual(await local.usage(filter));
      expect(await remote.usage({ namespace: 'tokens' })).toMatchObject({ jobsWithUsage: 1, total: REPORTED, byModel: { 'reporting-model': REPORTED }, bySession: { [mine.id]: REPORTED } });
      const refused = [
        { namespace: 'tokens', sessionId: other.id },
        { namespace: 'tokens', sessionId: '\uDC00' },
        { namespace: '\uD800', sessionId: mine.id },
        { namespace: '' },
        { namespace: 7 },
        {},
        null,
      ];
      for (const filter of refused) {
        const inProcess = (await rejection(local.usage(filter as never))) as StrataError;
        const overHttp = (await rejection(remote.usage(filter as never))) as StrataError;
        expect(StrataError.is(overHttp, inProcess.code), `${JSON.stringify(filter)}: ${String(overHttp)}`).toBe(true);
        if (inProcess.code === 'NOT_FOUND') expect([overHttp.message, overHttp.hint]).toEqual([inProcess.message, inProcess.hint]);
      }
      await remote.pending();
      expect(remote.stats()).toEqual(local.stats());
      expect(remote.stats().derivation).toMatchObject({ inputTokens: 2 * REPORTED.inputTokens, byNamespace: { tokens: REPORTED, elsewhere: REPORTED } });
    } finally {
      await usage.close();
    }
  });

  it('close() makes every later call throw CLOSED, without a request', async () => {
    const session = await f.remote.sessions.create({ namespace: 'closing' });
    await f.remote.close();
    const before = f.sent.length;
    const calls = [f.remote.sessions.list(), f.remote.sessions.get(session.id), f.remote.append(session.id, { role: 'user', content: 'late' }), f.remote.flush(), f.remote.pending()];
    for (const error of await Promise.all(calls.map(rejection))) {
      expect(StrataError.is(error, 'CLOSED')).toBe(true);
      expect((error as StrataError).hint).toMatch(/createRemoteMemory/);
    }
    expect(f.sent.length).toBe(before);
    // the server's memory stays open
    expect(await f.local.sessions.get(session.id)).not.toBeNull();
  });
});

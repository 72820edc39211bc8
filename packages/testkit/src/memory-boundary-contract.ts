// Kept in one file: one contract suite (what a careless or hostile caller sends through the Memory API), its cases side by side.
import { afterEach, describe, expect, it } from 'vitest';
import { StrataError, createMemory, type MemoryApi, type PolicyInput, type SessionStore, type StrataErrorCode } from '@strata/core';

/** A memory the suite runs a case on, the store under it, and how to close both (and remove what they left). */
export interface OpenedMemory {
  memory: MemoryApi;
  /** The store the memory writes to: one case writes a row into it directly, as an older version would have. */
  store: SessionStore;
  /** Closes the memory and the store, then removes what they left behind (temp files, a server). */
  close(): Promise<void>;
}

/**
 * How the suite gets a memory: either a store of the adapter under test (the suite calls
 * `createMemory` over it), or `open`, which builds the whole memory (e.g. a remote one over a
 * server on a fresh store) with the policy it is given.
 */
export type MemoryBoundaryContractOptions =
  | {
      /** A fresh, empty store of the adapter under test (it must also be a TopicStore and LexicalIndex, as the bundled stores are). */
      createStore: () => Promise<SessionStore>;
      /** Removes what the store left behind (temp files), after it is closed. */
      destroy?: (store: SessionStore) => Promise<void>;
    }
  | {
      /** A memory with this policy over a fresh, empty store; called once per case, and once more for each second memory a case needs. */
      open: (policy: PolicyInput) => Promise<OpenedMemory>;
    };

/** `open` of a suite given a store factory: `createMemory` over a fresh store, closed and destroyed together. */
function openerOf(options: MemoryBoundaryContractOptions): (policy: PolicyInput) => Promise<OpenedMemory> {
  if ('open' in options) return options.open;
  const { createStore, destroy } = options;
  return async (policy) => {
    const store = await createStore();
    const memory = await createMemory({ store, policy });
    return {
      memory,
      store,
      close: async () => {
        await memory.close();
        await destroy?.(store);
      },
    };
  };
}

/** Small limits, so that going over them costs the suite little. */
const LIMITS = { messageBytes: 4_096, queryBytes: 512, metadataBytes: 1_024, factChars: 300 } as const;

async function expectRejected(call: Promise<unknown>, code: StrataErrorCode, message?: RegExp): Promise<StrataError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(StrataError.is(error, code), `expected StrataError ${code}, got ${String(error)}`).toBe(true);
  const strata = error as StrataError;
  expect(strata.hint.length).toBeGreaterThan(10);
  if (message) expect(strata.message).toMatch(message);
  return strata;
}

/**
 * What a careless or hostile caller sends through the public Memory API, on one store: every
 * rejection is a StrataError with a code and a hint and writes nothing, a record the store
 * already holds can never make a read of its namespace throw, and the answers are the same on
 * every store (names are exact, metadata is plain JSON, text is well-formed), and the same in
 * process and over HTTP (a remote memory's `open`).
 */
export function describeMemoryBoundaryContract(name: string, options: MemoryBoundaryContractOptions): void {
  describe(`${name}: input at the Memory boundary`, () => {
    const openWith = openerOf(options);
    let opened: OpenedMemory | undefined;
    let store: SessionStore | undefined;

    const open = async (policy: PolicyInput = {}): Promise<MemoryApi> => {
      opened = await openWith({ limits: LIMITS, ...policy });
      store = opened.store;
      return opened.memory;
    };

    afterEach(async () => {
      await opened?.close();
      opened = undefined;
      store = undefined;
    });

    it('rejects times no Date can hold, writes nothing, and the namespace stays readable', async () => {
      const m = await open();
      const session = await m.sessions.create({ namespace: 'times' });
      await m.append(session.id, { role: 'user', content: 'I moved to Lisbon last spring.' });
      for (const createdAt of [9e15, 1e300, -1, Number.NaN, Number.POSITIVE_INFINITY, 'not a date', '1969-12-31T00:00:00Z']) {
        await expectRejected(
          m.append(session.id, [
            { role: 'user', content: 'fine' },
            { role: 'user', content: 'bad time', createdAt },
          ]),
          'INVALID_INPUT',
          /createdAt/,
        );
      }
      // the whole call is rejected: not even the valid message before the bad one is stored
      expect((await m.messages(session.id)).map((x) => x.content)).toEqual(['I moved to Lisbon last spring.']);
      await m.append(session.id, { role: 'user', content: 'latest time a Date holds', createdAt: 8.64e15 });
      await m.flush();
      const context = await m.getContext(session.id, { query: 'Lisbon' });
      expect(context.messages.length).toBeGreaterThan(0);
      const bundle = await m.export(session.id, { format: 'markdown' });
      expect(bundle).toContain('+275760-09-13');
    });

    it('keeps namespaces exact: whitespace, invisible characters and non-NFC names are rejected, never merged', async () => {
      const m = await open();
      const alice = await m.sessions.create({ namespace: 'alice' });
      await m.append(alice.id, { role: 'user', content: 'My name is Alice.' });
      for (const namespace of ['alice\u00A0', ' alice', 'alice ', 'ali\u200Bce', 'al\u0000ice', 'ali\tce', 'cafe\u0301', 'ali\u2028ce', '\uD800alice', '']) {
        const error = await expectRejected(m.sessions.create({ namespace }), 'INVALID_INPUT', /namespace/);
        expect(error.hint).toMatch(/exactly/);
      }
      expect((await m.sessions.list()).map((s) => s.namespace)).toEqual(['alice']);
      // a lookup is exact too: the look-alike finds nothing instead of alice's data
      expect(await m.sessions.list({ namespace: 'alice\u00A0' })).toEqual([]);
      expect(await m.search({ namespace: 'alice\u00A0', query: 'Alice' })).toEqual([]);
      // names in NFC with spaces inside and other scripts are fine
      for (const namespace of ['café', 'team blue', '東京', 'user:42/prod']) expect((await m.sessions.create({ namespace })).namespace).toBe(namespace);
      await expectRejected(m.sessions.create({ namespace: 'ok', id: ' padded-id' }), 'INVALID_INPUT', /id/);
      await expectRejected(m.append(alice.id, { role: 'user', content: 'x', id: 'id\u200B' }), 'INVALID_INPUT', /id/);
    });

    it('enforces the size limits with an error naming the limit, never by cutting', async () => {
      const m = await open();
      const session = await m.sessions.create({ namespace: 'sizes' });
      const atLimit = 'a'.repeat(LIMITS.messageBytes);
      const [stored] = await m.append(session.id, { role: 'user', content: atLimit });
      expect(stored?.content).toBe(atLimit);
      // bytes, not characters: 1,366 three-byte characters are over 4,096 bytes
      await expectRejected(m.append(session.id, { role: 'user', content: '€'.repeat(1_366) }), 'INVALID_INPUT', /messageBytes|4096/);
      await expectRejected(m.append(session.id, { role: 'user', content: `${atLimit}b` }), 'INVALID_INPUT', /4096/);
      await expectRejected(m.getContext(session.id, { query: 'q'.repeat(LIMITS.queryBytes + 1) }), 'INVALID_INPUT', /query/);
      await expectRejected(m.search({ namespace: 'sizes', query: 'q'.repeat(LIMITS.queryBytes + 1) }), 'INVALID_INPUT', /query/);
      await expectRejected(m.append(session.id, { role: 'user', content: 'meta', metadata: { blob: 'x'.repeat(LIMITS.metadataBytes) } }), 'INVALID_INPUT', /metadata/);
      await expectRejected(m.sessions.create({ namespace: 'sizes', metadata: { blob: 'x'.repeat(LIMITS.metadataBytes) } }), 'INVALID_INPUT', /metadata/);
      expect(await m.messages(session.id)).toHaveLength(1);
    });

    it('accepts only plain JSON metadata, the same on every store', async () => {
      const m = await open();
      const session = await m.sessions.create({ namespace: 'meta' });
      const cyclic: Record<string, unknown> = { a: 1 };
      cyclic.self = cyclic;
      const bad: unknown[] = [
        { n: 10n },
        cyclic,
        { f: () => 1 },
        { when: new Date(0) },
        { map: new Map() },
        { n: Number.NaN },
        { list: [undefined] },
        { s: '\uDC00' },
        JSON.parse('{"nested": {"__proto__": {"polluted": true}}}'),
      ];
      for (const metadata of bad) {
        await expectRejected(m.append(session.id, { role: 'user', content: 'x', metadata: metadata as Record<string, unknown> }), 'INVALID_INPUT', /metadata/);
        await expectRejected(m.sessions.create({ namespace: 'meta', metadata: metadata as Record<string, unknown> }), 'INVALID_INPUT', /metadata/);
      }
      const [stored] = await m.append(session.id, { role: 'user', content: 'ok', metadata: { nested: { list: [1, 'two', null, true] }, gone: undefined } });
      const expected = { nested: { list: [1, 'two', null, true] } };
      expect(stored?.metadata).toEqual(expected);
      expect((await m.messages(session.id))[0]?.metadata).toEqual(expected);
      expect(Object.keys((await m.messages(session.id))[0]?.metadata ?? {})).toEqual(['nested']);
    });

    it('rejects lone surrogates in text and keeps every other character exactly', async () => {
      const m = await open();
      const session = await m.sessions.create({ namespace: 'unicode' });
      await expectRejected(m.append(session.id, { role: 'user', content: 'broken \uD83D text' }), 'INVALID_INPUT', /surrogate/);
      await expectRejected(m.append(session.id, { role: 'user', content: 'x', name: '\uDE00' }), 'INVALID_INPUT', /surrogate/);
      const text = 'emoji 🤖 combining é, RTL مرحبا, NUL \u0000 and zero-width \u200B kept';
      await m.append(session.id, { role: 'user', content: text });
      expect((await m.messages(session.id)).map((x) => x.content)).toEqual([text]);
    });

    it('validates a rename, and keeps the old title when it is rejected', async () => {
      const m = await open();
      const session = await m.sessions.create({ namespace: 'titles', title: 'Trip planning' });
      for (const title of [42, 'x'.repeat(501), 'two\nlines', '\uD800', undefined]) {
        await expectRejected(m.sessions.rename(session.id, title as string), 'INVALID_INPUT', /title/);
      }
      expect((await m.sessions.get(session.id))?.title).toBe('Trip planning');
      expect((await m.sessions.rename(session.id, 'Trip to Porto')).title).toBe('Trip to Porto');
      await expectRejected(m.sessions.rename('ses_missing', 'x'), 'NOT_FOUND');
    });

    it('forget of something that does not exist is NOT_FOUND and forgets nothing', async () => {
      const m = await open();
      const session = await m.sessions.create({ namespace: 'forget' });
      const [kept] = await m.append(session.id, { role: 'user', content: 'keep me' });
      await expectRejected(m.forget({ messageIds: ['msg_missing'] }), 'NOT_FOUND', /msg_missing/);
      await expectRejected(m.forget({ messageIds: [kept?.id ?? '', 'msg_missing'] }), 'NOT_FOUND', /msg_missing/);
      await expectRejected(m.forget({ sessionId: 'ses_missing' }), 'NOT_FOUND');
      await expectRejected(m.sessions.delete('ses_missing'), 'NOT_FOUND');
      await expectRejected(m.forget({ namespace: 'no-such-namespace' }), 'NOT_FOUND');
      expect((await m.messages(session.id)).map((x) => x.content)).toEqual(['keep me']);
      expect((await m.forget({ messageIds: [kept?.id ?? ''] })).messages).toBe(1);
    });

    it('stores a long message whole and keeps it out of fact text; the context still answers', async () => {
      const m = await open();
      const session = await m.sessions.create({ namespace: 'long' });
      await m.append(session.id, { role: 'user', content: 'I adopted a cat called Miso last week.' });
      const long = Array.from({ length: 45 }, (_, i) => `Line ${i} of my pasted notes about the quarterly budget review without any full stop`).join(' ');
      expect(long.length).toBeGreaterThan(LIMITS.factChars * 10);
      await m.append(session.id, { role: 'user', content: long });
      await m.append(session.id, { role: 'user', content: 'Anyway, I also started learning the cello.' });
      await m.flush();
      expect((await m.messages(session.id))[1]?.content).toBe(long);
      const facts = await m.facts.list({ namespace: 'long' });
      expect(facts.length).toBeGreaterThan(0);
      for (const fact of facts) expect(fact.text.length).toBeLessThanOrEqual(LIMITS.factChars);
      const context = await m.getContext(session.id, { query: 'What is the cat called?', budgetTokens: 400 });
      expect(context.manifest.some((item) => item.included)).toBe(true);
    });

    it('reports usage of a namespace by its exact name: unknown is all zeros, another namespace’s session is NOT_FOUND', async () => {
      const m = await open();
      const mine = await m.sessions.create({ namespace: 'usage' });
      const theirs = await m.sessions.create({ namespace: 'usage-other' });
      await m.append(mine.id, { role: 'user', content: 'I adopted a cat called Miso.' });
      await m.append(theirs.id, { role: 'user', content: 'I live in Oslo.' });
      await m.flush();
      const zeros = { jobs: 0, jobsWithUsage: 0, total: { inputTokens: 0, outputTokens: 0, calls: 0 }, byJobType: {}, byModel: {}, bySession: {} };
      // look-alikes of 'usage' are other namespaces, with nothing in them
      for (const namespace of ['nobody', 'usage\u00A0', 'Usage', 'usage\uD800']) expect(await m.usage({ namespace })).toEqual({ namespace, ...zeros });
      // the offline models report no usage: the jobs are counted, the tokens are zero
      const own = await m.usage({ namespace: 'usage', sessionId: mine.id });
      expect(own).toMatchObject({ namespace: 'usage', sessionId: mine.id, jobsWithUsage: 0, total: zeros.total, byModel: {}, bySession: {} });
      expect(own.jobs).toBeGreaterThan(0);
      expect(await m.usage({ namespace: 'usage' })).toEqual({ namespace: 'usage', ...zeros, jobs: own.jobs });
      // another namespace's session answers what a missing one answers, with nothing of it
      const foreign = await expectRejected(m.usage({ namespace: 'usage', sessionId: theirs.id }), 'NOT_FOUND');
      const missing = await expectRejected(m.usage({ namespace: 'usage', sessionId: 'ses_missing' }), 'NOT_FOUND');
      expect(foreign.message.replace(theirs.id, 'ses_missing')).toBe(missing.message);
      expect(foreign.message).not.toContain('usage-other');
      for (const sessionId of [' padded', '\uDC00']) await expectRejected(m.usage({ namespace: 'usage', sessionId }), 'NOT_FOUND');
      for (const filter of [{ namespace: '' }, { namespace: 42 }, {}, null, 'usage', { namespace: 'usage', sessionId: '' }, { namespace: 'n'.repeat(1_025) }]) {
        await expectRejected(m.usage(filter as never), 'INVALID_INPUT');
      }
    });

    /** A second memory on a fresh store of the same adapter, closed (and destroyed) by `run`'s end. */
    async function withSecond<T>(run: (second: MemoryApi) => Promise<T>): Promise<T> {
      const second = await openWith({ limits: LIMITS });
      try {
        return await run(second.memory);
      } finally {
        await second.close();
      }
    }

    /** An exported bundle as parsed JSON, down to the records the tests below read and spoil. */
    type BundleJson = { sessions: { messages: Record<string, unknown>[]; summaries: Record<string, unknown>[] }[]; facts: Record<string, unknown>[] };

    async function exported(m: MemoryApi, namespace: string, lines: string[], at = Date.UTC(2026, 0, 5)): Promise<{ sessionId: string; bundle: BundleJson }> {
      const session = await m.sessions.create({ namespace });
      await m.append(
        session.id,
        lines.map((content, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content, createdAt: at + i * 60_000 })),
      );
      await m.flush();
      return { sessionId: session.id, bundle: JSON.parse(await m.export(session.id, { format: 'json' })) as BundleJson };
    }

    // long enough for a batch summary to leave the immediate tier
    const CHAT = [
      'I live in Lisbon now.',
      'Nice, Lisbon is sunny.',
      'My sister Lena is a nurse.',
      'That sounds demanding.',
      'I adopted a cat called Miso.',
      'Cute name!',
      ...Array.from({ length: 26 }, (_, i) => `We went over the garden plan, part ${i + 1}.`),
    ];

    it('checks a whole bundle before writing: a bad record is named by its path and nothing is written', async () => {
      const m = await open();
      const { bundle } = await exported(m, 'source', CHAT);
      await withSecond(async (target) => {
        const variants: [string, (b: BundleJson) => void, RegExp][] = [
          ['a time no Date holds', (b) => (b.sessions[0]!.messages[3]!.createdAt = 9e15), /sessions\[0\]\.messages\[3\]\.createdAt|messages.*3.*createdAt/],
          ['a summary without provenance', (b) => delete b.sessions[0]!.summaries[0]?.sourceMessageIds, /summaries/],
          ['a fact of another namespace', (b) => (b.facts[0]!.namespace = 'victim'), /facts\[0\]\.namespace/],
          ['a message of another namespace', (b) => (b.sessions[0]!.messages[1]!.namespace = 'victim'), /messages\[1\]\.namespace/],
          ['a message of another session', (b) => (b.sessions[0]!.messages[2]!.sessionId = 'ses_elsewhere'), /messages\[2\]\.sessionId/],
          ['a lone surrogate', (b) => (b.sessions[0]!.messages[0]!.content = 'x\uD800'), /surrogate/],
          ['metadata that is not an object', (b) => (b.sessions[0]!.messages[0]!.metadata = 'oops'), /metadata/],
        ];
        expect(bundle.sessions[0]!.summaries.length).toBeGreaterThan(0);
        for (const [what, spoil, path] of variants) {
          const copy = JSON.parse(JSON.stringify(bundle)) as BundleJson;
          spoil(copy);
          const error = await expectRejected(target.import(copy), 'INVALID_INPUT');
          expect(error.message, what).toMatch(path);
        }
        expect(await target.sessions.list()).toEqual([]);
        expect(await target.facts.list({ namespace: 'source', includeSuperseded: true })).toEqual([]);
        expect(await target.facts.list({ namespace: 'victim', includeSuperseded: true })).toEqual([]);
        // the untouched bundle imports
        expect((await target.import(bundle)).messages).toBe(CHAT.length);
      });
    });

    it('imports a backup beside a current fact of the same slot (the newer stays current), merges and re-targets', async () => {
      const m = await open();
      const { bundle } = await exported(m, 'home', CHAT, Date.UTC(2026, 0, 5));
      await withSecond(async (target) => {
        const moved = await target.sessions.create({ namespace: 'home' });
        await target.append(moved.id, { role: 'user', content: 'I live in Oslo now.', createdAt: Date.UTC(2026, 5, 1) });
        await target.flush();
        const report = await target.import(bundle);
        expect(report.superseded).toBeGreaterThanOrEqual(1);
        const livesIn = (await target.facts.list({ namespace: 'home', includeSuperseded: true })).filter((f) => f.predicate === 'lives_in');
        expect(livesIn.filter((f) => f.validTo === undefined).map((f) => f.object)).toEqual(['Oslo']);
        expect(livesIn.map((f) => f.object).sort()).toEqual(['Lisbon', 'Oslo']);
        // again: CONFLICT without merge, nothing doubled with it
        await expectRejected(target.import(bundle), 'CONFLICT');
        const merged = await target.import(bundle, { merge: true });
        expect(merged.skipped.sessions).toBe(1);
        expect(merged.sessions).toBe(0);
        expect(await target.sessions.list({ namespace: 'home' })).toHaveLength(2);
      });
      await withSecond(async (target) => {
        const report = await target.import(bundle, { namespace: 'copy' });
        expect(report.sessions).toBe(1);
        expect(await target.sessions.list({ namespace: 'home' })).toEqual([]);
        expect((await target.sessions.list({ namespace: 'copy' })).map((s) => s.namespace)).toEqual(['copy']);
        expect((await target.facts.list({ namespace: 'copy' })).length).toBeGreaterThan(0);
        await expectRejected(target.import(bundle, { namespace: 'bad\u00A0' }), 'INVALID_INPUT', /namespace/);
        // a bundle of facts alone (no sessions) belongs to its facts' namespace
        const facts = (bundle.facts as Record<string, unknown>[]).slice(0, 2).map((f, i) => ({ ...f, id: `fact_only_${i}`, namespace: 'facts-only' }));
        expect((await target.import({ ...bundle, sessions: [], facts })).facts).toBe(facts.length);
        expect((await target.facts.list({ namespace: 'facts-only', includeSuperseded: true })).map((f) => f.id).sort()).toEqual(facts.map((f) => f.id));
        await expectRejected(target.import({ ...bundle, sessions: [], facts: [facts[0], { ...facts[1], namespace: 'other' }] }), 'INVALID_INPUT', /facts\[1\]\.namespace/);
      });
    });

    it('leaves a stored record that cannot be read out of a context, reports it, and reads the rest', async () => {
      const m = await open();
      const session = await m.sessions.create({ namespace: 'damaged' });
      await m.append(session.id, { role: 'user', content: 'My sister Lena lives in Seoul.' });
      // a row written by an older version, bypassing today's checks
      const receipt = await store?.write({
        ops: [{ type: 'appendMessages', sessionId: session.id, messages: [{ id: 'msg_old_row', role: 'user', content: 'Lena visited Seoul in spring.', createdAt: 9e15, metadata: {} }] }],
      });
      expect(receipt?.messages).toHaveLength(1);
      const context = await m.getContext(session.id, { query: 'Where does Lena live?' });
      const entry = context.manifest.find((item) => item.id === 'msg_old_row');
      expect(entry?.included).toBe(false);
      expect(entry?.reason).toMatch(/skipped: .*createdAt/);
      expect(context.manifest.some((item) => item.included)).toBe(true);
      expect(await m.export(session.id, { format: 'markdown' })).toContain('invalid time (9000000000000000)');
    });
  });
}

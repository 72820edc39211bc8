import { describe, expect, it } from 'vitest';
import { isMemoryMessage, type StoredMessage } from '../src/domain/message.js';
import { StrataError } from '../src/errors/strata-error.js';
import { createMemory } from '../src/create-memory.js';
import { createInMemorySessionStore } from '../src/adapters/in-memory/in-memory-session-store.js';
import type { LexicalIndex } from '../src/ports/lexical-index.js';
import type { SessionStore } from '../src/ports/session-store.js';
import type { TopicStore } from '../src/ports/topic-store.js';
import { createTestMemory } from './helpers.js';

async function expectStrataError(promise: Promise<unknown>, code: string, message?: RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(StrataError.is(error), `expected a StrataError, got ${String(error)}`).toBe(true);
  const e = error as StrataError;
  expect(e.code).toBe(code);
  expect(e.hint.length).toBeGreaterThan(10);
  if (message) expect(e.message).toMatch(message);
}

describe('sessions', () => {
  it('creates, gets, lists by namespace and recency, renames, deletes', async () => {
    const { memory } = await createTestMemory();
    const a = await memory.sessions.create({ namespace: 'u1', title: 'first', metadata: { channel: 'web' } });
    const b = await memory.sessions.create({ namespace: 'u1' });
    await memory.sessions.create({ namespace: 'u2' });
    expect(await memory.sessions.get(a.id)).toMatchObject({ id: a.id, namespace: 'u1', title: 'first', metadata: { channel: 'web' }, lastSeq: 0 });
    expect((await memory.sessions.list({ namespace: 'u1' })).map((s) => s.id)).toEqual([b.id, a.id]);
    expect(await memory.sessions.list({ limit: 1 })).toHaveLength(1);
    expect((await memory.sessions.rename(a.id, 'renamed')).title).toBe('renamed');
    await memory.sessions.delete(b.id);
    expect(await memory.sessions.get(b.id)).toBeNull();
    await memory.close();
  });

  it('prunes sessions not updated for N days, with everything derived from them', async () => {
    const { memory, store, clock } = await createTestMemory();
    clock.set(Date.UTC(2026, 0, 1));
    const old = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(old.id, { role: 'user', content: 'I live in Oslo.' });
    clock.set(Date.UTC(2026, 0, 25));
    const recent = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(recent.id, { role: 'user', content: 'I love chess.' });
    clock.set(Date.UTC(2026, 0, 31));
    expect(await memory.sessions.prune({ olderThanDays: 10 })).toEqual({ sessions: [old.id] });
    expect((await memory.sessions.list()).map((s) => s.id)).toEqual([recent.id]);
    expect((await memory.facts.list({ namespace: 'u1' })).map((f) => f.object)).toEqual(['loves']);
    expect(await store.messages({ sessionId: old.id })).toEqual([]);
    await expectStrataError(memory.sessions.prune({ olderThanDays: 0 }), 'INVALID_INPUT');
    await memory.close();
  });

  it('rejects bad input with a typed error and a hint', async () => {
    const { memory } = await createTestMemory();
    await expectStrataError(memory.sessions.create({ namespace: '' }), 'INVALID_INPUT', /namespace/);
    await expectStrataError(memory.append('', { role: 'user', content: 'hi' }), 'INVALID_INPUT', /sessionId/);
    await expectStrataError(memory.append('nope', { role: 'user', content: 'hi' }), 'NOT_FOUND');
    await expectStrataError(memory.getContext('nope'), 'NOT_FOUND');
    const s = await memory.sessions.create({ namespace: 'u1', id: 'fixed' });
    await expectStrataError(memory.sessions.create({ namespace: 'u1', id: 'fixed' }), 'CONFLICT');
    await expectStrataError(memory.append(s.id, { role: 'robot', content: 'x' } as never), 'INVALID_INPUT', /role/);
    await expectStrataError(memory.append(s.id, { role: 'tool', content: 'x' }), 'INVALID_INPUT', /toolCallId/);
    await expectStrataError(memory.getContext(s.id, { budgetTokens: -5 }), 'INVALID_INPUT');
    await expectStrataError(memory.search({ namespace: 'u1', query: 'x', k: 0 }), 'INVALID_INPUT');
    await expectStrataError(memory.forget({} as never), 'INVALID_INPUT');
    await memory.close();
  });

  it('rejects malformed options with CONFIG_INVALID', async () => {
    await expectStrataError(createMemory({ policy: { immediate: { maxMessages: 0 } } }), 'CONFIG_INVALID', /maxMessages/);
    await expectStrataError(createMemory({ store: {} as never }), 'CONFIG_INVALID', /store/);
  });

  it('searches the `lexical` index when given, else the store, which must then implement it', async () => {
    const store = await createInMemorySessionStore();
    // The same store seen without its LexicalIndex side.
    const bare: SessionStore & TopicStore = new Proxy(store, { get: (target, key, receiver) => (key === 'search' ? undefined : Reflect.get(target, key, receiver)) });
    await expectStrataError(createMemory({ store: bare }), 'CONFIG_INVALID', /LexicalIndex/);
    const queries: string[] = [];
    const lexical: LexicalIndex = {
      search: (query) => {
        queries.push(query.text);
        return store.search(query);
      },
    };
    const { memory } = await createTestMemory({ store: bare, lexical });
    const s = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(s.id, { role: 'user', content: 'We adopted a greyhound called Pixel.' });
    const hits = await memory.search({ namespace: 'u1', query: 'greyhound', k: 3 });
    expect(hits.map((hit) => hit.text)).toContain('We adopted a greyhound called Pixel.');
    expect(queries).toContain('greyhound');
    await memory.close();
  });
});

describe('append', () => {
  it('keeps caller ids and times and assigns seq per session', async () => {
    const { memory } = await createTestMemory();
    const s = await memory.sessions.create({ namespace: 'u1' });
    const stored = await memory.append(s.id, [
      { role: 'user', content: 'hello', id: 'm-1', createdAt: '2026-01-02T03:04:05Z', metadata: { lang: 'en' } },
      { role: 'assistant', content: 'hi there' },
    ]);
    expect(stored.map((m) => [m.id, m.seq])).toEqual([
      ['m-1', 1],
      [stored[1]!.id, 2],
    ]);
    expect(stored[0]).toMatchObject({ createdAt: Date.parse('2026-01-02T03:04:05Z'), metadata: { lang: 'en' }, sessionId: s.id, namespace: 'u1' });
    expect((await memory.append(s.id, { role: 'user', content: 'again' }))[0]?.seq).toBe(3);
    expect((await memory.messages(s.id)).map((m) => m.seq)).toEqual([1, 2, 3]);
    expect((await memory.messages(s.id, { last: 2 })).map((m) => m.content)).toEqual(['hi there', 'again']);
    expect((await memory.messages(s.id, { fromSeq: 3 })).map((m) => m.id)).toEqual([(await memory.messages(s.id))[2]!.id]);
    await expectStrataError(memory.messages('nope'), 'NOT_FOUND');
    await memory.close();
  });

  it('writes nothing when any message of a batch is invalid or conflicts', async () => {
    const { memory, store } = await createTestMemory();
    const s = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(s.id, { role: 'user', content: 'first', id: 'dup' });
    await expectStrataError(
      memory.append(s.id, [
        { role: 'user', content: 'ok' },
        { role: 'user', content: 'x', id: 'dup' },
      ]),
      'CONFLICT',
      /dup/,
    );
    await expectStrataError(memory.append(s.id, [{ role: 'user', content: 'ok' }, { role: 'user', content: 42 } as never]), 'INVALID_INPUT');
    expect((await store.messages({ sessionId: s.id })).map((m) => m.content)).toEqual(['first']);
    await memory.close();
  });

  it('returns tool calls and tool results in the context as stored, the app system turn among them', async () => {
    const { memory } = await createTestMemory();
    const s = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(s.id, [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'weather', args: { city: 'Oslo' } }] },
      { role: 'tool', content: '{"temp": -3}', toolCallId: 'call_1', name: 'weather' },
    ]);
    const { messages } = await memory.getContext(s.id, { budgetTokens: 1000 });
    const turns = messages.filter((m): m is StoredMessage => !isMemoryMessage(m));
    expect(turns.find((m) => m.role === 'assistant')?.toolCalls).toEqual([{ id: 'call_1', name: 'weather', args: { city: 'Oslo' } }]);
    expect(turns.find((m) => m.role === 'tool')?.toolCallId).toBe('call_1');
    expect(turns.some((m) => m.role === 'system' && m.content === 'You are helpful.')).toBe(true);
    await memory.close();
  });
});

describe('getContext', () => {
  it('assembles synopsis/summaries, facts and recalled extracts before the recent turns, with a manifest', async () => {
    const { memory } = await createTestMemory();
    const old = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(old.id, [
      { role: 'user', content: 'My sister Anna is a marine biologist in Lisbon.' },
      { role: 'assistant', content: 'That sounds like a fascinating job.' },
    ]);
    await memory.append(old.id, { role: 'user', content: 'I live in Porto.' });
    const s = await memory.sessions.create({ namespace: 'u1' });
    for (let i = 0; i < 12; i++) await memory.append(s.id, { role: i % 2 ? 'assistant' : 'user', content: `Small talk number ${i} about gardening tomatoes.` });
    const ctx = await memory.getContext(s.id, { query: 'What does Anna do in Lisbon? Where do I live?', budgetTokens: 1500 });
    const system = ctx.messages[0]!;
    expect(system).toMatchObject({ role: 'system', memory: true });
    const text = system.content;
    expect(text).toMatch(/Known facts:[\s\S]*User lives in Porto/);
    expect(text).toMatch(/Recalled from earlier conversations:[\s\S]*marine biologist/);
    expect(text).toMatch(/Conversation so far \(summarized\):/);
    expect(text.indexOf('Conversation so far')).toBeLessThan(text.indexOf('Known facts'));
    expect(text.indexOf('Known facts')).toBeLessThan(text.indexOf('Recalled'));
    const tiers = new Set(ctx.manifest.map((m) => m.tier));
    expect([...tiers].sort()).toEqual(['immediate', 'long-term', 'session', 'working']);
    for (const item of ctx.manifest) {
      expect(item.tokens).toBeGreaterThan(0);
      expect(item.reason.length).toBeGreaterThan(3);
      expect(item.sourceMessageIds.length).toBeGreaterThan(0);
    }
    expect(ctx.messages.at(-1)?.content).toBe('Small talk number 11 about gardening tomatoes.');
    expect(ctx.tokens).toBeLessThanOrEqual(1500);
    await memory.close();
  });

  it('cuts to the budget and says so in the manifest', async () => {
    const { memory } = await createTestMemory({ policy: { immediate: { maxMessages: 50 } } });
    const s = await memory.sessions.create({ namespace: 'u1' });
    for (let i = 0; i < 20; i++) await memory.append(s.id, { role: 'user', content: `Message ${i} with some padding words to cost tokens.` });
    const ctx = await memory.getContext(s.id, { budgetTokens: 60 });
    expect(ctx.tokens).toBeLessThanOrEqual(60);
    const cut = ctx.manifest.filter((m) => !m.included);
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.every((m) => /budget/.test(m.reason))).toBe(true);
    const kept = ctx.manifest.filter((m) => m.included && m.tier === 'immediate');
    expect(ctx.messages.at(-1)?.content).toBe('Message 19 with some padding words to cost tokens.');
    expect(kept.length).toBe(ctx.messages.length);
    await memory.close();
  });
});

describe('search', () => {
  it('finds turns, summaries and facts in the namespace, best first, filtered by kind', async () => {
    const { memory } = await createTestMemory();
    const s = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(s.id, { role: 'user', content: 'I love jazz and I play the saxophone on weekends.' });
    const all = await memory.search({ namespace: 'u1', query: 'jazz saxophone', k: 5 });
    expect(all[0]?.kind).toBeDefined();
    expect(all.map((h) => h.kind)).toContain('turn');
    expect(all.map((h) => h.kind)).toContain('fact');
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score).toBeGreaterThanOrEqual(all[i]!.score);
    const facts = await memory.search({ namespace: 'u1', query: 'jazz', k: 5, kinds: ['fact'] });
    expect(facts.every((h) => h.kind === 'fact')).toBe(true);
    expect(facts[0]?.text).toMatch(/jazz/i);
    expect(await memory.search({ namespace: 'other', query: 'jazz', k: 5 })).toEqual([]);
    await memory.close();
  });
});

describe('export and import', () => {
  it('round-trips every tier with provenance into an empty memory (json bundle)', async () => {
    const { memory, store } = await createTestMemory();
    const s = await memory.sessions.create({ namespace: 'u1', title: 'Trip planning' });
    await memory.append(s.id, { role: 'user', content: 'I live in Paris.' });
    for (let i = 0; i < 12; i++) await memory.append(s.id, { role: i % 2 ? 'assistant' : 'user', content: `Planning message ${i} about the Tokyo trip.` });
    await memory.append(s.id, { role: 'user', content: 'I moved to Berlin.' });
    const bundle = await memory.export(s.id, { format: 'json' });

    const target = await createTestMemory();
    const report = await target.memory.import(bundle);
    expect(report).toMatchObject({ sessions: 1, messages: 14 });
    expect(report.summaries).toBeGreaterThan(0);
    for (const read of [
      (st: typeof store) => st.sessions({ ids: [s.id] }),
      (st: typeof store) => st.messages({ sessionId: s.id }),
      (st: typeof store) => st.summaries({ sessionId: s.id }),
      (st: typeof store) => st.jobs({ sessionId: s.id }),
      (st: typeof store) => st.facts({ namespace: 'u1', includeSuperseded: true }),
    ]) {
      expect(await read(target.store)).toEqual(await read(store));
    }
    const withoutTime = (text: string) => ({ ...(JSON.parse(text) as object), exportedAt: null });
    expect(withoutTime(await target.memory.export(s.id, { format: 'json' }))).toEqual(withoutTime(bundle));
    const hits = await target.memory.search({ namespace: 'u1', query: 'Tokyo trip', k: 3 });
    expect(hits.length).toBeGreaterThan(0);
    await expectStrataError(target.memory.import(bundle), 'CONFLICT');
    await expectStrataError(target.memory.import('{not json'), 'INVALID_INPUT');
    await expectStrataError(target.memory.import({ format: 'other' }), 'INVALID_INPUT');
    await memory.close();
    await target.memory.close();
  });

  it('renders jsonl, markdown and text', async () => {
    const { memory } = await createTestMemory();
    const s = await memory.sessions.create({ namespace: 'u1', title: 'Chat' });
    await memory.append(s.id, [
      { role: 'user', content: 'Hi, I live in Oslo.', createdAt: '2026-11-20T10:00:00Z' },
      { role: 'assistant', content: 'Hello!', createdAt: '2026-11-20T10:00:05Z' },
    ]);
    const jsonl = (await memory.export(s.id, { format: 'jsonl' }))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jsonl.map((l) => [l.role, l.content, l.seq])).toEqual([
      ['user', 'Hi, I live in Oslo.', 1],
      ['assistant', 'Hello!', 2],
    ]);
    const md = await memory.export(s.id, { format: 'markdown' });
    expect(md).toMatch(/^# Chat/);
    expect(md).toMatch(/\*\*user\*\* · 2026-11-20T10:00:00.000Z · #1\n\nHi, I live in Oslo\./);
    expect(md).toMatch(/## Facts\n\n- User lives in Oslo\./);
    expect(await memory.export(s.id, { format: 'text' })).toBe('[2026-11-20T10:00:00.000Z] user: Hi, I live in Oslo.\n[2026-11-20T10:00:05.000Z] assistant: Hello!\n');
    await memory.close();
  });
});

describe('close', () => {
  it('refuses calls after close', async () => {
    const { memory } = await createTestMemory();
    await memory.close();
    await memory.close();
    await expectStrataError(memory.sessions.list(), 'CLOSED');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { SimilarityThreadSelector } from '../src/models/threads/similarity-thread-selector.js';
import type { MemoryOptions } from '../src/memory-options.js';
import type { BackgroundError } from '../src/services/background-errors.js';
import { createTestMemory } from './helpers.js';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 20, 10, 0, 0);
const policy = {
  topics: { similarityThreshold: 0.2 },
  decay: { baseHalfLifeMs: HOUR, accessesPerDoubling: 1, maxHalfLifeMs: 8 * HOUR, longTermHalfLifeMs: 4 * HOUR, floor: 0.1 },
};
const BIKES = [
  { role: 'user' as const, content: 'Are the bike lanes in Berlin good for cycling to work?' },
  { role: 'assistant' as const, content: 'Berlin bike lanes are wide; cycling to work along the canal bike lanes is popular.' },
];
const LASAGNA = [
  { role: 'user' as const, content: 'Give me a lasagna recipe with spinach and ricotta.' },
  { role: 'assistant' as const, content: 'Layer lasagna sheets with spinach, ricotta and tomato sauce, then bake the lasagna.' },
];
const BACK = { role: 'user' as const, content: 'Back to the Berlin bike lanes: is cycling in winter ok?' };

async function conversation(options: MemoryOptions = {}) {
  const setup = await createTestMemory({ policy, ...options });
  setup.clock.set(START);
  const session = await setup.memory.sessions.create({ namespace: 'ana' });
  const bikes = await setup.memory.append(session.id, BIKES);
  const lasagna = await setup.memory.append(session.id, LASAGNA);
  return { ...setup, session, bikes, lasagna };
}

describe('topics, threads and decay', () => {
  it('groups turns into titled topics and follows the linear thread by default', async () => {
    const { memory, session, bikes, lasagna } = await conversation();
    const topics = await memory.topics.list(session.id);
    expect(topics.map((t) => [t.title, t.activeMessages, t.compressedMessages, t.isActive])).toEqual([
      ['Are the bike lanes in Berlin good for …', 2, 0, true],
      ['Give me a lasagna recipe with spinach and …', 2, 0, true],
    ]);
    const mermaid = await memory.toMermaid(session.id);
    expect(mermaid).toContain(`t1 --> t2\n  t2 --> t3\n  t3 --> t4`);
    const [hit] = await memory.search({ namespace: 'ana', query: 'tomato sauce bake', k: 1, kinds: ['turn'], contextDepth: 2 });
    expect(hit?.id).toBe(lasagna[1]?.id);
    expect(hit?.thread?.map((s) => s.id)).toEqual([bikes[1]?.id, lasagna[0]?.id]);
    expect(hit?.thread?.[0]?.content).toBe(BIKES[1]?.content);
    await memory.close();
  });

  it('follows the decay schedule: leaves the active set under the floor, compressed, losslessly readable and searchable', async () => {
    const { memory, session, clock, bikes } = await conversation();
    const before = await memory.messages(session.id);
    const [bikesTopic] = await memory.topics.list(session.id);
    expect(bikesTopic).toMatchObject({ halfLifeMs: HOUR, memoryType: 'short-term', accessCount: 0, importance: 0.5 });

    clock.set(START + 2 * HOUR); // 0.5 x 0.5^2 = 0.125: still over the floor
    expect(await memory.topics.decay({ sessionId: session.id })).toEqual({ cooled: [], compressed: 0 });
    expect((await memory.topics.list(session.id))[0]?.priority).toBeCloseTo(0.125, 2);

    clock.set(START + 3 * HOUR); // 0.0625: under the floor; the newest topic stays active
    expect(await memory.topics.decay({ sessionId: session.id })).toEqual({ cooled: [bikesTopic?.id], compressed: 2 });
    const cold = await memory.topics.list(session.id);
    expect(cold.map((t) => [t.isActive, t.activeMessages, t.compressedMessages])).toEqual([
      [false, 0, 2],
      [true, 2, 0],
    ]);
    expect(cold[0]?.storedBytes).toBeLessThan(cold[0]?.textBytes ?? 0);
    expect(await memory.messages(session.id)).toEqual(before);
    const context = await memory.getContext(session.id, { query: 'nothing matches this', budgetTokens: 4000 });
    expect(context.messages.map((m) => m.content)).toContain(BIKES[0]?.content);

    // A search returns the cold turn: an access, which restores the topic and doubles its half-life.
    const hits = await memory.search({ namespace: 'ana', query: 'canal bike lanes', k: 1, kinds: ['turn'] });
    expect(hits.map((h) => [h.id, h.text])).toEqual([[bikes[1]?.id, BIKES[1]?.content]]);
    const back = (await memory.topics.list(session.id))[0];
    expect(back).toMatchObject({ isActive: true, activeMessages: 2, compressedMessages: 0, accessCount: 1, halfLifeMs: 2 * HOUR });
    expect(await memory.messages(session.id)).toEqual(before);
    await memory.close();
  });

  it('a user turn returning to a cold topic restores it; the similarity selector branches the tree to it', async () => {
    const { memory, session, clock, bikes } = await conversation({ threadSelector: new SimilarityThreadSelector({ minSimilarity: 0.2 }) });
    clock.set(START + 3 * HOUR);
    await memory.topics.decay();
    const [back] = await memory.append(session.id, BACK);
    const topics = await memory.topics.list(session.id);
    // The return made the lasagna topic the older one: 3 hours old, it left the active set.
    expect(topics.map((t) => [t.isActive, t.compressedMessages, t.accessCount])).toEqual([
      [true, 0, 1],
      [false, 2, 0],
    ]);
    expect(topics[0]?.activeMessages).toBe(3);
    const [hit] = await memory.search({ namespace: 'ana', query: 'winter', k: 1, kinds: ['turn'], contextDepth: 1 });
    expect(hit?.id).toBe(back?.id);
    expect(hit?.thread?.map((s) => s.id)).toEqual([bikes[1]?.id]);
    await memory.close();
  });

  it('importance is user-settable and keeps an important topic active longer', async () => {
    const { memory, session, clock } = await conversation();
    const [bikesTopic] = await memory.topics.list(session.id);
    await memory.topics.setImportance(bikesTopic?.id ?? '', 1);
    clock.set(START + 3 * HOUR); // 1 x 0.5^3 = 0.125
    expect((await memory.topics.decay()).cooled).toEqual([]);
    await expect(memory.topics.setImportance(bikesTopic?.id ?? '', 2)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(memory.topics.restore('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await memory.close();
  });

  it('export / import round-trips topics, the tree and cold storage; a version 1 bundle still imports', async () => {
    const { memory, session, clock, store } = await conversation();
    clock.set(START + 3 * HOUR);
    await memory.topics.decay();
    const bundle = JSON.parse(await memory.export(session.id, { format: 'json' }));
    expect(bundle.version).toBe(2);
    const { memory: other, store: otherStore } = await createTestMemory({ policy });
    await other.import(bundle);
    expect(await other.messages(session.id)).toEqual(await memory.messages(session.id));
    expect(await otherStore.topics({})).toEqual(await store.topics({}));
    expect(await otherStore.links({})).toEqual(await store.links({}));
    expect(await otherStore.topicStorage({ sessionId: session.id })).toEqual(await store.topicStorage({ sessionId: session.id }));
    expect(await other.toMermaid(session.id)).toBe(await memory.toMermaid(session.id));

    const { memory: old } = await createTestMemory({ policy });
    const v1 = { ...bundle, version: 1, sessions: bundle.sessions.map(({ topics: _t, links: _l, ...rest }: Record<string, unknown>) => rest) };
    expect((await old.import(v1)).messages).toBe(4);
    expect(await old.messages(session.id)).toEqual(await memory.messages(session.id));
    await Promise.all([memory.close(), other.close(), old.close()]);
  });

  it('a history from the past derives oldest first without restoring cold topics: a past turn joins a cold topic and is stored cold with it', async () => {
    const COFFEE = [
      { role: 'user' as const, content: 'What ratio of coffee to water suits a pour-over?' },
      { role: 'assistant' as const, content: 'Use about one gram of coffee to sixteen of water for a pour-over.' },
    ];
    // the history as it happened: bikes, lasagna, back to the bikes, then coffee, an hour apart
    const { memory: source, clock: sourceClock } = await createTestMemory({ policy });
    const session = await source.sessions.create({ namespace: 'ana' });
    const turns = [BIKES, LASAGNA, [BACK, { role: 'assistant' as const, content: 'Winter cycling on the bike lanes is fine with studded tyres.' }], COFFEE];
    for (const [hour, pair] of turns.entries()) {
      sourceClock.set(START + hour * HOUR);
      await source.append(session.id, pair);
    }
    const bundle = JSON.parse(await source.export(session.id, { format: 'json' }));
    // its turns alone, as a history moved in from elsewhere: nothing derived yet
    const history = { ...bundle, version: 1, facts: [], sessions: bundle.sessions.map(({ session, messages }: Record<string, unknown>) => ({ session, messages, summaries: [], jobs: [] })) };

    // imported ten days later, derived four turns a job: the bikes topic is cold when the return to it derives
    const { memory, clock, store } = await createTestMemory({ policy: { ...policy, longTerm: { ingestBatchMessages: 4 } } });
    clock.set(START + 240 * HOUR);
    const writes = vi.spyOn(store, 'writeTopics');
    await memory.import(history);
    await memory.flush();
    const restored = writes.mock.calls.flatMap(([ops]) => ops.flatMap((op) => (op.type === 'restore' ? op.messageIds : [])));
    expect(restored).toEqual([]);
    const topics = await memory.topics.list(session.id);
    expect(topics.map((t) => [t.title.split(' ').slice(0, 4).join(' '), t.isActive, t.activeMessages, t.compressedMessages])).toEqual([
      ['Are the bike lanes', false, 0, 4],
      ['Give me a lasagna', false, 0, 2],
      ['What ratio of coffee', true, 2, 0],
    ]);
    expect((await memory.messages(session.id)).map((m) => m.content)).toEqual(turns.flat().map((t) => t.content));
    await Promise.all([source.close(), memory.close()]);
  });

  it('forget cascades: children follow the nearest ancestor, titles drop forgotten text, sessions take their topics along', async () => {
    const { memory, session, store, bikes, lasagna } = await conversation();
    await memory.forget({ messageIds: [bikes[0]?.id ?? '', bikes[1]?.id ?? ''] });
    const links = await store.links({ sessionId: session.id });
    expect(links.map((l) => [l.messageId, l.parentId])).toEqual([
      [lasagna[0]?.id, null],
      [lasagna[1]?.id, lasagna[0]?.id],
    ]);
    expect((await memory.topics.list(session.id)).map((t) => t.title)).toEqual(['Give me a lasagna recipe with spinach and …']);
    await memory.forget({ messageIds: [lasagna[0]?.id ?? ''] });
    expect((await memory.topics.list(session.id)).map((t) => t.title)).toEqual(['Layer lasagna sheets with spinach, ricotta and tomato …']);
    await memory.sessions.delete(session.id);
    expect(await store.topics({})).toEqual([]);
    expect(await store.links({})).toEqual([]);
    await memory.close();
  });
});

describe('topic accesses are written after the read returns', () => {
  it('search and getContext return before touching topics; one write for the reads in between; topic reads see every access', async () => {
    const errors: BackgroundError[] = [];
    const { memory, store, session, bikes } = await conversation({ onError: (event) => errors.push(event) });
    const [bikesTopic] = await memory.topics.list(session.id);
    let topicWrites = 0;
    const writeTopics = store.writeTopics.bind(store);
    store.writeTopics = async (ops) => {
      topicWrites++;
      return writeTopics(ops);
    };
    for (let i = 0; i < 3; i++) {
      const hits = await memory.search({ namespace: 'ana', query: 'canal bike lanes', k: 1, kinds: ['turn'] });
      expect(hits.map((h) => h.id)).toEqual([bikes[1]?.id]);
    }
    await memory.getContext(session.id, { query: 'canal bike lanes', budgetTokens: 60 });
    // nothing written yet: the reads only noted their turns
    expect(topicWrites).toBe(0);
    expect((await store.topics({ ids: [bikesTopic?.id ?? ''] }))[0]?.accessCount).toBe(0);
    // a topic read settles the log first: the three searches count as one access
    expect((await memory.topics.list(session.id))[0]?.accessCount).toBe(1);
    expect(topicWrites).toBe(1);
    expect(errors).toEqual([]);
    await memory.close();
  });

  it('a look with touch: false (an inspector) records no access: counts and half-lives stay', async () => {
    const { memory, session, bikes } = await conversation({ policy: { ...policy, immediate: { maxMessages: 2, minMessages: 1 } } });
    await memory.flush();
    const [before] = await memory.topics.list(session.id);
    const looked = await memory.search({ namespace: 'ana', query: 'canal bike lanes', k: 1, kinds: ['turn'], touch: false });
    expect(looked.map((h) => h.id)).toEqual([bikes[1]?.id]);
    const context = await memory.getContext(session.id, { query: 'canal bike lanes', budgetTokens: 200, touch: false });
    // the bikes turns are recalled (session tier), not the recent window: a use would count them
    expect(context.manifest.some((m) => m.included && m.tier === 'session' && m.id === bikes[1]?.id)).toBe(true);
    // priority is computed at read time from the clock; everything stored stays as it was
    expect((await memory.topics.list(session.id))[0]).toEqual({ ...before, priority: expect.any(Number) });
    await memory.getContext(session.id, { query: 'canal bike lanes', budgetTokens: 200 });
    expect((await memory.topics.list(session.id))[0]).toMatchObject({ accessCount: (before?.accessCount ?? 0) + 1 });
    await memory.close();
  });
});

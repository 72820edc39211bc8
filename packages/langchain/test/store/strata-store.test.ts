import { describe, expect, it } from 'vitest';
import { InMemoryStore } from '@langchain/langgraph';
import type { Memory } from '@strata/core';
import { StrataStore } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';

const NS = 'agent-store';

async function twoStores() {
  const { memory } = await createTestMemory();
  return { memory, a: new StrataStore({ memory, namespace: NS }), b: new StrataStore({ memory, namespace: NS }) };
}

/** The turns stored for one LangGraph namespace, via strata's own API. */
async function turnsOf(memory: Memory, labels: string[]) {
  const session = (await memory.sessions.list({ namespace: NS })).find((s) => JSON.stringify(s.metadata.langgraphNamespace) === JSON.stringify(labels));
  return session ? memory.messages(session.id) : [];
}

describe('StrataStore over one memory', () => {
  it('another StrataStore on the same memory sees every put, update and delete at once', async () => {
    const { memory, a, b } = await twoStores();
    await a.put(['u1', 'memories'], 'food', { text: 'Loves ramen' });
    expect((await b.get(['u1', 'memories'], 'food'))?.value).toEqual({ text: 'Loves ramen' });
    await a.put(['u1', 'memories'], 'food', { text: 'Loves udon now' });
    expect((await b.get(['u1', 'memories'], 'food'))?.value).toEqual({ text: 'Loves udon now' });
    await b.put(['u1', 'memories'], 'city', { text: 'Lives in Lisbon' });
    expect((await a.search(['u1'])).map((i) => i.key).sort()).toEqual(['city', 'food']);
    await a.delete(['u1', 'memories'], 'food');
    expect(await b.get(['u1', 'memories'], 'food')).toBeNull();
    expect((await b.search(['u1'], { query: 'udon' })).map((i) => i.key)).toEqual([]);
    await memory.close();
  });

  it('keeps each LangGraph namespace as a session and each item as one turn, whatever was updated or deleted', async () => {
    const { memory, a } = await twoStores();
    await a.put(['u1', 'memories'], 'food', { text: 'Loves ramen' });
    await a.put(['u1', 'memories'], 'food', { text: 'Loves udon', since: 2024 });
    await a.put(['u1', 'memories'], 'city', { text: 'Lives in Lisbon' });
    await a.put(['u1', 'memories'], 'pet', { text: 'Has a cat' });
    await a.delete(['u1', 'memories'], 'pet');
    const sessions = await memory.sessions.list({ namespace: NS });
    expect(sessions.map((s) => s.metadata)).toEqual([{ langgraphNamespace: ['u1', 'memories'] }]);
    const turns = await turnsOf(memory, ['u1', 'memories']);
    expect(turns.map((t) => [t.content, t.metadata.key])).toEqual([
      ['text: Loves udon\nsince: 2024', 'food'],
      ['text: Lives in Lisbon', 'city'],
    ]);
    // times are the memory's: createdAt from the first put, updatedAt the turn's
    const food = await a.get(['u1', 'memories'], 'food');
    expect(food?.updatedAt.getTime()).toBe(turns[0]?.createdAt);
    expect(food?.createdAt.getTime()).toBeLessThan(turns[0]?.createdAt ?? 0);
    // strata's own search finds the items
    const [hit] = await memory.search({ namespace: NS, query: 'where does the user live? Lisbon', kinds: ['turn'] });
    expect(hit?.text).toBe('text: Lives in Lisbon');
    await memory.close();
  });

  it('forgetting a session or the namespace through the memory empties every store at once', async () => {
    const { memory, a, b } = await twoStores();
    await a.put(['u1'], 'food', { text: 'Loves ramen' });
    await a.put(['u2'], 'food', { text: 'Loves pho' });
    expect(await b.get(['u1'], 'food')).not.toBeNull();
    const [session] = (await memory.sessions.list({ namespace: NS })).filter((s) => JSON.stringify(s.metadata.langgraphNamespace) === '["u1"]');
    await memory.forget({ sessionId: session?.id ?? '' });
    expect([await a.get(['u1'], 'food'), await b.get(['u1'], 'food')]).toEqual([null, null]);
    await memory.forget({ namespace: NS });
    expect(await b.search([])).toEqual([]);
    await a.put(['u1'], 'food', { text: 'Loves soba' });
    expect((await b.get(['u1'], 'food'))?.value).toEqual({ text: 'Loves soba' });
    await memory.close();
  });

  it('two stores writing one key at the same moment leave one item, and its next write one turn', async () => {
    const { memory, a, b } = await twoStores();
    await Promise.all([a.put(['u1'], 'food', { n: 1 }), b.put(['u1'], 'food', { n: 2 }), a.put(['u1'], 'food', { n: 3 })]);
    const seen = [(await a.get(['u1'], 'food'))?.value, (await b.get(['u1'], 'food'))?.value];
    expect(seen[0]).toEqual(seen[1]);
    await b.put(['u1'], 'food', { n: 4 });
    expect((await turnsOf(memory, ['u1'])).map((t) => t.metadata.value)).toEqual([{ n: 4 }]);
    expect((await a.get(['u1'], 'food'))?.value).toEqual({ n: 4 });
    await memory.close();
  });

  it('ignores conversations that share its namespace', async () => {
    const { memory, a } = await twoStores();
    const chat = await memory.sessions.create({ namespace: NS });
    await memory.append(chat.id, [
      { role: 'user', content: 'I love ramen more than anything' },
      { role: 'assistant', content: 'Noted: ramen.' },
    ]);
    await a.put(['u1'], 'food', { text: 'Loves ramen' });
    expect((await a.search([], { query: 'ramen' })).map((i) => i.key)).toEqual(['food']);
    expect(await a.listNamespaces()).toEqual([['u1']]);
    await memory.close();
  });
});

describe('StrataStore where it differs from InMemoryStore', () => {
  it('a query returns only the items strata reaches, best first, never a value without text or index false', async () => {
    const { memory, a } = await twoStores();
    // written next to the matches: strata credits a turn's neighbours, but these have nothing to search
    await a.put(['docs'], 'empty', { nested: { list: [] } });
    await a.put(['docs'], 'ramen', { text: 'Ramen with miso broth' });
    await a.put(['docs'], 'secret', { text: 'The secret miso broth recipe' }, false);
    await a.put(['docs'], 'udon', { text: 'Udon in a hot broth' });
    const hits = await a.search(['docs'], { query: 'miso broth' });
    expect(hits.map((h) => h.key)).toEqual(['ramen', 'udon']);
    expect((hits[0]?.score ?? 0) > (hits[1]?.score ?? 0)).toBe(true);
    expect((await a.get(['docs'], 'secret'))?.value).toEqual({ text: 'The secret miso broth recipe' });
    expect(await a.search(['docs'], { query: 'zebra' })).toEqual([]);
    // offset pages through the same ranking
    expect((await a.search(['docs'], { query: 'miso broth', offset: 1, limit: 1 })).map((h) => h.key)).toEqual(['udon']);
    // InMemoryStore (no index) ignores the query and lists every candidate
    const plain = new InMemoryStore();
    await plain.put(['docs'], 'empty', { nested: { list: [] } });
    expect((await plain.search(['docs'], { query: 'miso broth' })).map((h) => h.key)).toEqual(['empty']);
    await memory.close();
  });

  it("searches the store's index fields when it names them", async () => {
    const { memory } = await createTestMemory();
    const store = new StrataStore({ memory, namespace: NS, index: { fields: ['title', 'tags[*]'] } });
    await store.put(['guides'], 'alps', { title: 'Alpine hiking', tags: ['mountains'], body: 'ramen at the hut' });
    await store.put(['guides'], 'noodles', { title: 'Noodle guide', tags: ['ramen'], body: 'boots' });
    expect((await store.search(['guides'], { query: 'ramen' }))[0]?.key).toBe('noodles');
    expect((await store.search(['guides'], { query: 'mountains' }))[0]?.key).toBe('alps');
    expect(await store.search(['guides'], { query: 'boots hut' })).toEqual([]);
    await memory.close();
  });

  it('lists newest update first without a query', async () => {
    const { memory, a } = await twoStores();
    for (const key of ['first', 'second', 'third']) await a.put(['log'], key, { text: key });
    await a.put(['log'], 'first', { text: 'first, edited' });
    expect((await a.search(['log'])).map((i) => i.key)).toEqual(['first', 'third', 'second']);
    await memory.close();
  });

  it('lists only namespaces that hold an item (InMemoryStore keeps emptied ones)', async () => {
    const { memory, a } = await twoStores();
    const plain = new InMemoryStore();
    for (const store of [a, plain]) {
      await store.put(['kept'], 'k', { v: 1 });
      await store.put(['emptied'], 'k', { v: 1 });
      await store.delete(['emptied'], 'k');
    }
    expect(await a.listNamespaces()).toEqual([['kept']]);
    expect(await plain.listNamespaces()).toEqual([['emptied'], ['kept']]);
    await memory.close();
  });

  it('returns copies: changing a value it returned changes nothing stored', async () => {
    const { memory, a } = await twoStores();
    await a.put(['u1'], 'prefs', { tags: ['dark'] });
    const item = await a.get(['u1'], 'prefs');
    (item!.value.tags as string[]).push('changed');
    expect((await a.get(['u1'], 'prefs'))?.value).toEqual({ tags: ['dark'] });
    await memory.close();
  });
});

import { describe, expect, it } from 'vitest';
import { StrataRetriever } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';

async function twoNamespaces() {
  const setup = await createTestMemory();
  const { memory } = setup;
  const alice = await memory.sessions.create({ namespace: 'alice' });
  const bob = await memory.sessions.create({ namespace: 'bob' });
  const aliceTurns = await memory.append(alice.id, [
    { role: 'user', content: 'I live in Lisbon and my cat is called Miso.' },
    { role: 'assistant', content: 'Miso is a lovely name for a cat in Lisbon.' },
  ]);
  const bobTurns = await memory.append(bob.id, [{ role: 'user', content: 'I live in Lisbon and my cat is called Tofu.' }]);
  return { ...setup, alice, bob, aliceTurns, bobTurns };
}

describe('StrataRetriever', () => {
  it('returns the namespace turns and facts as Documents with their provenance', async () => {
    const { memory, alice, aliceTurns } = await twoNamespaces();
    const retriever = new StrataRetriever({ memory, namespace: 'alice', k: 10 });
    const docs = await retriever.invoke('Lisbon cat');
    const hits = await memory.search({ namespace: 'alice', query: 'Lisbon cat', k: 10 });
    expect(docs.map((d) => d.pageContent)).toEqual(hits.map((h) => h.text));
    expect(docs.map((d) => d.metadata)).toEqual(hits.map(({ kind, id, score, sessionId, messageIds, createdAt }) => ({ kind, id, score, sessionId, messageIds, createdAt })));
    const turn = docs.find((d) => d.metadata.kind === 'turn' && d.pageContent.startsWith('I live in Lisbon'));
    expect(turn?.metadata).toMatchObject({ id: aliceTurns[0]!.id, sessionId: alice.id, messageIds: [aliceTurns[0]!.id], createdAt: aliceTurns[0]!.createdAt });
    expect(turn?.id).toBe(aliceTurns[0]!.id);
    const fact = docs.find((d) => d.metadata.kind === 'fact' && d.pageContent === 'User lives in Lisbon.');
    expect(fact?.metadata).toMatchObject({ sessionId: null, messageIds: [aliceTurns[0]!.id] });
    for (let i = 1; i < docs.length; i++) expect(docs[i - 1]!.metadata.score).toBeGreaterThanOrEqual(docs[i]!.metadata.score);
    await memory.close();
  });

  it("never returns another namespace's items", async () => {
    const { memory, bob, bobTurns } = await twoNamespaces();
    const docs = await new StrataRetriever({ memory, namespace: 'alice', k: 50 }).invoke('Lisbon cat Tofu Miso');
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.filter((d) => d.pageContent.includes('Tofu') || d.metadata.sessionId === bob.id)).toEqual([]);
    expect(docs.filter((d) => d.metadata.messageIds.includes(bobTurns[0]!.id))).toEqual([]);
    expect(await new StrataRetriever({ memory, namespace: 'carol', k: 50 }).invoke('Lisbon cat')).toEqual([]);
    await memory.close();
  });

  it('honours k and kinds', async () => {
    const { memory } = await twoNamespaces();
    const facts = await new StrataRetriever({ memory, namespace: 'alice', k: 10, kinds: ['fact'] }).invoke('Lisbon cat Miso');
    expect(facts.map((d) => d.metadata.kind)).toEqual(facts.map(() => 'fact'));
    expect(facts.map((d) => d.pageContent).sort()).toEqual(['User lives in Lisbon.', 'User has a cat named Miso.'].sort());
    expect(await new StrataRetriever({ memory, namespace: 'alice', k: 1 }).invoke('Lisbon cat')).toHaveLength(1);
    await memory.close();
  });
});

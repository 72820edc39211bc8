import { describe, expect, it } from 'vitest';
import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { createTestMemory } from './helpers.js';

/** Not the offline hashing embeddings: a vector per letter count, enough to rank by overlap. */
const letterEmbeddings: EmbeddingsInterface = {
  embedDocuments: async (texts: string[]) => texts.map(letterVector),
  embedQuery: async (text: string) => letterVector(text),
};
function letterVector(text: string): number[] {
  const v = new Array<number>(26).fill(0);
  for (const c of text.toLowerCase()) if (c >= 'a' && c <= 'z') v[c.charCodeAt(0) - 97] = (v[c.charCodeAt(0) - 97] ?? 0) + 1;
  return v;
}

const chatter = ['The train was late again.', 'I should water the plants.', 'Traffic was terrible downtown.', 'Lunch was a sandwich.'];

describe('turn retrieval on dialogue', () => {
  it("finds a speaker's own turn when the query names them, though the turn does not", async () => {
    const { memory } = await createTestMemory();
    const s = await memory.sessions.create({ namespace: 'n' });
    await memory.append(s.id, [
      { role: 'user', name: 'Ana', content: 'I finished a painting of the lighthouse.' },
      { role: 'assistant', name: 'Bo', content: 'Painting is fun; I paint too and love painting birds.' },
      ...chatter.map((content) => ({ role: 'user' as const, name: 'Ana', content })),
    ]);
    const hits = await memory.search({ namespace: 'n', query: 'What did Ana paint?', k: 3, kinds: ['turn'] });
    expect(hits[0]?.text).toBe('I finished a painting of the lighthouse.');
    // recalled into another session's context, the line names who said it
    const other = await memory.sessions.create({ namespace: 'n' });
    const { messages } = await memory.getContext(other.id, { query: 'What did Ana paint?', budgetTokens: 400 });
    expect(String(messages[0]?.content)).toMatch(/\] Ana: I finished a painting of the lighthouse\./);
    await memory.close();
  });

  it('ranks the reply to a matching question, which shares no word with the query', async () => {
    const { memory } = await createTestMemory();
    const s = await memory.sessions.create({ namespace: 'n' });
    await memory.append(s.id, [
      { role: 'user', content: 'Do you keep any pets at home?' },
      { role: 'assistant', content: 'Yes, a beagle called Biscuit.' },
      ...chatter.map((content) => ({ role: 'user' as const, content })),
    ]);
    const hits = await memory.search({ namespace: 'n', query: 'pets at home', k: 2, kinds: ['turn'] });
    expect(hits.map((h) => h.text)).toEqual(['Do you keep any pets at home?', 'Yes, a beagle called Biscuit.']);
    const off = await createTestMemory({ policy: { context: { neighbourShare: 0 } } });
    const s2 = await off.memory.sessions.create({ namespace: 'n' });
    await off.memory.append(s2.id, [
      { role: 'user', content: 'Do you keep any pets at home?' },
      { role: 'assistant', content: 'Yes, a beagle called Biscuit.' },
    ]);
    expect((await off.memory.search({ namespace: 'n', query: 'pets at home', k: 2, kinds: ['turn'] })).map((h) => h.text)).toEqual(['Do you keep any pets at home?']);
    await memory.close();
    await off.memory.close();
  });

  it('keeps a turn hit too weak to share its score, after the strong hits and their neighbours', async () => {
    const { memory } = await createTestMemory();
    const strong = await memory.sessions.create({ namespace: 'n' });
    await memory.append(strong.id, [
      { role: 'user', content: 'The quartz kiln and the quartz glaze cracked again.' },
      { role: 'assistant', content: 'Oh no!' },
    ]);
    const weak = await memory.sessions.create({ namespace: 'n' });
    const filler = 'we walked along the river and talked about the weather and the trains and the market and lunch';
    await memory.append(weak.id, [{ role: 'user', content: `${filler}, then someone mentioned a glaze, ${filler}.` }]);
    const hits = await memory.search({ namespace: 'n', query: 'quartz kiln glaze', k: 10, kinds: ['turn'] });
    expect(hits.map((h) => h.text.slice(0, 12))).toEqual(['The quartz k', 'Oh no!', `${filler.slice(0, 12)}`]);
    await memory.close();
  });

  it('leaves the offline hashing vectors out of ranking, and fuses a real embeddings model', async () => {
    const seed = async (memory: Awaited<ReturnType<typeof createTestMemory>>['memory']) => {
      const s = await memory.sessions.create({ namespace: 'n' });
      await memory.append(
        s.id,
        ['We hiked to the glacier lake.', 'Glacier lake water is cold.', 'Pizza night with friends.', 'Zebra crossing by the zoo.'].map((content) => ({ role: 'user' as const, content })),
      );
    };
    const query = { namespace: 'n', query: 'zoo zebra lake', k: 4, kinds: ['turn' as const] };
    const offline = await createTestMemory();
    await seed(offline.memory);
    const before = await offline.memory.search(query);
    await offline.knowledge.delete({ filter: {} });
    expect(await offline.memory.search(query)).toEqual(before);

    const modelled = await createTestMemory({ embeddings: letterEmbeddings });
    await seed(modelled.memory);
    const fused = await modelled.memory.search(query);
    await modelled.knowledge.delete({ filter: {} });
    expect(await modelled.memory.search(query)).not.toEqual(fused);
    await offline.memory.close();
    await modelled.memory.close();
  });
});

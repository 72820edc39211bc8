import { afterEach, describe, expect, it } from 'vitest';
import { analyzeText, createInMemorySessionStore, createMemory, type LexicalQuery, type Memory } from '../src/index.js';

const NOW = Date.UTC(2025, 2, 11, 9);
const opened: Memory[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

/** A memory on the in-memory store whose lexical searches are recorded as they reach the store. */
async function recordedMemory(): Promise<{ memory: Memory; searches: LexicalQuery[] }> {
  const store = await createInMemorySessionStore();
  const searches: LexicalQuery[] = [];
  const search = store.search.bind(store);
  store.search = (query) => {
    searches.push(query);
    return search(query);
  };
  const memory = await createMemory({ store, clock: { now: () => NOW }, policy: { context: { expandWithFacts: true, expandWithNames: true, timeAware: true } } });
  opened.push(memory);
  const session = await memory.sessions.create({ namespace: 'ns', id: 's1' });
  await memory.append(session.id, [
    { role: 'user', content: 'My sister is called Lena. She moved to Seoul last spring.', createdAt: NOW - 86_400_000 * 40 },
    { role: 'user', content: 'I went to a pottery class on March 4 with Lena.', createdAt: NOW - 86_400_000 * 6 },
    { role: 'assistant', content: 'That sounds lovely.', createdAt: NOW - 86_400_000 * 6 + 1000 },
  ]);
  await memory.flush();
  searches.length = 0;
  return { memory, searches };
}

describe('a question is analysed once', () => {
  it('every search of the question in a getContext carries its terms, so no index analyses it again', async () => {
    const { memory, searches } = await recordedMemory();
    const question = 'Where does my sister live, and what did I do on March 4?';
    await memory.getContext('s1', { query: question, budgetTokens: 400 });
    const ofQuestion = searches.filter((s) => s.text.startsWith(question));
    // the turns, the facts (the context's, and the fact channel of the turns: one search) and the fact expansion
    expect(ofQuestion.length).toBeGreaterThanOrEqual(3);
    for (const s of ofQuestion) expect(s.terms).toEqual(analyzeText(s.text));
    // the day the question names is searched too, as its MM-DD, analysed with it
    expect(ofQuestion.some((s) => s.text.endsWith(' 03-04') && s.terms?.join(' ').endsWith('03 04'))).toBe(true);
  });

  it('search gives the same hits as before: terms are the text analysed', async () => {
    const { memory, searches } = await recordedMemory();
    const hits = await memory.search({ namespace: 'ns', query: 'pottery with Lena', k: 5 });
    expect(hits.map((h) => h.text)).toContain('I went to a pottery class on March 4 with Lena.');
    const direct = searches.find((s) => s.text === 'pottery with Lena' && s.kinds.includes('turn'));
    expect(direct?.terms).toEqual(analyzeText('pottery with Lena'));
  });
});

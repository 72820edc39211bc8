import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory, type PolicyInput } from '../src/index.js';

const DAY = 86_400_000;
// Tuesday 2025-03-11, 09:00 UTC: when the questions are asked
const NOW = Date.UTC(2025, 2, 11, 9);
const NS = 'user:1';

type ContextPolicy = NonNullable<PolicyInput>['context'];

const opened: Memory[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

/** A memory holding `turns` (text, days before NOW), each in a session of its own, derived. */
async function memoryWith(turns: [string, number][], context: ContextPolicy): Promise<Memory> {
  const memory = await createMemory({ clock: { now: () => NOW }, policy: { context } });
  opened.push(memory);
  for (const [i, [text, daysAgo]] of turns.entries()) {
    const session = await memory.sessions.create({ namespace: NS, id: `s${i}` });
    await memory.append(session.id, [
      { id: `t${i}`, role: 'user', content: text, createdAt: NOW - daysAgo * DAY },
      { id: `r${i}`, role: 'assistant', content: 'Noted.', createdAt: NOW - daysAgo * DAY + 1000 },
    ]);
  }
  await memory.flush();
  return memory;
}

const turnIds = async (memory: Memory, query: string, k: number) => (await memory.search({ namespace: NS, query, k, kinds: ['turn'] })).map((hit) => hit.id);

const OFF: ContextPolicy = { expandWithFacts: false, expandWithNames: false, expandWithEntities: false, timeAware: false, neighbourTurns: false };

describe('retrieval: name expansion', () => {
  const turns: [string, number][] = [
    ['My cousin is called Alice.', 30],
    ['Alice just moved to Hanoi for a new job.', 10],
    ['Which city has the best ramen in your opinion?', 5],
    ['I live in a quiet street in the city centre.', 4],
    ['The city council meets on Mondays.', 3],
  ];

  it('finds the turn that only names the person the query asks about', async () => {
    const memory = await memoryWith(turns, { ...OFF, expandWithNames: true });
    expect(await turnIds(memory, 'Which city does my cousin live in?', 10)).toContain('t1');
  });

  it('misses it without the expansion (the turn shares no term with the query)', async () => {
    const memory = await memoryWith(turns, OFF);
    expect(await turnIds(memory, 'Which city does my cousin live in?', 10)).not.toContain('t1');
  });
});

describe('retrieval: time-aware ranking', () => {
  // Saturdays before NOW: March 8 (3 days ago), March 1 (10), February 22 (17)
  const turns: [string, number][] = [
    ['Last Saturday I went hiking near Lisbon, it was great.', 15], // written Feb 24 -> Feb 22
    ['Last Saturday I went hiking near Osaka, it was great.', 8], // written Mar 3 -> Mar 1
    ['Last Saturday I went hiking near Seoul, it was great.', 1], // written Mar 10 -> Mar 8
  ];

  it.each([
    ['Where did I go hiking on Saturday, March 1?', 't1'],
    ['Where did I go hiking on Saturday, February 22?', 't0'],
    ['Where did I go hiking on Saturday, March 8?', 't2'],
  ])('%s -> %s first', async (query, expected) => {
    const memory = await memoryWith(turns, { ...OFF, timeAware: true });
    expect((await turnIds(memory, query, 3))[0]).toBe(expected);
  });

  it('leaves the order alone for a query that names no day', async () => {
    const on = await memoryWith(turns, { ...OFF, timeAware: true });
    const off = await memoryWith(turns, OFF);
    expect(await turnIds(on, 'Where did I go hiking?', 3)).toEqual(await turnIds(off, 'Where did I go hiking?', 3));
  });
});

describe('retrieval: the people a query names', () => {
  const turns: [string, number][] = [
    ['My sister is called Lena.', 30],
    ['My sister just got a job at the harbour office.', 10],
    ['The harbour was foggy this morning.', 5],
    ['I work from home on Fridays.', 4],
  ];

  it('finds the turn that calls her only by what a fact says she is, and says which person brought it in', async () => {
    const memory = await memoryWith(turns, { ...OFF, expandWithEntities: true });
    const hits = await memory.search({ namespace: NS, query: 'Where does Lena work?', k: 10, kinds: ['turn'] });
    const job = hits.find((hit) => hit.id === 't1');
    expect(job?.via).toBe('Lena, as the fact "User\'s sister is Lena." calls them');
    // the turns the query's own words find carry no via
    expect(hits.find((hit) => hit.id === 't3')?.via).toBeUndefined();
    const session = await memory.sessions.create({ namespace: NS });
    const { manifest } = await memory.getContext(session.id, { query: 'Where does Lena work?', budgetTokens: 1000 });
    expect(manifest.find((item) => item.id === 't1')).toMatchObject({ included: true, reason: expect.stringContaining('found through Lena, as the fact "User\'s sister is Lena." calls them') });
  });

  it('misses it without the expansion (the turn shares no term with the query), and by default it is on', async () => {
    const off = await memoryWith(turns, OFF);
    expect(await turnIds(off, 'Where does Lena work?', 10)).not.toContain('t1');
    const byDefault = await memoryWith(turns, {});
    expect(await turnIds(byDefault, 'Where does Lena work?', 10)).toContain('t1');
  });
});

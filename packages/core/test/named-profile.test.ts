import { afterEach, describe, expect, it } from 'vitest';
import { createInMemorySessionStore, createMemory, type Fact, type Memory } from '../src/index.js';

const NOW = Date.UTC(2025, 2, 11, 9);
const HOUR = 3_600_000;
const opened: Memory[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

function fact(id: string, subject: string, predicate: string, object: string, text: string, hoursAgo: number, source: string): Fact {
  return { id, namespace: 'ns', subject, predicate, object, text, sourceMessageIds: [source], validFrom: NOW - hoursAgo * HOUR, confidence: 0.8, createdAt: NOW, degraded: false };
}

/**
 * A namespace where the profile facts of sixty other people are newer than Mia Lopez's, and
 * twenty observations name her more often than her own profile fact does.
 */
async function crowdedMemory(): Promise<Memory> {
  const store = await createInMemorySessionStore();
  const memory = await createMemory({ store, clock: { now: () => NOW } });
  opened.push(memory);
  await memory.sessions.create({ namespace: 'ns', id: 's1' });
  const [said] = await memory.append('s1', { role: 'user', content: 'Mia Lopez started at Siemens, and I keep running into her.', createdAt: NOW - 500 * HOUR });
  const source = said?.id as string;
  const facts: Fact[] = [fact('mia-job', 'mia lopez', 'employer', 'Siemens', 'Mia Lopez works at Siemens.', 400, source)];
  for (let i = 0; i < 60; i++) facts.push(fact(`home-${i}`, `person ${i}`, 'lives_in', `Town ${i}`, `Person ${i} lives in Town ${i}.`, 100 - i, source));
  for (let i = 0; i < 20; i++) facts.push(fact(`seen-${i}`, 'user', `observation:seen ${i}`, `seen ${i}`, `User saw Mia Lopez at the market, Mia Lopez waved (${i}).`, 50 - i, source));
  await store.write({ ops: [{ type: 'putFacts', facts }] });
  return memory;
}

describe("getContext's profile and the people a question names", () => {
  it("offers the current profile facts of a person the question names first, saying so, even when the namespace's newest are others'", async () => {
    const memory = await crowdedMemory();
    const { manifest } = await memory.getContext('s1', { query: 'What is new with Mia Lopez?', budgetTokens: 2000 });
    const job = manifest.find((item) => item.id === 'mia-job');
    expect(job).toMatchObject({ included: true, reason: 'profile: a current fact about mia lopez, whom the question names' });
  });

  it('a question naming nobody gets the namespace newest profile facts, as before', async () => {
    const memory = await crowdedMemory();
    const { manifest } = await memory.getContext('s1', { query: 'Who lives where?', budgetTokens: 2000 });
    expect(manifest.some((item) => item.id === 'mia-job')).toBe(false);
    expect(manifest.filter((item) => item.reason.startsWith('profile:')).every((item) => item.reason.endsWith('offered to every context'))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { Fact } from '@strata/core';
import { LlmFactExtractor } from '../../src/models/llm-fact-extractor.js';
import { createTestMemory } from '../helpers.js';
import { ruleBasedAnswer, ToolCallingFake } from './tool-calling-fake.js';

async function setup() {
  const model = new ToolCallingFake(ruleBasedAnswer);
  const { memory } = await createTestMemory({ extractor: new LlmFactExtractor({ model }) });
  const first = await memory.sessions.create({ namespace: 'ana' });
  const second = await memory.sessions.create({ namespace: 'ana' });
  const all = () => memory.facts.list({ namespace: 'ana', includeSuperseded: true });
  return { memory, model, first, second, all };
}

const bySlot = (facts: Fact[], predicate: string) => facts.filter((f) => f.predicate === predicate);

describe('facts from LlmFactExtractor reconciled with stored facts', () => {
  it('adds a fact to an empty slot, attributed to the turn that stated it', async () => {
    const { memory, first, all } = await setup();
    const [turn] = await memory.append(first.id, { role: 'user', content: 'I live in Lisbon.' });
    expect(await all()).toMatchObject([{ subject: 'user', predicate: 'lives_in', object: 'Lisbon', sourceMessageIds: [turn!.id], validFrom: turn!.createdAt, degraded: false }]);
    await memory.close();
  });

  it('supersedes the current fact of the slot with a later contradicting statement, keeping history', async () => {
    const { memory, first, second, all } = await setup();
    await memory.append(first.id, { role: 'user', content: 'I live in Lisbon.' });
    const [moved] = await memory.append(second.id, { role: 'user', content: 'I moved to Porto.' });
    const slot = bySlot(await all(), 'lives_in');
    const lisbon = slot.find((f) => f.object === 'Lisbon')!;
    const porto = slot.find((f) => f.object === 'Porto')!;
    expect(slot).toHaveLength(2);
    expect(lisbon).toMatchObject({ validTo: moved!.createdAt, supersededBy: porto.id });
    expect(porto.validTo).toBeUndefined();
    expect((await memory.facts.list({ namespace: 'ana' })).map((f) => f.object)).toEqual(['Porto']);
    await memory.close();
  });

  it('merges a repeated statement into the current fact (provenance unioned, no duplicate)', async () => {
    const { memory, first, second, all } = await setup();
    const [a] = await memory.append(first.id, { role: 'user', content: 'I work at Acme.' });
    const [b] = await memory.append(second.id, { role: 'user', content: 'As I said, I work at Acme.' });
    expect(await all()).toMatchObject([{ predicate: 'employer', object: 'Acme', sourceMessageIds: [a!.id, b!.id] }]);
    await memory.close();
  });

  it('never touches other slots', async () => {
    const { memory, first, all } = await setup();
    await memory.append(first.id, [
      { role: 'user', content: 'I work at Acme.' },
      { role: 'user', content: 'My sister is Ana.' },
    ]);
    const before = (await all()).filter((f) => f.predicate !== 'lives_in');
    await memory.append(first.id, { role: 'user', content: 'I live in Lisbon.' });
    await memory.append(first.id, { role: 'user', content: 'I moved to Porto.' });
    expect((await all()).filter((f) => f.predicate !== 'lives_in')).toEqual(before);
    await memory.close();
  });

  it('shows the extractor the current facts of related slots, so it reuses their names', async () => {
    const { memory, model, first } = await setup();
    await memory.append(first.id, { role: 'user', content: 'I live in Lisbon.' });
    await memory.append(first.id, { role: 'user', content: 'I moved to Porto, I live in Porto now.' });
    expect(model.calls.at(-1)?.prompt).toContain('- user | lives_in | Lisbon');
    await memory.close();
  });
});

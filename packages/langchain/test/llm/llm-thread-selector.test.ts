import { describe, expect, it } from 'vitest';
import type { BackgroundError, MemoryOptions } from '@strata/core';
import { LlmThreadSelector } from '../../src/index.js';
import { modelNameOf } from '../../src/models/structured-call.js';
import { createTestMemory } from '../helpers.js';
import { ToolCallingFake } from './tool-calling-fake.js';

const START = Date.UTC(2026, 10, 20, 10, 0, 0);
const HOUR = 3_600_000;
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

describe('the LLM thread selector', () => {
  it('the LLM selector chooses the parent with a chat model (structured output)', async () => {
    const model = new ToolCallingFake((call) => {
      const line = call.prompt.split('\n').find((l) => /^\d+\. .*bike/i.test(l));
      return { choice: line ? Number(line.split('.')[0]) : 0 };
    });
    const { memory, session, bikes } = await conversation({ threadSelector: new LlmThreadSelector({ model }) });
    await memory.append(session.id, BACK);
    const [hit] = await memory.search({ namespace: 'ana', query: 'winter', k: 1, kinds: ['turn'], contextDepth: 1 });
    expect(hit?.thread?.map((s) => s.id)).toEqual([bikes[1]?.id]);
    expect(model.calls.map((c) => c.tool)).toEqual(['thread', 'thread']);
    // its calls are the memory's model spend too: counted for the model and the namespace
    const usage = model.usage();
    expect(memory.stats().derivation.threadSelection).toEqual(usage);
    expect(memory.stats().derivation.byModel[modelNameOf(model)]).toEqual(usage);
    await memory.close();
  });
});

describe('a failing thread selector', () => {
  it('attaches the turns linearly and records why, without failing derivation', async () => {
    const model = new ToolCallingFake(() => ({ choice: 1 }));
    const errors: BackgroundError[] = [];
    const { memory, session, lasagna } = await conversation({ threadSelector: new LlmThreadSelector({ model }), onError: (event) => errors.push(event) });
    model.failure = new Error('connect ECONNREFUSED 127.0.0.1:1');
    const [back] = await memory.append(session.id, BACK);
    const [hit] = await memory.search({ namespace: 'ana', query: 'winter', k: 1, kinds: ['turn'], contextDepth: 1 });
    expect(hit?.id).toBe(back?.id);
    expect(hit?.thread?.map((s) => s.id)).toEqual([lasagna[1]?.id]);
    expect(errors.map((e) => [e.kind, e.sessionId])).toEqual([['thread-selector', session.id]]);
    expect(String(errors[0]?.error)).toMatch(/ECONNREFUSED|unreachable|connect/i);
    await memory.close();
  });
});

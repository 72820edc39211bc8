import { describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { createStrataMiddleware } from '../../src/langchain/index.js';
import { createTestMemory } from '../helpers.js';
import { knownFacts, ScriptedChatModel } from './scripted-chat-model.js';

describe('memory across sessions (agent with strata middleware)', () => {
  it('answers in a new session from a fact of an earlier one, and a later correction supersedes it', async () => {
    const { memory } = await createTestMemory();
    const model = new ScriptedChatModel(['Lisbon is a great place to surf!', 'You live in Lisbon.', 'Porto, nice!', 'You live in Porto.', 'You live in Porto.']);
    const middleware = await createStrataMiddleware({ memory, sessionId: (runtime) => String(runtime.configurable?.thread_id), budgetTokens: 1000 });
    const agent = createAgent({ model, tools: [], middleware: [middleware] });
    const ask = async (sessionId: string, text: string) => {
      const result = await agent.invoke({ messages: [new HumanMessage(text)] }, { configurable: { thread_id: sessionId } });
      return { answer: result.messages.at(-1)?.text, prompt: model.prompts.at(-1) ?? [] };
    };
    const first = await memory.sessions.create({ namespace: 'ana' });
    const second = await memory.sessions.create({ namespace: 'ana' });
    const third = await memory.sessions.create({ namespace: 'ana' });

    await ask(first.id, 'Hi! I live in Lisbon and I love surfing.');
    const recalled = await ask(second.id, 'Where do I live?');
    expect(recalled.answer).toBe('You live in Lisbon.');
    expect(knownFacts(recalled.prompt)).toMatch(/User lives in Lisbon\./);
    // Only the first session ever said it.
    expect(await memory.export(second.id, { format: 'text' })).not.toMatch(/user: .*Lisbon/);

    await ask(second.id, 'I moved to Porto.');
    const corrected = await ask(second.id, 'Where do I live now?');
    expect(knownFacts(corrected.prompt)).toMatch(/User lives in Porto\./);
    expect(knownFacts(corrected.prompt)).not.toMatch(/Lisbon/);

    const fresh = await ask(third.id, 'Where do I live?');
    expect(knownFacts(fresh.prompt)).toMatch(/User lives in Porto\./);
    expect(knownFacts(fresh.prompt)).not.toMatch(/Lisbon/);

    const history = await memory.facts.list({ namespace: 'ana', includeSuperseded: true });
    const lisbon = history.find((f) => f.object === 'Lisbon');
    const porto = history.find((f) => f.object === 'Porto');
    expect(lisbon?.validTo).toBeDefined();
    expect(lisbon?.supersededBy).toBe(porto?.id);
    expect(porto?.validTo).toBeUndefined();
    await memory.close();
  });
});

import { describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { createStrataMiddleware, StrataRetriever } from '../../src/index.js';
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

describe('what a user said in one session, asked in another in other words', () => {
  const seed = async () => {
    const { memory } = await createTestMemory();
    const first = await memory.sessions.create({ namespace: 'ana' });
    await memory.append(first.id, [
      { role: 'user', content: 'I work as a glassblower.' },
      { role: 'assistant', content: 'That sounds like a beautiful craft!' },
    ]);
    await memory.flush();
    return memory;
  };

  it('the retriever finds the job for "What is my job?"', async () => {
    const memory = await seed();
    const docs = await new StrataRetriever({ memory, namespace: 'ana', k: 3 }).invoke('What is my job?');
    expect(docs[0]?.pageContent).toBe('User works as a glassblower.');
    expect(docs[0]?.metadata.kind).toBe('fact');
    await memory.close();
  });

  it('getContext of a new session answers "What do I do for a living?" with the job fact', async () => {
    const memory = await seed();
    const second = await memory.sessions.create({ namespace: 'ana' });
    const { messages, manifest } = await memory.getContext(second.id, { query: 'What do I do for a living?', budgetTokens: 500 });
    const job = manifest.find((item) => item.kind === 'fact' && item.included);
    expect(job?.reason).toMatch(/query match/);
    expect(String(messages[0]?.content)).toMatch(/User works as a glassblower\./);
    await memory.close();
  });

  it('the profile is offered to a query that shares no word with it, and the manifest says why', async () => {
    const memory = await seed();
    const second = await memory.sessions.create({ namespace: 'ana' });
    const { messages, manifest } = await memory.getContext(second.id, { query: 'Any plans for the weekend?', budgetTokens: 500 });
    expect(manifest.find((item) => item.kind === 'fact')).toMatchObject({ included: true, reason: 'profile: a current fact about user, offered to every context' });
    expect(String(messages[0]?.content)).toMatch(/About the people \(current\):\n- User works as a glassblower\./);
    await memory.close();
  });
});

import { describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { HeuristicFactExtractor } from '@strata/core';
import { LlmFactExtractor } from '../../src/models/llm-fact-extractor.js';
import { LlmSummarizer } from '../../src/models/llm-summarizer.js';
import { createStrataMiddleware } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';
import { ToolCallingFake, type FakeAnswer } from '../llm/tool-calling-fake.js';
import { knownFacts, ScriptedChatModel } from './scripted-chat-model.js';

/** Understands the two phrasings of this conversation, which the offline heuristics do not. */
const understands: FakeAnswer = (call) => {
  if (call.tool !== 'facts') return { [call.tool]: `LLM ${call.tool}` };
  const facts = call.turns.flatMap((turn) => {
    const city = /(?:home base is|relocated to) ([A-Z][a-z]+)/.exec(turn.content)?.[1];
    return turn.speaker === 'user' && city ? [{ turn: turn.seq, subject: 'user', predicate: 'lives_in', object: city, text: `User lives in ${city}.`, confidence: 0.9 }] : [];
  });
  return { facts };
};

describe('memory across sessions with LLM-derived facts (agent with strata middleware)', () => {
  it("puts a fact stated only in the first session into the second session's prompt; a later contradiction supersedes it", async () => {
    const extractorModel = new ToolCallingFake(understands);
    const { memory } = await createTestMemory({ extractor: new LlmFactExtractor({ model: extractorModel }), summarizer: new LlmSummarizer({ model: extractorModel }) });
    const first = 'Hi! My home base is Lisbon these days.';
    const correction = 'Update: we relocated to Porto last month.';
    expect(await new HeuristicFactExtractor().extract({ turns: [{ id: 'x', seq: 1, role: 'user', content: `${first} ${correction}`, createdAt: 0 }], knownFacts: [] })).toEqual([]);

    const model = new ScriptedChatModel(['Lovely city!', 'You live in Lisbon.', 'Noted!', 'You live in Porto.']);
    const middleware = await createStrataMiddleware({ memory, sessionId: (runtime) => String(runtime.configurable?.thread_id), budgetTokens: 1000 });
    const agent = createAgent({ model, tools: [], middleware: [middleware] });
    const ask = async (sessionId: string, text: string) => {
      await agent.invoke({ messages: [new HumanMessage(text)] }, { configurable: { thread_id: sessionId } });
      return model.prompts.at(-1) ?? [];
    };
    const one = await memory.sessions.create({ namespace: 'ana' });
    const two = await memory.sessions.create({ namespace: 'ana' });
    const three = await memory.sessions.create({ namespace: 'ana' });

    await ask(one.id, first);
    const recalled = await ask(two.id, 'Where do I live?');
    expect(knownFacts(recalled)).toMatch(/User lives in Lisbon\./);
    // Only the first session ever said it.
    expect(await memory.export(two.id, { format: 'text' })).not.toMatch(/user: .*Lisbon/);

    await ask(two.id, correction);
    const fresh = await ask(three.id, 'Where do I live now?');
    expect(knownFacts(fresh)).toMatch(/User lives in Porto\./);
    expect(knownFacts(fresh)).not.toMatch(/Lisbon/);

    const history = await memory.facts.list({ namespace: 'ana', includeSuperseded: true });
    const lisbon = history.find((f) => f.object === 'Lisbon');
    const porto = history.find((f) => f.object === 'Porto');
    expect(lisbon).toMatchObject({ supersededBy: porto?.id, degraded: false });
    expect(porto).toMatchObject({ degraded: false });
    expect(porto?.validTo).toBeUndefined();
    expect(memory.stats().derivation.inputTokens).toBe(extractorModel.usage().inputTokens);
    await memory.close();
  });
});

import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { createStrataMiddleware } from '../../src/langchain/index.js';
import type { ExportBundle } from '../../src/services/transfer.js';
import type { Memory } from '../../src/services/memory.js';
import { createTestMemory } from '../helpers.js';
import { knownFacts, ScriptedChatModel } from './scripted-chat-model.js';

const getWeather = tool(async ({ city }: { city: string }) => JSON.stringify({ city, tempC: city === 'Lisbon' ? 21 : 9 }), {
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: z.object({ city: z.string() }),
});

function weatherScript() {
  return [
    new AIMessage({ content: '', tool_calls: [{ id: 'call_lx', name: 'get_weather', args: { city: 'Lisbon' }, type: 'tool_call' }] }),
    'It is 21 °C in Lisbon.',
  ];
}

async function storedTurns(memory: Memory, sessionId: string) {
  const bundle = JSON.parse(await memory.export(sessionId, { format: 'json' })) as ExportBundle;
  return (bundle.sessions[0]?.messages ?? []).map((m) => ({
    role: m.role,
    content: m.content,
    ...(m.toolCalls ? { toolCalls: m.toolCalls } : {}),
    ...(m.toolCallId ? { toolCallId: m.toolCallId } : {}),
  }));
}

const weatherTurns = (question: string) => [
  { role: 'user', content: question },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_lx', name: 'get_weather', args: { city: 'Lisbon' } }] },
  { role: 'tool', content: '{"city":"Lisbon","tempC":21}', toolCallId: 'call_lx' },
  { role: 'assistant', content: 'It is 21 °C in Lisbon.' },
];

describe('createStrataMiddleware', () => {
  it('round-trips tool calls and tool results into the store, each message once', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const model = new ScriptedChatModel(weatherScript());
    const agent = createAgent({ model, tools: [getWeather], middleware: [await createStrataMiddleware({ memory, sessionId: session.id })] });
    const result = await agent.invoke({ messages: [new HumanMessage('Weather in Lisbon?')] });
    expect(result.messages.at(-1)?.text).toBe('It is 21 °C in Lisbon.');
    expect(model.boundTools[0]).toEqual(['get_weather']);
    expect(await storedTurns(memory, session.id)).toEqual(weatherTurns('Weather in Lisbon?'));
    await memory.close();
  });

  it('prompts each model call with strata context: memory of the namespace, then the turn so far', async () => {
    const { memory } = await createTestMemory();
    const earlier = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(earlier.id, { role: 'user', content: 'I live in Lisbon.' });
    const session = await memory.sessions.create({ namespace: 'u1' });
    const model = new ScriptedChatModel(weatherScript());
    const middleware = await createStrataMiddleware({ memory, sessionId: (runtime) => String(runtime.configurable?.thread_id), budgetTokens: 800 });
    const agent = createAgent({ model, tools: [getWeather], systemPrompt: 'You are a weather bot.', middleware: [middleware] });
    await agent.invoke({ messages: [new HumanMessage('What is the weather where I live?')] }, { configurable: { thread_id: session.id } });
    const [first, second] = model.prompts;
    expect(first?.[0]?.text).toBe('You are a weather bot.');
    expect(knownFacts(first ?? [])).toMatch(/User lives in Lisbon/);
    expect(first?.at(-1)?.text).toBe('What is the weather where I live?');
    expect(second?.slice(-3).map((m) => m.type)).toEqual(['human', 'ai', 'tool']);
    expect(knownFacts(second ?? [])).toMatch(/User lives in Lisbon/);
    expect(await storedTurns(memory, session.id)).toEqual(weatherTurns('What is the weather where I live?'));
    await memory.close();
  });

  it('appends each message once across runs of a checkpointed thread', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const model = new ScriptedChatModel([...weatherScript(), 'You asked about Lisbon.']);
    const middleware = await createStrataMiddleware({ memory, sessionId: session.id });
    const agent = createAgent({ model, tools: [getWeather], middleware: [middleware], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'thread-1' } };
    await agent.invoke({ messages: [new HumanMessage('Weather in Lisbon?')] }, config);
    const second = await agent.invoke({ messages: [new HumanMessage('Which city did I ask about?')] }, config);
    expect(second.messages).toHaveLength(6);
    expect(await storedTurns(memory, session.id)).toEqual([
      ...weatherTurns('Weather in Lisbon?'),
      { role: 'user', content: 'Which city did I ask about?' },
      { role: 'assistant', content: 'You asked about Lisbon.' },
    ]);
    // The checkpointed history is not sent twice: strata's context replaces it.
    expect(model.prompts[2]?.filter((m) => m.text === 'Weather in Lisbon?')).toHaveLength(1);
    await memory.close();
  });

  it('rejects an empty session id with a hint', async () => {
    const { memory } = await createTestMemory();
    const agent = createAgent({
      model: new ScriptedChatModel(['unused']),
      tools: [],
      middleware: [await createStrataMiddleware({ memory, sessionId: (runtime) => String(runtime.configurable?.thread_id ?? '') })],
    });
    await expect(agent.invoke({ messages: [new HumanMessage('hi')] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await memory.close();
  });
});

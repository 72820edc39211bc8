import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { z } from 'zod';
import type { OpenAiStub } from '@strata/testkit';
import type { ContextResult } from '@strata/core';
import { createStrataMiddleware, sessionIdForThread } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';
import { chatRequests, getWeather, shapeOf, startStubModel, storedTurns, textOf, weatherReplies, weatherTurns } from './openai-stub-model.js';

let stub: OpenAiStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('createStrataMiddleware in a createAgent loop over HTTP', () => {
  it('round-trips tool calls and tool results into the store, each message once', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const started = await startStubModel({ chat: weatherReplies() });
    stub = started.stub;
    const agent = createAgent({ model: started.model, tools: [getWeather], middleware: [createStrataMiddleware({ memory, sessionId: session.id })] });
    const result = await agent.invoke({ messages: [new HumanMessage('Weather in Lisbon?')] });
    expect(result.messages.at(-1)?.text).toBe('It is 21 °C in Lisbon.');
    const [first, second] = chatRequests(stub);
    expect(first?.tools?.map((t) => t.function.name)).toEqual(['get_weather']);
    expect(shapeOf(second).slice(-3)).toEqual([{ role: 'user' }, { role: 'assistant', calls: ['call_lx'] }, { role: 'tool', answers: 'call_lx' }]);
    expect(await storedTurns(memory, session.id)).toEqual(weatherTurns('Weather in Lisbon?'));
    await memory.close();
  });

  it("sends exactly one system message: the agent's systemPrompt, then strata's memory and stored system turns", async () => {
    const { memory } = await createTestMemory();
    const earlier = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(earlier.id, { role: 'user', content: 'I live in Lisbon.' });
    const session = await memory.sessions.create({ namespace: 'u1' });
    const started = await startStubModel({ chat: weatherReplies() });
    stub = started.stub;
    const contexts: ContextResult[] = [];
    const middleware = createStrataMiddleware({ memory, budgetTokens: 800, onContext: (c) => contexts.push(c) });
    const agent = createAgent({ model: started.model, tools: [getWeather], systemPrompt: 'You are a weather bot.', middleware: [middleware] });
    // A system message in the input is stored as a system turn; it must not become a second system message.
    await agent.invoke({ messages: [new SystemMessage('Answer in Celsius.'), new HumanMessage('What is the weather where I live?')] }, { configurable: { thread_id: session.id } });
    for (const request of chatRequests(stub)) {
      const systems = request.messages.filter((m) => m.role === 'system');
      expect(systems).toHaveLength(1);
      expect(request.messages[0]?.role).toBe('system');
      const text = textOf(systems[0]);
      expect(text.startsWith('You are a weather bot.\n\n')).toBe(true);
      expect(text).toMatch(/Known facts:[\s\S]*User lives in Lisbon/);
      expect(text).toMatch(/Answer in Celsius\.$/);
      expect(textOf(request.messages.find((m) => m.role === 'user'))).toBe('What is the weather where I live?');
    }
    // The agent's prompt is counted in the budget strata fills.
    expect(contexts[0]?.tokens).toBeLessThanOrEqual(800);
    expect(contexts[0]?.messages[0]?.content.startsWith('You are a weather bot.')).toBe(true);
    await memory.close();
  });

  it('keeps the user turn and its tool call/result pairing within a 20-token budget, and says it is over', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(session.id, [
      { role: 'user', content: 'Earlier I asked about Porto.' },
      { role: 'assistant', content: 'Porto is sunny.' },
    ]);
    const bigReport = tool(async () => 'rain '.repeat(2000), { name: 'weather_report', description: 'Long weather report.', schema: z.object({}) });
    const started = await startStubModel({ chat: [{ toolCalls: [{ id: 'call_big', name: 'weather_report', args: {} }] }, 'Rain all week.'] });
    stub = started.stub;
    const contexts: ContextResult[] = [];
    const agent = createAgent({
      model: started.model,
      tools: [bigReport],
      systemPrompt: 'You are terse.',
      middleware: [createStrataMiddleware({ memory, sessionId: session.id, budgetTokens: 20, onContext: (c) => contexts.push(c) })],
    });
    await agent.invoke({ messages: [new HumanMessage('Full weather report, please.')] });
    const [first, second] = chatRequests(stub);
    expect(shapeOf(first)).toEqual([{ role: 'system' }, { role: 'user' }]);
    expect(textOf(first?.messages[1])).toBe('Full weather report, please.');
    expect(shapeOf(second)).toEqual([{ role: 'system' }, { role: 'user' }, { role: 'assistant', calls: ['call_big'] }, { role: 'tool', answers: 'call_big' }]);
    expect(textOf(second?.messages[3])).toHaveLength('rain '.repeat(2000).length);
    const last = contexts.at(-1);
    // the agent's prompt was sent within strata's context, so counted, and alone in its system message
    expect(last?.messages[0]?.content).toBe('You are terse.');
    expect(textOf(second?.messages[0])).toBe('You are terse.');
    expect(last?.overBudget).toBe(true);
    expect(last?.tokens).toBeGreaterThan(20);
    const current = last?.manifest.filter((m) => m.kind === 'turn' && m.included) ?? [];
    expect(current).toHaveLength(3);
    expect(current.every((m) => /current turn/.test(m.reason))).toBe(true);
    // the earlier turns were cut first
    expect(second?.messages.some((m) => textOf(m).includes('Porto'))).toBe(false);
    await memory.close();
  });

  it('starts a session for an unknown thread_id in the namespace, with title and metadata of the run', async () => {
    const { memory } = await createTestMemory();
    const started = await startStubModel({ chat: ['Hello Ana.', 'Your name is Ana.', 'Hi.'] });
    stub = started.stub;
    const middleware = createStrataMiddleware({
      memory,
      // LangChain hands hooks only the context fields of the middleware's own schema
      contextSchema: z.object({ userId: z.string(), channel: z.string() }),
      namespace: (runtime) => (runtime.context as { userId: string }).userId,
      session: { title: 'Support chat', metadata: (runtime) => ({ channel: (runtime.context as { channel: string }).channel }) },
    });
    const agent = createAgent({ model: started.model, tools: [], middleware: [middleware] });
    const threadId = randomUUID();
    const run = (text: string) => agent.invoke({ messages: [new HumanMessage(text)] }, { configurable: { thread_id: threadId }, context: { userId: 'user-7', channel: 'web' } });
    await run('Hi, I am Ana.');
    await run('What is my name?');
    expect(await memory.sessions.get(threadId)).toMatchObject({ id: threadId, namespace: 'user-7', title: 'Support chat', metadata: { channel: 'web' } });
    expect((await storedTurns(memory, threadId)).map((t) => t.content)).toEqual(['Hi, I am Ana.', 'Hello Ana.', 'What is my name?', 'Your name is Ana.']);
    // A thread id strata cannot take as an id (surrounding spaces) maps to a stable derived one.
    await agent.invoke({ messages: [new HumanMessage('Hi')] }, { configurable: { thread_id: ' spaced ' }, context: { userId: 'user-7', channel: 'web' } });
    expect(await memory.sessions.get(sessionIdForThread(' spaced '))).toMatchObject({ namespace: 'user-7' });
    expect(sessionIdForThread(' spaced ')).toMatch(/^thread-[0-9a-f]{32}$/);
    await memory.close();
  });

  it('refuses a thread of another namespace, an unknown session without a namespace, and a run without a session id', async () => {
    const { memory } = await createTestMemory();
    const other = await memory.sessions.create({ namespace: 'someone-else' });
    const started = await startStubModel({ chat: [] });
    stub = started.stub;
    const agentWith = (options: Partial<Parameters<typeof createStrataMiddleware>[0]>) =>
      createAgent({ model: started.model, tools: [], middleware: [createStrataMiddleware({ memory, ...options })] });
    const ask = { messages: [new HumanMessage('hi')] };
    await expect(agentWith({ namespace: 'u1' }).invoke(ask, { configurable: { thread_id: other.id } })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(agentWith({}).invoke(ask, { configurable: { thread_id: 'unknown-thread' } })).rejects.toMatchObject({ code: 'NOT_FOUND', hint: expect.stringMatching(/namespace/) });
    await expect(agentWith({ namespace: 'u1' }).invoke(ask)).rejects.toMatchObject({ code: 'INVALID_INPUT', hint: expect.stringMatching(/thread_id/) });
    await expect(agentWith({ sessionId: () => '' }).invoke(ask)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(chatRequests(stub)).toHaveLength(0);
    expect(await storedTurns(memory, other.id)).toEqual([]);
    await memory.close();
  });
});

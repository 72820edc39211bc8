import { afterEach, describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { withStrataMemory, type ReplyOutcome } from '../../src/index.js';
import type { ContextResult, ExportBundle } from '@strata/core';
import type { OpenAiStub } from '@strata/testkit';
import { createTestMemory } from '../helpers.js';
import { knownFacts, ScriptedChatModel } from './scripted-chat-model.js';
import { chatRequests, shapeOf, startStubModel, storedTurns, textOf } from './openai-stub-model.js';

let stub: OpenAiStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('withStrataMemory', () => {
  it('prompts the model with a fact stated many turns earlier, within the budget', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const model = new ScriptedChatModel([...Array.from({ length: 8 }, (_, i) => `Reply ${i}.`), 'You work at Initech.']);
    const contexts: ContextResult[] = [];
    const chat = withStrataMemory(model, { memory, sessionId: session.id, budgetTokens: 600, onContext: (c) => contexts.push(c) });
    await chat.invoke('I work at Initech as a data engineer.');
    for (let i = 0; i < 7; i++) await chat.invoke(`Small talk ${i} about gardening tomatoes.`);
    const reply = await chat.invoke(new HumanMessage('Where do I work?'));
    expect(reply.text).toBe('You work at Initech.');
    const prompt = model.prompts.at(-1) ?? [];
    // The statement itself has left the recent turns; the fact brings it back.
    expect(prompt.filter((m) => m.type === 'human').map((m) => m.text)).not.toContain('I work at Initech as a data engineer.');
    expect(knownFacts(prompt)).toMatch(/Initech/);
    expect(prompt.at(-1)?.text).toBe('Where do I work?');
    const last = contexts.at(-1);
    expect(last?.query).toBe('Where do I work?');
    expect(last?.tokens).toBeLessThanOrEqual(600);
    expect(last?.manifest.some((m) => m.kind === 'fact' && m.included)).toBe(true);
    await memory.close();
  });

  it('appends the user turn and the reply, tool calls and tool results included', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const toolCall = { id: 'call_7', name: 'weather', args: { city: 'Oslo' }, type: 'tool_call' as const };
    const model = new ScriptedChatModel([new AIMessage({ content: '', tool_calls: [toolCall] }), 'It is -3 °C in Oslo.']);
    const chat = withStrataMemory(model, { memory, sessionId: session.id });
    const first = await chat.invoke('Weather in Oslo?');
    expect((first as AIMessage).tool_calls).toEqual([toolCall]);
    await chat.invoke([new ToolMessage({ content: '{"temp":-3}', tool_call_id: 'call_7', name: 'weather' })]);
    const bundle = JSON.parse(await memory.export(session.id, { format: 'json' })) as ExportBundle;
    expect(bundle.sessions[0]?.messages.map((m) => [m.role, m.content, m.toolCalls ?? null, m.toolCallId ?? null])).toEqual([
      ['user', 'Weather in Oslo?', null, null],
      ['assistant', '', [{ id: 'call_7', name: 'weather', args: { city: 'Oslo' } }], null],
      ['tool', '{"temp":-3}', null, 'call_7'],
      ['assistant', 'It is -3 °C in Oslo.', null, null],
    ]);
    // The second call's prompt pairs the stored tool call with its result, as providers require.
    expect(model.prompts[1]?.map((m) => m.type)).toEqual(['human', 'ai', 'tool']);
    await memory.close();
  });

  it('reports what became of each reply: stored, or not stored because the model failed', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const outcomes: ReplyOutcome[] = [];
    // the script holds one reply: the second call fails in the model
    const chat = withStrataMemory(new ScriptedChatModel(['Hello, Ana!']), { memory, sessionId: session.id, onReply: (o) => outcomes.push(o) });
    await chat.invoke('Hi, my name is Ana.');
    await expect(chat.invoke('And again?')).rejects.toThrow(/no reply left/);
    expect(outcomes).toEqual([
      { sessionId: session.id, stored: true },
      { sessionId: session.id, stored: false, reason: 'failed', error: expect.objectContaining({ message: expect.stringMatching(/no reply left/) }) },
    ]);
    expect((await storedTurns(memory, session.id)).map((t) => t.content)).toEqual(['Hi, my name is Ana.', 'Hello, Ana!', 'And again?']);
    await memory.close();
  });

  it('works with FakeListChatModel and returns its reply', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const chat = withStrataMemory(new FakeListChatModel({ responses: ['Hello, Ana!'] }), { memory, sessionId: session.id });
    expect((await chat.invoke('Hi, my name is Ana.')).text).toBe('Hello, Ana!');
    expect(
      (await memory.export(session.id, { format: 'text' }))
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(/^\[[^\]]+\] /, '')),
    ).toEqual(['user: Hi, my name is Ana.', 'assistant: Hello, Ana!']);
    await memory.close();
  });

  it("sends one system message over HTTP: the systemPrompt, strata's memory, then stored system turns", async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const started = await startStubModel({ chat: ['Noted.', 'You live in Lisbon.'] });
    stub = started.stub;
    const contexts: ContextResult[] = [];
    const chat = withStrataMemory(started.model, { memory, sessionId: session.id, systemPrompt: 'You are a concise assistant.', budgetTokens: 400, onContext: (c) => contexts.push(c) });
    await chat.invoke([new SystemMessage('Always answer in English.'), new HumanMessage('I live in Lisbon.')]);
    expect((await chat.invoke('Where do I live?')).text).toBe('You live in Lisbon.');
    const last = chatRequests(stub)[1];
    expect(last?.messages.filter((m) => m.role === 'system')).toHaveLength(1);
    const system = textOf(last?.messages[0]);
    expect(system.startsWith('You are a concise assistant.\n\n')).toBe(true);
    expect(system).toMatch(/Known facts:[\s\S]*Lisbon/);
    expect(system).toMatch(/Always answer in English\.$/);
    expect(shapeOf(last).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    // counted in the budget strata filled
    expect(contexts[1]?.tokens).toBeLessThanOrEqual(400);
    expect(contexts[1]?.messages[0]?.content.startsWith('You are a concise assistant.')).toBe(true);
    await memory.close();
  });

  it('keeps the user turn and its tool call/result pairing within a 20-token budget', async () => {
    const { memory } = await createTestMemory();
    const started = await startStubModel({ chat: [{ toolCalls: [{ id: 'call_r', name: 'weather_report', args: {} }] }, 'Rain all week.'] });
    stub = started.stub;
    const contexts: ContextResult[] = [];
    // an unknown session, created in the namespace on first use
    const chat = withStrataMemory(started.model, { memory, sessionId: 'chat-42', namespace: 'u1', budgetTokens: 20, onContext: (c) => contexts.push(c) });
    await chat.invoke('Full weather report, please.');
    const reply = await chat.invoke([new ToolMessage({ content: 'rain '.repeat(1500), tool_call_id: 'call_r' })]);
    expect(reply.text).toBe('Rain all week.');
    const second = chatRequests(stub)[1];
    expect(shapeOf(second)).toEqual([{ role: 'user' }, { role: 'assistant', calls: ['call_r'] }, { role: 'tool', answers: 'call_r' }]);
    expect(textOf(second?.messages[0])).toBe('Full weather report, please.');
    expect(contexts[1]?.overBudget).toBe(true);
    expect(await memory.sessions.get('chat-42')).toMatchObject({ namespace: 'u1' });
    expect((await storedTurns(memory, 'chat-42')).map((t) => t.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await memory.close();
  });
});

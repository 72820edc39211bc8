import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { StrataChatMessageHistory } from '../../src/langchain/index.js';
import type { ExportBundle } from '../../src/services/transfer.js';
import type { Memory } from '../../src/services/memory.js';
import { createTestMemory } from '../helpers.js';
import { ScriptedChatModel } from './scripted-chat-model.js';

async function storedTurns(memory: Memory, sessionId: string) {
  const bundle = JSON.parse(await memory.export(sessionId, { format: 'json' })) as ExportBundle;
  return (bundle.sessions[0]?.messages ?? []).map((m) => ({
    role: m.role,
    content: m.content,
    ...(m.toolCalls ? { toolCalls: m.toolCalls } : {}),
    ...(m.toolCallId ? { toolCallId: m.toolCallId } : {}),
  }));
}

describe('StrataChatMessageHistory', () => {
  it('stores each LangChain message type as its strata role, tool calls intact, and reads them back', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const history = new StrataChatMessageHistory({ memory, sessionId: session.id });
    await history.addMessages([
      new SystemMessage('You are terse.'),
      new HumanMessage('Weather in Oslo?'),
      new AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: 'weather', args: { city: 'Oslo' }, type: 'tool_call' }] }),
      new ToolMessage({ content: '{"temp":-3}', tool_call_id: 'call_1', name: 'weather' }),
    ]);
    await history.addMessage(new AIMessage('It is -3 °C in Oslo.'));
    expect(await storedTurns(memory, session.id)).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'weather', args: { city: 'Oslo' } }] },
      { role: 'tool', content: '{"temp":-3}', toolCallId: 'call_1' },
      { role: 'assistant', content: 'It is -3 °C in Oslo.' },
    ]);
    const messages = await history.getMessages();
    expect(messages.map((m) => [m.type, m.text])).toEqual([
      ['system', 'You are terse.'], ['human', 'Weather in Oslo?'], ['ai', ''], ['tool', '{"temp":-3}'], ['ai', 'It is -3 °C in Oslo.'],
    ]);
    expect((messages[2] as AIMessage).tool_calls).toEqual([{ id: 'call_1', name: 'weather', args: { city: 'Oslo' }, type: 'tool_call' }]);
    expect((messages[3] as ToolMessage).tool_call_id).toBe('call_1');
    await memory.close();
  });

  it('returns every verbatim turn, also those already folded into summaries', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const history = new StrataChatMessageHistory({ memory, sessionId: session.id });
    for (let i = 0; i < 10; i++) await history.addUserMessage(`Turn ${i} about tomatoes.`);
    const context = await memory.getContext(session.id, { budgetTokens: 2000 });
    expect(context.manifest.some((m) => m.kind === 'summary' && m.included)).toBe(true);
    expect((await history.getMessages()).map((m) => m.text)).toEqual(Array.from({ length: 10 }, (_, i) => `Turn ${i} about tomatoes.`));
    await memory.close();
  });

  it('clear() forgets the messages and what was derived from them, and keeps the session writable', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const history = new StrataChatMessageHistory({ memory, sessionId: session.id });
    await history.addUserMessage('I live in Lisbon.');
    expect((await memory.facts.list({ namespace: 'u1' })).map((f) => f.text)).toEqual(['User lives in Lisbon.']);
    await history.clear();
    expect(await history.getMessages()).toEqual([]);
    expect(await memory.facts.list({ namespace: 'u1' })).toEqual([]);
    await history.addAIMessage('Hello again.');
    expect((await history.getMessages()).map((m) => m.text)).toEqual(['Hello again.']);
    await memory.close();
  });

  it('creates an unknown session in the given namespace, and without one reports NOT_FOUND', async () => {
    const { memory } = await createTestMemory();
    await new StrataChatMessageHistory({ memory, sessionId: 'chat-7', namespace: 'u9' }).addUserMessage('hi');
    expect(await memory.sessions.get('chat-7')).toMatchObject({ id: 'chat-7', namespace: 'u9', lastSeq: 1 });
    const missing = new StrataChatMessageHistory({ memory, sessionId: 'nope' });
    await expect(missing.getMessages()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await memory.close();
  });

  it('backs RunnableWithMessageHistory: each turn is stored once and the next call sees the history', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const prompt = ChatPromptTemplate.fromMessages([['system', 'You are helpful.'], new MessagesPlaceholder('history'), ['human', '{input}']]);
    const chain = new RunnableWithMessageHistory({
      runnable: prompt.pipe(new FakeListChatModel({ responses: ['Lisbon is lovely.', 'You live in Lisbon.'] })),
      getMessageHistory: (sessionId: string) => new StrataChatMessageHistory({ memory, sessionId }),
      inputMessagesKey: 'input',
      historyMessagesKey: 'history',
    });
    const config = { configurable: { sessionId: session.id } };
    expect((await chain.invoke({ input: 'I live in Lisbon.' }, config)).text).toBe('Lisbon is lovely.');
    expect((await chain.invoke({ input: 'Where do I live?' }, config)).text).toBe('You live in Lisbon.');
    expect(await storedTurns(memory, session.id)).toEqual([
      { role: 'user', content: 'I live in Lisbon.' },
      { role: 'assistant', content: 'Lisbon is lovely.' },
      { role: 'user', content: 'Where do I live?' },
      { role: 'assistant', content: 'You live in Lisbon.' },
    ]);
    await memory.close();
  });

  it('hands the stored history to the model on the next call', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const model = new ScriptedChatModel(['Noted.', 'Porto.']);
    const prompt = ChatPromptTemplate.fromMessages([new MessagesPlaceholder('history'), ['human', '{input}']]);
    const chain = new RunnableWithMessageHistory({
      runnable: prompt.pipe(model),
      getMessageHistory: (sessionId: string) => new StrataChatMessageHistory({ memory, sessionId }),
      inputMessagesKey: 'input',
      historyMessagesKey: 'history',
    });
    const config = { configurable: { sessionId: session.id } };
    await chain.invoke({ input: 'My city is Porto.' }, config);
    await chain.invoke({ input: 'Which city?' }, config);
    expect(model.prompts[1]?.map((m) => [m.type, m.text])).toEqual([['human', 'My city is Porto.'], ['ai', 'Noted.'], ['human', 'Which city?']]);
    await memory.close();
  });
});

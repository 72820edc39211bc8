import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { StrataChatMessageHistory } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';
import { ScriptedChatModel } from './scripted-chat-model.js';
import { storedTurns } from './openai-stub-model.js';

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
      ['system', 'You are terse.'],
      ['human', 'Weather in Oslo?'],
      ['ai', ''],
      ['tool', '{"temp":-3}'],
      ['ai', 'It is -3 °C in Oslo.'],
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

  it('reads an unknown session as empty, and creates it on the first addMessages in the given namespace', async () => {
    const { memory } = await createTestMemory();
    const history = new StrataChatMessageHistory({ memory, sessionId: 'chat-7', namespace: 'u9', title: 'Support', metadata: { channel: 'web' } });
    expect(await history.getMessages()).toEqual([]);
    await history.clear();
    expect(await memory.sessions.get('chat-7')).toBeNull();
    await history.addUserMessage('hi');
    expect(await memory.sessions.get('chat-7')).toMatchObject({ id: 'chat-7', namespace: 'u9', title: 'Support', metadata: { channel: 'web' }, lastSeq: 1 });
    expect((await history.getMessages()).map((m) => m.text)).toEqual(['hi']);
    await memory.close();
  });

  it('refuses to add to an unknown session without a namespace, and to use a session of another namespace', async () => {
    const { memory } = await createTestMemory();
    const missing = new StrataChatMessageHistory({ memory, sessionId: 'nope' });
    expect(await missing.getMessages()).toEqual([]);
    await expect(missing.addUserMessage('hi')).rejects.toMatchObject({ code: 'NOT_FOUND', hint: expect.stringMatching(/namespace/) });
    expect(await memory.sessions.get('nope')).toBeNull();
    const theirs = await memory.sessions.create({ namespace: 'someone-else' });
    await memory.append(theirs.id, { role: 'user', content: 'my secret' });
    const mine = new StrataChatMessageHistory({ memory, sessionId: theirs.id, namespace: 'u1' });
    await expect(mine.getMessages()).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(mine.addUserMessage('hi')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await memory.messages(theirs.id)).map((m) => m.content)).toEqual(['my secret']);
    await memory.close();
  });

  it('backs RunnableWithMessageHistory from the first call of an invented session id', async () => {
    const { memory } = await createTestMemory();
    const chain = new RunnableWithMessageHistory({
      runnable: ChatPromptTemplate.fromMessages([new MessagesPlaceholder('history'), ['human', '{input}']]).pipe(new FakeListChatModel({ responses: ['Hi!', 'Bye!'] })),
      getMessageHistory: (sessionId: string) => new StrataChatMessageHistory({ memory, sessionId, namespace: 'u1' }),
      inputMessagesKey: 'input',
      historyMessagesKey: 'history',
    });
    const config = { configurable: { sessionId: randomUUID() } };
    await chain.invoke({ input: 'Hello' }, config);
    await chain.invoke({ input: 'Goodbye' }, config);
    expect((await storedTurns(memory, config.configurable.sessionId)).map((t) => t.content)).toEqual(['Hello', 'Hi!', 'Goodbye', 'Bye!']);
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
    expect(model.prompts[1]?.map((m) => [m.type, m.text])).toEqual([
      ['human', 'My city is Porto.'],
      ['ai', 'Noted.'],
      ['human', 'Which city?'],
    ]);
    await memory.close();
  });
});

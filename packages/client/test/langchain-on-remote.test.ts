import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { createMemory, type Memory, type MemoryApi } from '@strata/core';
import { StrataChatMessageHistory, StrataRetriever } from '@strata/langchain';
import { createRemoteMemory } from '../src/index.js';
import { type ServedMemory, serveOverHttp } from './support/serve-over-http.js';

describe('@strata/langchain over a remote memory, unchanged', () => {
  let local: Memory;
  let served: ServedMemory;
  let remote: MemoryApi;

  beforeEach(async () => {
    local = await createMemory();
    served = await serveOverHttp(local);
    remote = createRemoteMemory({ url: served.url });
  });

  afterEach(async () => {
    await remote.close();
    await served.close();
    await local.close();
  });

  it('StrataChatMessageHistory creates the session, stores every message type with tool calls intact, reads them back and clears', async () => {
    const history = new StrataChatMessageHistory({ memory: remote, sessionId: 'chat-1', namespace: 'u1' });
    expect(await history.getMessages()).toEqual([]);
    await history.addMessages([
      new SystemMessage('You are terse.'),
      new HumanMessage('Weather in Oslo?'),
      new AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: 'weather', args: { city: 'Oslo' }, type: 'tool_call' }] }),
      new ToolMessage({ content: '{"temp":-3}', tool_call_id: 'call_1', name: 'weather' }),
    ]);
    await history.addMessage(new AIMessage('It is -3 °C in Oslo.'));
    // the server's memory holds what an in-process history would have stored
    expect((await local.sessions.get('chat-1'))?.namespace).toBe('u1');
    expect((await local.messages('chat-1')).map((m) => [m.role, m.content, m.toolCallId ?? null])).toEqual([
      ['system', 'You are terse.', null],
      ['user', 'Weather in Oslo?', null],
      ['assistant', '', null],
      ['tool', '{"temp":-3}', 'call_1'],
      ['assistant', 'It is -3 °C in Oslo.', null],
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
    await history.clear();
    expect(await history.getMessages()).toEqual([]);
    expect(await local.messages('chat-1')).toEqual([]);
  });

  it('StrataRetriever finds the facts and turns of its namespace only', async () => {
    const alice = await remote.sessions.create({ namespace: 'alice' });
    await remote.append(alice.id, { role: 'user', content: 'I live in Lisbon and I adopted a cat called Miso.' });
    const bob = await remote.sessions.create({ namespace: 'bob' });
    await remote.append(bob.id, { role: 'user', content: 'I live in Oslo and my cat is called Pixel.' });
    await remote.flush();
    const retriever = new StrataRetriever({ memory: remote, namespace: 'alice', k: 5 });
    const docs = await retriever.invoke('What is the cat called?');
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.some((d) => d.pageContent.includes('Miso'))).toBe(true);
    expect(docs.some((d) => d.pageContent.includes('Pixel'))).toBe(false);
    const facts = await new StrataRetriever({ memory: remote, namespace: 'alice', kinds: ['fact'] }).invoke('Where does the user live?');
    expect(facts.map((d) => d.metadata.kind)).toEqual(facts.map(() => 'fact'));
    expect(facts.some((d) => d.pageContent.includes('Lisbon'))).toBe(true);
  });
});

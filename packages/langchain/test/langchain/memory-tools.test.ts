import { afterEach, describe, expect, it } from 'vitest';
import { HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { startOpenAiStub, type ChatCompletionRequest, type OpenAiStub, type StubChatReply } from '@strata/testkit';
import type { Memory } from '@strata/core';
import { createForgetTool, createMemoryTools, createRecallTool, createRememberTool, MEMORY_NOTE_KEY, notesSessionId, type RememberArtifact } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';

const call = (name: string, args: Record<string, unknown>, id = `call_${name}`) => ({ id, name, args, type: 'tool_call' as const });

async function factsOf(memory: Memory, namespace = 'u1') {
  return (await memory.facts.list({ namespace })).map((f) => ({ id: f.id, text: f.text, sources: f.sourceMessageIds }));
}

describe('memory tools called directly', () => {
  it('remember stores a marked note in the namespace notes session and returns the facts filed from it', async () => {
    const { memory } = await createTestMemory();
    const remember = createRememberTool({ memory, namespace: 'u1' });
    const answer = await remember.invoke({ text: 'I live in Lisbon.' });
    expect(await memory.sessions.get(notesSessionId('u1'))).toMatchObject({ namespace: 'u1', title: 'Notes of the memory tools' });
    const [note, ...rest] = await memory.messages(notesSessionId('u1'));
    expect(rest).toEqual([]);
    expect(note).toMatchObject({ role: 'user', content: 'I live in Lisbon.', metadata: { [MEMORY_NOTE_KEY]: { tool: 'remember' } } });
    const facts = await factsOf(memory);
    expect(facts).toEqual([{ id: expect.any(String), text: 'User lives in Lisbon.', sources: [note!.id] }]);
    expect(answer).toBe(`Remembered as ${note!.id}. strata filed 1 fact from it:\n- [fact ${facts[0]!.id}] User lives in Lisbon.`);
    await memory.close();
  });

  it('remember says when no fact was filed, and the note is still found by recall', async () => {
    const { memory } = await createTestMemory();
    const [remember, recall] = createMemoryTools({ memory, namespace: 'u1' });
    const message = await remember.invoke(call('remember', { text: 'Prefers answers without emoji.' }));
    const artifact = (message as ToolMessage).artifact as RememberArtifact;
    expect(artifact).toEqual({ messageId: expect.stringMatching(/^msg_/), sessionId: notesSessionId('u1'), facts: [] });
    expect(message.content).toBe(`Remembered as ${artifact.messageId}. No fact was filed from it: the note is stored and recall finds it by its words.`);
    expect((await memory.messages(notesSessionId('u1')))[0]?.metadata).toEqual({ [MEMORY_NOTE_KEY]: { tool: 'remember', toolCallId: 'call_remember' } });
    expect(await recall.invoke({ query: 'emoji answers' })).toMatch(new RegExp(`^- \\[turn ${artifact.messageId} \\| \\d{4}-\\d\\d-\\d\\d\\] Prefers answers without emoji\\.`));
    await memory.close();
  });

  it('remember writes to the session of the run when sessionId is given, creating it in the namespace', async () => {
    const { memory } = await createTestMemory();
    const remember = createRememberTool({ memory, namespace: 'u1', sessionId: (config) => String(config.configurable?.thread_id) });
    await remember.invoke({ text: 'My sister is called Mia.' }, { configurable: { thread_id: 'chat-9' } });
    expect(await memory.sessions.get('chat-9')).toMatchObject({ namespace: 'u1', lastSeq: 1 });
    expect((await memory.messages('chat-9')).map((m) => m.content)).toEqual(['My sister is called Mia.']);
    expect(await memory.sessions.get(notesSessionId('u1'))).toBeFalsy();
    await memory.close();
  });

  it('remember refuses a session of another namespace and stores nothing', async () => {
    const { memory } = await createTestMemory();
    await memory.sessions.create({ namespace: 'u2', id: 'shared' });
    const remember = createRememberTool({ memory, namespace: 'u1', sessionId: 'shared' });
    await expect(remember.invoke({ text: 'I live in Lisbon.' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await memory.messages('shared')).toEqual([]);
    await memory.close();
  });

  it('recall answers one line per hit with kind and id, and hands the hits as the artifact', async () => {
    const { memory } = await createTestMemory();
    const [remember, recall] = createMemoryTools({ memory, namespace: 'u1' });
    expect(await recall.invoke({ query: 'where does the user live' })).toBe('Nothing in memory matches this query.');
    await remember.invoke({ text: 'I live in Lisbon.' });
    const message = (await recall.invoke(call('recall', { query: 'where does the user live', k: 3 }))) as ToolMessage;
    const hits = await memory.search({ namespace: 'u1', query: 'where does the user live', k: 3 });
    expect(message.artifact).toEqual(hits);
    const [fact] = await factsOf(memory);
    const [note] = await memory.messages(notesSessionId('u1'));
    const lines = String(message.content).split('\n');
    expect(lines.map((line) => /^- \[(\w+) (\S+) \| \d{4}-\d\d-\d\d\] /.exec(line)?.slice(1))).toEqual(hits.map((h) => [h.kind, h.id]));
    expect(lines).toContain(`- [fact ${fact!.id} | 2026-11-20] User lives in Lisbon.`);
    expect(lines).toContain(`- [turn ${note!.id} | 2026-11-20] I live in Lisbon.`);
    await memory.close();
  });

  it('forget deletes a note by its id, and the facts that only it stated', async () => {
    const { memory } = await createTestMemory();
    const [remember, , forget] = createMemoryTools({ memory, namespace: 'u1' });
    await remember.invoke({ text: 'I live in Lisbon.' });
    const [note] = await memory.messages(notesSessionId('u1'));
    expect(await forget.invoke({ id: note!.id })).toBe(`Forgot message ${note!.id}. Derived from it: 1 fact deleted, 0 kept with other sources, 0 summaries to redo.`);
    expect(await memory.messages(notesSessionId('u1'))).toEqual([]);
    expect(await factsOf(memory)).toEqual([]);
    await memory.close();
  });

  it('forget deletes a fact by deleting the messages it came from, and reports them', async () => {
    const { memory } = await createTestMemory();
    const [, , forget] = createMemoryTools({ memory, namespace: 'u1' });
    const session = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(session.id, [
      { role: 'user', content: 'I work at Initech.' },
      { role: 'assistant', content: 'Nice.' },
    ]);
    const [fact] = await factsOf(memory);
    const message = (await forget.invoke(call('forget', { id: fact!.id }))) as ToolMessage;
    expect(message).toMatchObject({ status: 'success', tool_call_id: 'call_forget', artifact: { messages: 1, facts: 1 } });
    expect(message.content).toMatch(new RegExp(`^Forgot fact ${fact!.id} and the 1 message it came from\\.`));
    expect((await memory.messages(session.id)).map((m) => m.content)).toEqual(['Nice.']);
    expect(await factsOf(memory)).toEqual([]);
    await memory.close();
  });

  it('forget answers an unknown id, or one of another namespace, with an error the model reads, forgetting nothing', async () => {
    const { memory } = await createTestMemory();
    const namespace = (config: { configurable?: Record<string, unknown> }) => String(config.configurable?.userId);
    const [remember, , forget] = createMemoryTools({ memory, namespace });
    await remember.invoke({ text: 'I live in Lisbon.' }, { configurable: { userId: 'ana' } });
    const [anasNote] = await memory.messages(notesSessionId('ana'));
    const asBen = { configurable: { userId: 'ben' } };
    expect(await forget.invoke({ id: anasNote!.id }, asBen)).toMatch(/^Error: no message or fact with id "msg_\w+" in memory; nothing was forgotten\./);
    const message = (await forget.invoke(call('forget', { id: 'fact_nope' }), asBen)) as ToolMessage;
    expect(message).toMatchObject({ status: 'error', tool_call_id: 'call_forget', name: 'forget', content: expect.stringContaining('"fact_nope"') });
    expect(await memory.messages(notesSessionId('ana'))).toHaveLength(1);
    expect(await factsOf(memory, 'ana')).toHaveLength(1);
    await memory.close();
  });

  it('refuses options that are not memory tools options', async () => {
    const { memory } = await createTestMemory();
    expect(() => createMemoryTools({ memory, namespace: '' })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    expect(() => createForgetTool({ memory: {} as Memory, namespace: 'u1' })).toThrow(/memory must be a strata Memory/);
    await expect(createRecallTool({ memory, namespace: () => '' }).invoke({ query: 'x' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await memory.close();
  });
});

describe('memory tools in a createAgent loop with ChatOpenAI', () => {
  let stub: OpenAiStub | undefined;
  afterEach(async () => stub?.close());

  /** The tool results of the latest request the model got. */
  const toolResults = (request: ChatCompletionRequest) => request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
  const toolMessage = (messages: BaseMessage[], name: string) => messages.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.name === name);

  it('remembers, recalls and forgets through the model tool calls; strata holds what each step left', async () => {
    const { memory } = await createTestMemory();
    const script: ((request: ChatCompletionRequest) => StubChatReply)[] = [];
    const seen: ChatCompletionRequest[] = [];
    stub = await startOpenAiStub({
      chat: (request) => {
        seen.push(request);
        const next = script.shift();
        if (!next) throw new Error('no scripted reply left');
        return next(request);
      },
    });
    const model = new ChatOpenAI({ model: 'stub', apiKey: 'test', configuration: { baseURL: `${stub.url}/v1` } });
    const agent = createAgent({ model, tools: [...createMemoryTools({ memory, namespace: 'u1' })] });
    const ask = async (text: string) => (await agent.invoke({ messages: [new HumanMessage(text)] })).messages;

    // 1. remember: the note and its fact are stored, and the model is told both ids.
    script.push(
      () => ({ toolCalls: [{ name: 'remember', args: { text: 'I live in Lisbon.' } }] }),
      () => 'Noted.',
    );
    await ask('Please remember that I live in Lisbon.');
    const [note] = await memory.messages(notesSessionId('u1'));
    const [fact] = await factsOf(memory);
    expect(note).toMatchObject({ content: 'I live in Lisbon.', metadata: { [MEMORY_NOTE_KEY]: { tool: 'remember', toolCallId: expect.any(String) } } });
    expect(fact).toMatchObject({ text: 'User lives in Lisbon.', sources: [note!.id] });
    expect(toolResults(seen.at(-1)!)).toEqual([`Remembered as ${note!.id}. strata filed 1 fact from it:\n- [fact ${fact!.id}] User lives in Lisbon.`]);

    // 2. recall: the model reads the fact with its id; the hits ride along as the artifact.
    script.push(
      () => ({ toolCalls: [{ name: 'recall', args: { query: 'where does the user live' } }] }),
      () => 'You live in Lisbon.',
    );
    const recalled = await ask('Where do I live?');
    expect(toolResults(seen.at(-1)!)[0]).toContain(`[fact ${fact!.id} | `);
    expect(toolMessage(recalled, 'recall')?.artifact).toEqual(await memory.search({ namespace: 'u1', query: 'where does the user live', k: 5 }));
    expect(await memory.messages(notesSessionId('u1'))).toHaveLength(1);

    // 3. forget the fact by the id the model read in the recall result: fact and note are gone.
    const factIdIn = (request: ChatCompletionRequest) => /\[fact (\S+) \|/.exec(toolResults(request).join('\n'))?.[1] ?? 'none';
    script.push(() => ({ content: 'Let me check first.', toolCalls: [{ name: 'recall', args: { query: 'where the user lives' } }] }));
    script.push(
      (request) => ({ toolCalls: [{ name: 'forget', args: { id: factIdIn(request) } }] }),
      () => 'Forgotten.',
    );
    const forgotten = await ask('Forget where I live.');
    expect(toolMessage(forgotten, 'forget')).toMatchObject({ status: 'success', content: expect.stringMatching(new RegExp(`^Forgot fact ${fact!.id} and the 1 message it came from`)) });
    expect(await factsOf(memory)).toEqual([]);
    expect(await memory.messages(notesSessionId('u1'))).toEqual([]);

    // 4. an unknown id: the model gets an error result and the run goes on.
    script.push(
      () => ({ toolCalls: [{ name: 'forget', args: { id: fact!.id } }] }),
      () => 'It was already forgotten.',
    );
    const again = await ask('Forget it again.');
    expect(toolMessage(again, 'forget')).toMatchObject({ status: 'error' });
    expect(toolResults(seen.at(-1)!)).toEqual([expect.stringMatching(/^Error: no message or fact with id "fact_[\w-]+" in memory; nothing was forgotten\./)]);
    expect(again.at(-1)?.text).toBe('It was already forgotten.');
    await memory.close();
  });
});

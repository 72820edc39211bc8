// createStrataMcpServer driven by the MCP SDK's own Client over its in-memory transport: what a
// model sees (tool list, result text), what a program reads (structuredContent), and tenancy.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Memory, MemoryApi } from '@strata/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createStrataMcpServer, type Scope } from '../src/index.js';
import { createTestMemory, overriding } from './test-memory.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

async function memoryForTest(): Promise<Memory> {
  const memory = await createTestMemory();
  opened.push(memory);
  return memory;
}

async function connect(memory: MemoryApi, namespace: string, options: { scopes?: Scope[]; onError?: (error: unknown) => void } = {}): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createStrataMcpServer({ memory, namespace, ...options }).connect(serverSide);
  const client = new Client({ name: 'strata-test', version: '1.0.0' });
  await client.connect(clientSide);
  opened.push(client);
  // as clients do: with the tools listed, the client checks every result against the tool's output schema
  await client.listTools();
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult & { text: string; data: Record<string, unknown> }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { ...result, text: first?.type === 'text' ? first.text : '', data: (result.structuredContent ?? {}) as Record<string, unknown> };
}

const ALL_TOOLS = ['forget', 'get_context', 'list_sessions', 'recall', 'remember'];

describe('createStrataMcpServer: tools and resources', () => {
  it('offers five described tools with input and output schemas, a transcript template and the facts resource', async () => {
    const client = await connect(await memoryForTest(), 'me');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(100);
      expect(tool.description, tool.name).toMatch(/Returns /);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    const recall = tools.find((t) => t.name === 'recall');
    expect(recall?.inputSchema.required).toEqual(['query']);
    expect(recall?.inputSchema.properties?.k).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(tools.find((t) => t.name === 'forget')?.annotations?.destructiveHint).toBe(true);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['strata://sessions/{id}/transcript']);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['strata://facts']);
  });

  it('remembers into one MCP session it creates on first use, then recalls, lists and reads it back', async () => {
    const memory = await memoryForTest();
    const client = await connect(memory, 'me');
    const first = await call(client, 'remember', { text: 'I keep my bicycle in the basement storage room.' });
    expect(first.isError).toBeFalsy();
    const sessionId = first.data.sessionId as string;
    expect(first.text).toBe(`Remembered (message ${first.data.messageId} in session ${sessionId}).`);
    const second = await call(client, 'remember', { text: 'Noted: the storage room key is on the blue hook.', role: 'assistant' });
    expect(second.data).toMatchObject({ sessionId, seq: 2 });
    const session = await memory.sessions.get(sessionId);
    expect(session).toMatchObject({ namespace: 'me', title: 'MCP' });
    expect((await memory.messages(sessionId)).map((m) => [m.role, m.content])).toEqual([
      ['user', 'I keep my bicycle in the basement storage room.'],
      ['assistant', 'Noted: the storage room key is on the blue hook.'],
    ]);

    const recalled = await call(client, 'recall', { query: 'where is the bicycle', k: 1 });
    expect(recalled.text).toMatch(/^1\. \[turn, \d{4}-\d{2}-\d{2}\] I keep my bicycle in the basement storage room\. \(id msg_[\w-]+\)$/);
    expect(recalled.data.hits).toEqual([expect.objectContaining({ id: first.data.messageId, kind: 'turn', sessionId })]);

    const listed = await call(client, 'list_sessions');
    expect(listed.text).toMatch(new RegExp(`^${sessionId}  MCP  2 turns  updated `));
    expect(listed.data.sessions).toEqual([expect.objectContaining({ id: sessionId, title: 'MCP', turns: 2 })]);

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['strata://facts', `strata://sessions/${sessionId}/transcript`]);
    const transcript = await client.readResource({ uri: `strata://sessions/${sessionId}/transcript` });
    expect(transcript.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('the blue hook') });
  });

  it('writes to a named session of its namespace, and gives context with memory, recent turns and what it included', async () => {
    const memory = await memoryForTest();
    const named = await memory.sessions.create({ namespace: 'me', title: 'kitchen' });
    const client = await connect(memory, 'me');
    await call(client, 'remember', { text: 'I prefer tea over coffee.', sessionId: named.id });
    expect((await memory.sessions.list({ namespace: 'me' })).map((s) => s.id)).toEqual([named.id]);
    await memory.flush();
    const facts = await client.readResource({ uri: 'strata://facts' });
    expect((facts.contents[0] as { text: string }).text).toMatch(/^- User prefers tea over coffee\. \(since \d{4}-\d{2}-\d{2}; id fact_[\w-]+\)$/);

    const context = await call(client, 'get_context', { query: 'what does the user drink?', budgetTokens: 400, sessionId: named.id });
    expect(context.text).toContain('Known facts:\n- User prefers tea over coffee.');
    expect(context.text).toContain('Most recent turns:\n- [user, ');
    expect(context.text).toMatch(/\(included .*1 fact.*; cut \d+ for the budget; \d+ of 400 tokens\)$/);
    expect(context.data).toMatchObject({ sessionId: named.id, budgetTokens: 400, recentTurns: [expect.objectContaining({ content: 'I prefer tea over coffee.' })] });

    // without a sessionId: the MCP session, created for it
    const fresh = await call(client, 'get_context', { query: 'what does the user drink?' });
    expect(fresh.isError).toBeFalsy();
    expect(await memory.sessions.get(fresh.data.sessionId as string)).toMatchObject({ namespace: 'me', title: 'MCP' });
  });

  it('finds its MCP session among many newer sessions instead of making a second one', async () => {
    const memory = await memoryForTest();
    const client = await connect(memory, 'me');
    const { sessionId } = (await call(client, 'remember', { text: 'The first note.' })).data;
    for (let i = 0; i < 120; i++) await memory.sessions.create({ namespace: 'me', title: `other ${i}` });
    expect((await call(client, 'remember', { text: 'The second note.' })).data.sessionId).toBe(sessionId);
    expect((await memory.sessions.list({ namespace: 'me' })).filter((s) => s.title === 'MCP')).toHaveLength(1);
  });

  it('forgets messages and facts by id, with what was derived from them', async () => {
    const memory = await memoryForTest();
    const client = await connect(memory, 'me');
    const kept = await call(client, 'remember', { text: 'I prefer tea over coffee.' });
    await memory.flush();
    const [fact] = await memory.facts.list({ namespace: 'me' });
    const forgotFact = await call(client, 'forget', { factIds: [fact?.id] });
    expect(forgotFact.data).toMatchObject({ facts: 1, messages: 0 });
    expect(await memory.facts.list({ namespace: 'me' })).toEqual([]);
    const forgotMessage = await call(client, 'forget', { messageIds: [kept.data.messageId] });
    expect(forgotMessage.text).toBe('Forgot 1 message(s), 0 fact(s) and 0 summary(ies).');
    expect(await memory.messages(kept.data.sessionId as string)).toEqual([]);
    expect((await call(client, 'recall', { query: 'tea or coffee' })).text).toBe('Nothing in memory matches.');
  });
});

describe('createStrataMcpServer: one namespace, the caller scopes, and errors', () => {
  it("answers another namespace's ids exactly like unknown ids, and forgets and shows nothing of it", async () => {
    const memory = await memoryForTest();
    const theirs = await memory.sessions.create({ namespace: 'them', title: 'MCP' });
    const [secret] = await memory.append(theirs.id, { role: 'user', content: 'I prefer tea over coffee, and my locker code is 4417.' });
    await memory.flush();
    const [theirFact] = await memory.facts.list({ namespace: 'them' });
    const client = await connect(memory, 'me');
    const same = async (name: string, foreign: Record<string, unknown>, unknown: Record<string, unknown>, id: string, fake: string) => {
      const [a, b] = [await call(client, name, foreign), await call(client, name, unknown)];
      expect([a.isError, b.isError], name).toEqual([true, true]);
      expect(a.text.replaceAll(id, 'ID'), name).toBe(b.text.replaceAll(fake, 'ID'));
      return a.text;
    };
    expect(await same('forget', { messageIds: [secret?.id] }, { messageIds: ['msg_unknown'] }, secret?.id ?? '', 'msg_unknown')).toMatch(/^NOT_FOUND: /);
    await same('forget', { factIds: [theirFact?.id] }, { factIds: ['fact_unknown'] }, theirFact?.id ?? '', 'fact_unknown');
    expect(await same('remember', { text: 'x', sessionId: theirs.id }, { text: 'x', sessionId: 'ses_unknown' }, theirs.id, 'ses_unknown')).toMatch(/\nhint: Pass an id that list_sessions returns/);
    await same('get_context', { query: 'locker', sessionId: theirs.id }, { query: 'locker', sessionId: 'ses_unknown' }, theirs.id, 'ses_unknown');
    const readError = (uri: string) =>
      client.readResource({ uri }).then(
        () => 'read',
        (error: Error) => error.message,
      );
    expect((await readError(`strata://sessions/${theirs.id}/transcript`)).replace(theirs.id, 'ID')).toBe((await readError('strata://sessions/ses_unknown/transcript')).replace('ses_unknown', 'ID'));
    expect(await readError('strata://sessions/%E0%A4%A/transcript')).toMatch(/NOT_FOUND/);

    expect((await call(client, 'recall', { query: 'locker code tea coffee' })).text).toBe('Nothing in memory matches.');
    expect((await call(client, 'list_sessions')).text).toBe('No sessions yet.');
    expect((await client.readResource({ uri: 'strata://facts' })).contents[0]).toMatchObject({ text: 'No facts yet.' });
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['strata://facts']);
    // nothing of theirs changed: their session is not reused, their turn and fact are still there
    expect(await memory.messages(theirs.id)).toHaveLength(1);
    expect(await memory.facts.list({ namespace: 'them' })).toHaveLength(1);
    expect(await memory.sessions.list({ namespace: 'me' })).toEqual([]);
  });

  it('offers only the tools the scopes allow, and the resources only with read', async () => {
    const memory = await memoryForTest();
    const names = async (scopes: Scope[]) => (await (await connect(memory, 'me', { scopes })).listTools()).tools.map((t) => t.name).sort();
    expect(await names(['read'])).toEqual(['get_context', 'list_sessions', 'recall']);
    expect(await names(['write'])).toEqual(['remember']);
    expect(await names(['forget'])).toEqual(['forget']);
    expect(await names(['read', 'write', 'forget'])).toEqual(ALL_TOOLS);
    expect(await names(['admin'])).toEqual(ALL_TOOLS);
    const writer = await connect(memory, 'me', { scopes: ['write'] });
    expect((await call(writer, 'forget', { messageIds: ['msg_x'] })).text).toMatch(/Tool forget not found/);
    await expect(writer.listResources()).rejects.toThrow(/Method not found/);
  });

  it('answers bad arguments with an error result that says what to change', async () => {
    const client = await connect(await memoryForTest(), 'me');
    const tooMany = await call(client, 'recall', { query: 'x', k: 51 });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.text).toMatch(/Invalid arguments for tool recall: .*k/s);
    const both = await call(client, 'forget', { messageIds: ['msg_a'], factIds: ['fact_b'] });
    expect(both.text).toBe('INVALID_INPUT: pass exactly one of messageIds and factIds\nhint: Forget messages and facts in two calls.');
    expect((await call(client, 'forget', {})).text).toMatch(/^INVALID_INPUT: pass exactly one/);
    expect((await call(client, 'remember', { text: '' })).isError).toBe(true);
  });

  it('shows a server-side failure as a generic error, without its message or stack, and tells onError', async () => {
    const memory = await memoryForTest();
    const failing = overriding(memory, {
      search: async () => {
        throw new Error('disk I/O error at /var/lib/strata/memory.sqlite');
      },
    });
    const told: unknown[] = [];
    const client = await connect(failing, 'me', { onError: (error) => told.push(error) });
    const result = await call(client, 'recall', { query: 'anything' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^INTERNAL: internal error\nhint: /);
    expect(JSON.stringify(result)).not.toMatch(/sqlite|\/var\/lib|at .*\.ts/);
    expect(told).toEqual([expect.objectContaining({ message: 'disk I/O error at /var/lib/strata/memory.sqlite' })]);
  });
});

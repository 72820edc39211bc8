import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Memory } from '@strata/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createStrataMcpServer, type Scope } from '../src/index.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { createTestMemory, TestKeyStore } from './test-memory.js';

const open: { memory?: Memory; client?: Client; server?: TestServer }[] = [];
afterEach(async () => {
  for (const { client, server, memory } of open.splice(0)) {
    await client?.close();
    await server?.close();
    await memory?.close();
  }
});

async function connected(memory: Memory, namespace: string, scopes?: Scope[]): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createStrataMcpServer({ memory, namespace, ...(scopes ? { scopes } : {}) }).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  open.push({ client });
  return client;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('the MCP server over a memory (SDK Client)', () => {
  it('offers five tools with descriptions and input schemas, and two resources', async () => {
    const memory = await createTestMemory();
    open.push({ memory });
    const client = await connected(memory, 'me');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['forget', 'get_context', 'list_sessions', 'recall', 'remember']);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
    }
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['strata://sessions/{sessionId}/transcript']);
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('strata://facts');
  });

  it('remembers, recalls, gives context, lists sessions, reads resources and forgets', async () => {
    const memory = await createTestMemory();
    open.push({ memory });
    const client = await connected(memory, 'me');
    const remembered = await client.callTool({ name: 'remember', arguments: { text: 'I keep my bicycle in the basement storage room.' } });
    const { messageId, sessionId } = (remembered as CallToolResult).structuredContent as { messageId: string; sessionId: string };
    expect((await memory.messages(sessionId)).map((m) => m.content)).toEqual(['I keep my bicycle in the basement storage room.']);
    expect(textOf(await client.callTool({ name: 'recall', arguments: { query: 'where is the bicycle' } }))).toContain('basement storage room');
    expect(textOf(await client.callTool({ name: 'get_context', arguments: { query: 'where is my bicycle?', budgetTokens: 400 } }))).toMatch(/candidates included/);
    expect(textOf(await client.callTool({ name: 'list_sessions', arguments: {} }))).toContain(sessionId);
    const transcript = await client.readResource({ uri: `strata://sessions/${sessionId}/transcript` });
    expect((transcript.contents[0] as { text: string }).text).toContain('basement storage room');
    await memory.flush();
    const facts = await client.readResource({ uri: 'strata://facts' });
    expect((facts.contents[0] as { text: string }).text.length).toBeGreaterThan(0);
    expect(textOf(await client.callTool({ name: 'forget', arguments: { messageIds: [messageId] } }))).toMatch(/Forgot 1 messages/);
    expect(await memory.messages(sessionId)).toEqual([]);
  });

  it("keeps to its namespace: another namespace's ids answer like unknown ones and nothing is forgotten", async () => {
    const memory = await createTestMemory();
    open.push({ memory });
    const theirs = await memory.sessions.create({ namespace: 'them' });
    const [secret] = await memory.append(theirs.id, { role: 'user', content: 'Their private note about the harbour.' });
    const client = await connected(memory, 'me');
    const foreign = (await client.callTool({ name: 'forget', arguments: { messageIds: [secret!.id] } })) as CallToolResult;
    const unknown = (await client.callTool({ name: 'forget', arguments: { messageIds: ['msg_unknown'] } })) as CallToolResult;
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign).replace(secret!.id, 'ID')).toBe(textOf(unknown).replace('msg_unknown', 'ID'));
    expect(await memory.messages(theirs.id)).toHaveLength(1);
    expect(textOf(await client.callTool({ name: 'recall', arguments: { query: 'private note harbour' } }))).toBe('Nothing in memory matches.');
    const written = (await client.callTool({ name: 'remember', arguments: { text: 'x', sessionId: theirs.id } })) as CallToolResult;
    expect(written.isError).toBe(true);
    expect(textOf(written)).toMatch(/NOT_FOUND/);
    await expect(client.readResource({ uri: `strata://sessions/${theirs.id}/transcript` })).rejects.toThrow(/no session/);
    expect(await memory.messages(theirs.id)).toHaveLength(1);
  });

  it('offers only the tools its scopes allow', async () => {
    const memory = await createTestMemory();
    open.push({ memory });
    const reader = await connected(memory, 'me', ['read']);
    expect((await reader.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_context', 'list_sessions', 'recall']);
    const writer = await connected(memory, 'me', ['write']);
    expect((await writer.listTools()).tools.map((t) => t.name)).toEqual(['remember']);
    await expect(writer.listResources()).rejects.toThrow();
  });
});

describe('MCP over Streamable HTTP at /mcp of the HTTP API', () => {
  it('lists and calls tools with a bearer key, in the key namespace; no key is 401', async () => {
    const memory = await createTestMemory();
    const keys = new TestKeyStore();
    const server = await startTestServer({ memory, auth: { keys } });
    open.push({ memory, server });
    const { secret } = await keys.create({ namespace: 'team-a', scopes: ['read', 'write'] });
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    open.push({ client });
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_context', 'list_sessions', 'recall', 'remember']);
    const { sessionId } = ((await client.callTool({ name: 'remember', arguments: { text: 'The staging database restarts every Sunday.' } })) as CallToolResult).structuredContent as {
      sessionId: string;
    };
    expect((await memory.sessions.get(sessionId))?.namespace).toBe('team-a');
    expect(textOf(await client.callTool({ name: 'recall', arguments: { query: 'staging database restart' } }))).toContain('every Sunday');
    const anonymous = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/problem\+json/);
  });
});

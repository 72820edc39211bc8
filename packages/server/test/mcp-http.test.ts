// MCP over Streamable HTTP on a real port, driven by the MCP SDK's Client and its
// StreamableHTTPClientTransport: handleMcpRequest in an app of one's own, and /mcp of
// createStrataServer behind API keys.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Memory } from '@strata/core';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { handleMcpRequest } from '../src/index.js';
import { startTestServer } from './support/test-server.js';
import { createTestMemory, overriding, TestKeyStore } from './test-memory.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

async function memoryForTest(): Promise<Memory> {
  const memory = await createTestMemory();
  opened.push(memory);
  return memory;
}

/** An app of one's own that serves handleMcpRequest at /mcp, on 127.0.0.1, port 0. */
async function serveOwnApp(memory: Memory): Promise<string> {
  const app = new Hono().all('/mcp', (c) => handleMcpRequest(c.req.raw, { memory, namespace: 'own', scopes: ['read', 'write'] }));
  const server = await new Promise<Server>((resolve) => {
    const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(listening as Server));
  });
  opened.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())).finally(() => server.closeAllConnections()) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

async function connect(url: string, secret?: string): Promise<Client> {
  const client = new Client({ name: 'strata-http-test', version: '1.0.0' });
  const headers: Record<string, string> = secret ? { authorization: `Bearer ${secret}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  opened.push(client);
  // as clients do: with the tools listed, the client checks every result against the tool's output schema
  await client.listTools();
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { text: string; data: Record<string, unknown> }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { ...result, text: first?.type === 'text' ? first.text : '', data: (result.structuredContent ?? {}) as Record<string, unknown> };
}

const rpc = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: JSON.stringify(body),
});

describe('handleMcpRequest in an app of its own', () => {
  it('serves several clients at once statelessly, in JSON, and answers GET and DELETE with 405', async () => {
    const memory = await memoryForTest();
    const url = await serveOwnApp(memory);
    const [a, b] = await Promise.all([connect(url), connect(url)]);
    expect((await a.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_context', 'list_sessions', 'recall', 'remember']);
    const [left, right] = await Promise.all([call(a, 'remember', { text: 'The left window sticks in winter.' }), call(b, 'remember', { text: 'The right window faces the yard.' })]);
    expect([left.isError, right.isError]).toEqual([undefined, undefined]);
    expect((await call(b, 'recall', { query: 'which window sticks' })).text).toContain('The left window sticks in winter.');
    expect((await memory.sessions.list({ namespace: 'own' })).every((s) => s.namespace === 'own')).toBe(true);

    const listed = await fetch(url, rpc({ jsonrpc: '2.0', id: 7, method: 'tools/list' }));
    expect(listed.headers.get('content-type')).toMatch(/^application\/json/);
    expect(listed.headers.get('mcp-session-id')).toBeNull();
    expect(((await listed.json()) as { id: number; result: { tools: unknown[] } }).result.tools).toHaveLength(4);
    for (const method of ['GET', 'DELETE']) {
      const refused = await fetch(url, { method, headers: { accept: 'text/event-stream' } });
      expect(refused.status, method).toBe(405);
      expect(refused.headers.get('allow')).toBe('POST');
      expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    }
  });
});

describe('/mcp of createStrataServer', () => {
  it("works in the key's namespace with the key's scopes, and sees nothing of another key's namespace", async () => {
    const memory = await memoryForTest();
    const keys = new TestKeyStore();
    const server = await startTestServer({ memory, auth: { keys } });
    opened.push(server);
    const url = `${server.url}/mcp`;
    const writer = await connect(url, (await keys.create({ namespace: 'team-a', scopes: ['read', 'write'] })).secret);
    expect((await writer.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_context', 'list_sessions', 'recall', 'remember']);
    const stored = await call(writer, 'remember', { text: 'The staging database restarts every Sunday.' });
    expect((await memory.sessions.get(stored.data.sessionId as string))?.namespace).toBe('team-a');
    expect((await call(writer, 'recall', { query: 'staging database restart' })).text).toContain('every Sunday');

    const other = await connect(url, (await keys.create({ namespace: 'team-b', scopes: ['admin'] })).secret);
    expect((await other.listTools()).tools).toHaveLength(5);
    expect((await call(other, 'recall', { query: 'staging database restart' })).text).toBe('Nothing in memory matches.');
    const forget = await call(other, 'forget', { messageIds: [stored.data.messageId] });
    expect(forget.text).toMatch(/^NOT_FOUND: /);
    expect(await memory.messages(stored.data.sessionId as string)).toHaveLength(1);
  });

  it("tells the server's onError of a tool's server-side failure, with the request, and shows the model a generic error", async () => {
    const memory = await memoryForTest();
    const failing = overriding(memory, {
      search: async () => {
        throw new Error('disk I/O error at /var/lib/strata/memory.sqlite');
      },
    });
    const keys = new TestKeyStore();
    const told: { error: unknown; path: string }[] = [];
    const server = await startTestServer({ memory: failing, auth: { keys }, onError: (error, request) => told.push({ error, path: new URL(request.url).pathname }) });
    opened.push(server);
    const client = await connect(`${server.url}/mcp`, (await keys.create({ namespace: 'team-a', scopes: ['read'] })).secret);
    const result = await call(client, 'recall', { query: 'anything' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^INTERNAL: internal error/);
    expect(JSON.stringify(result)).not.toMatch(/sqlite|\/var\/lib/);
    expect(told).toEqual([{ error: expect.objectContaining({ message: 'disk I/O error at /var/lib/strata/memory.sqlite' }), path: '/mcp' }]);
  });

  it('refuses a request without a key, or with a revoked one, with a 401 problem', async () => {
    const memory = await memoryForTest();
    const keys = new TestKeyStore();
    const server = await startTestServer({ memory, auth: { keys } });
    opened.push(server);
    const { key, secret } = await keys.create({ namespace: 'team-a', scopes: ['read'] });
    await keys.revoke(key.id);
    for (const headers of [{}, { authorization: `Bearer ${secret}` }] as Record<string, string>[]) {
      const answer = await fetch(`${server.url}/mcp`, rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers));
      expect(answer.status).toBe(401);
      expect(answer.headers.get('content-type')).toMatch(/problem\+json/);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    await expect(connect(`${server.url}/mcp`, secret)).rejects.toThrow(/401/);
  });
});

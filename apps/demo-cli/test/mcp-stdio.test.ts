// `strata mcp` as MCP clients start it: a child process speaking JSON-RPC on stdin/stdout. Two
// clients this project did not write drive it: the MCP SDK's Client, and the MCP Inspector in
// CLI mode (@modelcontextprotocol/inspector 0.15.0, the last release that runs on Node 20), which
// also reaches /mcp of `strata serve` over Streamable HTTP (its CLI sends no headers: open mode).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createSandbox, root, runCli } from './support/cli.js';
import { startServe } from './support/serve-process.js';

const sandbox = createSandbox('mcp');
afterAll(() => sandbox.dispose());

/** The `strata` command as npm links it, which is what an MCP client's config names. */
const strata = join(root, 'apps/demo-cli/bin/strata.js');
const db = join(sandbox.dir, 'mcp.sqlite');
const inspector = join(root, 'node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');
const ALL_TOOLS = ['forget', 'get_context', 'list_sessions', 'recall', 'remember'];

async function stdioClient(args: string[], env = sandbox.env): Promise<Client> {
  const client = new Client({ name: 'strata-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [strata, ...args], env: env as Record<string, string>, cwd: root, stderr: 'pipe' }));
  await client.listTools();
  return client;
}

async function withClient(args: string[], use: (client: Client) => Promise<void>, env = sandbox.env): Promise<void> {
  const client = await stdioClient(args, env);
  try {
    await use(client);
  } finally {
    await client.close();
  }
}

async function textOf(pending: Promise<unknown>): Promise<string> {
  const first = ((await pending) as CallToolResult).content[0];
  return first?.type === 'text' ? first.text : '';
}

async function createKey(...args: string[]): Promise<{ key: { id: string }; secret: string }> {
  const created = await runCli(['keys', 'create', ...args, '--json'], { env: sandbox.env });
  expect(created.code, created.stderr).toBe(0);
  return JSON.parse(created.stdout) as { key: { id: string }; secret: string };
}

/** `strata mcp --db DB ARGS` exits 1 with the reason on stderr, before writing anything to stdout. */
async function expectRefused(args: string[], reason: RegExp, env = sandbox.env): Promise<void> {
  const result = await runCli(['mcp', '--db', db, ...args], { env, input: '' });
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toMatch(reason);
  expect(result.stdout).toBe('');
}

// biome-ignore lint/suspicious/noExplicitAny: the Inspector prints answers of many shapes
type Inspected = { code: number | null; output: string; json: any };

/** `mcp-inspector --cli ARGS` to its exit; `json` is the answer it printed. */
function inspect(args: string[]): Promise<Inspected> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [inspector, '--cli', ...args], { cwd: root, env: sandbox.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const start = stdout.indexOf('{');
      let json: unknown;
      try {
        json = start < 0 ? undefined : JSON.parse(stdout.slice(start));
      } catch (error) {
        json = { unparsed: String(error) };
      }
      resolve({ code, output: `${stdout}\n${stderr}`, json });
    });
  });
}

describe('strata mcp (stdio) with the SDK Client', () => {
  it('lists the tools, remembers and recalls in its namespace, in the --db file', async () => {
    await withClient(['mcp', '--db', db, '--namespace', 'desk'], async (client) => {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
      expect(await textOf(client.callTool({ name: 'remember', arguments: { text: 'The deploy key rotates on the first Monday of each month.' } }))).toMatch(/^Remembered \(message msg_/);
      expect(await textOf(client.callTool({ name: 'recall', arguments: { query: 'when does the deploy key rotate' } }))).toMatch(
        /^1\. \[turn, \d{4}-\d{2}-\d{2}\] The deploy key rotates on the first Monday of each month\./,
      );
    });
    // kept in that file and namespace, for the next process
    const search = await runCli(['--db', db, '--namespace', 'desk', 'search', 'deploy key', '--json'], { env: sandbox.env });
    expect(search.stdout).toContain('first Monday');
    const elsewhere = await runCli(['--db', db, '--namespace', 'other', 'search', 'deploy key', '--json'], { env: sandbox.env });
    expect(elsewhere.stdout).not.toContain('first Monday');
  });

  it('writes nothing but JSON-RPC to stdout, notes on stderr, and exits 0 when the client closes stdin', async () => {
    const child = spawn(process.execPath, [strata, 'mcp', '--db', db], { cwd: root, env: sandbox.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'list_sessions', arguments: {} } });
    await vi.waitFor(() => expect(stdout).toContain('"id":2'), { timeout: 60_000 });
    child.stdin.end();
    expect(await exited).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { jsonrpc: string; id: number }).id)).toEqual([1, 2]);
    expect(stderr).toMatch(/^strata mcp: serving namespace "default" \(admin; no key\) on stdio/m);
  });

  it("takes an exact key's namespace and scopes, and refuses an unknown or revoked key and another namespace", async () => {
    const { key, secret } = await createKey('--namespace', 'desk', '--scope', 'read');
    await withClient(['mcp', '--db', db, '--key', secret], async (client) => {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_context', 'list_sessions', 'recall']);
      expect(await textOf(client.callTool({ name: 'recall', arguments: { query: 'deploy key' } }))).toContain('first Monday');
    });
    await expectRefused(['--key', `${secret.slice(0, -4)}AAAA`], /unknown or revoked/);
    await expectRefused(['--key', secret, '--namespace', 'elsewhere'], /is for namespace "desk", not "elsewhere"/);
    expect((await runCli(['keys', 'revoke', key.id], { env: sandbox.env })).code).toBe(0);
    await expectRefused(['--key', secret], /unknown or revoked/);
  });

  it('refuses every call from the next one on once its key is revoked while it runs', async () => {
    const { key, secret } = await createKey('--namespace', 'desk', '--scope', 'read,write');
    await withClient(['mcp', '--db', db, '--key', secret], async (client) => {
      expect(await textOf(client.callTool({ name: 'recall', arguments: { query: 'deploy key' } }))).toContain('first Monday');
      expect((await runCli(['keys', 'revoke', key.id], { env: sandbox.env })).code).toBe(0);
      const recall = (await client.callTool({ name: 'recall', arguments: { query: 'deploy key' } })) as CallToolResult;
      expect(recall.isError).toBe(true);
      expect(await textOf(Promise.resolve(recall))).toMatch(new RegExp(`^UNAUTHORIZED: API key ${key.id} was revoked`));
      expect(JSON.stringify(recall)).not.toContain('first Monday');
      const remember = (await client.callTool({ name: 'remember', arguments: { text: 'Written after the revoke.' } })) as CallToolResult;
      expect(remember.isError).toBe(true);
      await expect(client.readResource({ uri: 'strata://facts' })).rejects.toThrow(/UNAUTHORIZED/);
    });
    // nothing was written after the revoke
    const search = await runCli(['--db', db, '--namespace', 'desk', 'search', 'Written after the revoke', '--json'], { env: sandbox.env });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).not.toContain('Written after the revoke');
  });

  it("serves a prefix key (from STRATA_API_KEY) in a chosen namespace within its reach, with the key's scopes", async () => {
    const { secret } = await createKey('--namespace', 'team-', '--prefix', '--scope', 'write');
    const env = { ...sandbox.env, STRATA_API_KEY: secret };
    await expectRefused([], /an MCP server works on one/, env);
    await expectRefused(['--namespace', 'other'], /"other" does not/, env);
    await withClient(
      ['mcp', '--db', db, '--namespace', 'team-blue'],
      async (client) => {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['remember']);
        const remembered = (await client.callTool({ name: 'remember', arguments: { text: 'Blue team standup moved to 9:30.' } })) as CallToolResult;
        const { sessionId } = remembered.structuredContent as { sessionId: string };
        const shown = await runCli(['--db', db, '--namespace', 'team-blue', 'sessions', '--json'], { env: sandbox.env });
        expect(shown.stdout).toContain(sessionId);
      },
      env,
    );
  });
});

describe('strata mcp with the MCP Inspector CLI', () => {
  it('answers tools/list and tools/call over stdio, also when started from an MCP client config file', async () => {
    const server = [process.execPath, strata, 'mcp', '--db', db, '--namespace', 'inspected'];
    const listed = await inspect([...server, '--method', 'tools/list']);
    expect(listed.code, listed.output).toBe(0);
    expect(listed.json.tools.map((t: { name: string }) => t.name).sort()).toEqual(ALL_TOOLS);
    const called = await inspect([...server, '--method', 'tools/call', '--tool-name', 'remember', '--tool-arg', 'text=Our on-call rota changes every Thursday.']);
    expect(called.code, called.output).toBe(0);
    expect(called.json.content[0].text).toMatch(/^Remembered \(message msg_\S+ in session ses_\S+\)\.$/);

    const config = join(sandbox.dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { strata: { command: process.execPath, args: [strata, 'mcp', '--db', db, '--namespace', 'inspected'] } } }));
    const recalled = await inspect(['--config', config, '--server', 'strata', '--method', 'tools/call', '--tool-name', 'recall', '--tool-arg', 'query=on-call rota', 'k=1']);
    expect(recalled.code, recalled.output).toBe(0);
    expect(recalled.json.content[0].text).toMatch(/^1\. \[turn, \d{4}-\d{2}-\d{2}\] Our on-call rota changes every Thursday\./);
  });

  it('answers over Streamable HTTP at /mcp of strata serve', async () => {
    // a data dir without keys: open mode on loopback (the keys of the tests above are in the sandbox's own)
    const serve = await startServe(['--data-dir', join(sandbox.dir, 'open-data'), 'serve', '--port', '0'], sandbox.env);
    try {
      const url = `${serve.url}/mcp?namespace=web`;
      const listed = await inspect([url, '--method', 'tools/list']);
      expect(listed.code, listed.output).toBe(0);
      expect(listed.json.tools.map((t: { name: string }) => t.name).sort()).toEqual(ALL_TOOLS);
      const called = await inspect([url, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'remember', '--tool-arg', 'text=The office plants need water on Fridays.']);
      expect(called.json.content[0].text).toMatch(/^Remembered/);
      const sessions = (await (await fetch(`${serve.url}/v1/sessions?namespace=web`)).json()) as { sessions: { title?: string }[] };
      expect(sessions.sessions.map((s) => s.title)).toEqual(['MCP']);
    } finally {
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
    }
  });
});

// `strata mcp` as MCP clients start it: a child process speaking JSON-RPC on stdio. Two clients
// this project did not write drive it: the official SDK Client, and the MCP Inspector's CLI
// mode (@modelcontextprotocol/inspector 0.15.0, the last that runs on Node 20), which also
// reaches /mcp of `strata serve` over Streamable HTTP (its CLI sends no headers, so open mode).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, createSandbox, root, runCli } from './support/cli.js';
import { startServe } from './support/serve-process.js';

const sandbox = createSandbox('mcp');
afterAll(() => sandbox.dispose());

const inspector = join(root, 'node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');

/** Runs the Inspector in CLI mode and parses the JSON it prints. */
function inspect(args: string[]): Promise<{ code: number | null; json: unknown; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [inspector, '--cli', ...args], { cwd: root, env: sandbox.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const start = output.indexOf('{');
      let json: unknown;
      try {
        json = JSON.parse(output.slice(start));
      } catch {
        json = undefined;
      }
      resolve({ code, json, output });
    });
  });
}

async function stdioClient(args: string[]): Promise<Client> {
  const client = new Client({ name: 'strata-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, ...args], env: sandbox.env as Record<string, string>, cwd: root, stderr: 'pipe' }));
  return client;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('strata mcp (stdio)', () => {
  it('serves the SDK Client: lists the tools, remembers, and recalls in its namespace', async () => {
    const client = await stdioClient(['--namespace', 'desk', 'mcp']);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['forget', 'get_context', 'list_sessions', 'recall', 'remember']);
      await client.callTool({ name: 'remember', arguments: { text: 'The deploy key rotates on the first Monday of each month.' } });
      expect(textOf(await client.callTool({ name: 'recall', arguments: { query: 'when does the deploy key rotate' } }))).toContain('first Monday');
    } finally {
      await client.close();
    }
    // stored in the file, in that namespace
    const search = await runCli(['--namespace', 'desk', 'search', 'deploy key', '--json'], { env: sandbox.env });
    expect(search.stdout).toContain('first Monday');
  });

  it("takes a key's namespace and scopes, and refuses an unknown key", async () => {
    const created = await runCli(['keys', 'create', '--namespace', 'reader-ns', '--scope', 'read', '--json'], { env: sandbox.env });
    expect(created.code, created.stderr).toBe(0);
    const { secret } = JSON.parse(created.stdout) as { secret: string };
    const client = await stdioClient(['mcp', '--key', secret]);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_context', 'list_sessions', 'recall']);
      expect(textOf(await client.callTool({ name: 'recall', arguments: { query: 'deploy key' } }))).toBe('Nothing in memory matches.');
    } finally {
      await client.close();
    }
    const refused = await runCli(['mcp', '--key', `${secret.slice(0, -4)}AAAA`], { env: sandbox.env, input: '' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/unknown or revoked/);
    expect(refused.stdout).toBe('');
  });

  it('answers the MCP Inspector CLI: tools/list and tools/call over stdio', async () => {
    const server = [process.execPath, bin, '--namespace', 'inspected', 'mcp'];
    const listed = await inspect([...server, '--method', 'tools/list']);
    expect(listed.code, listed.output).toBe(0);
    expect((listed.json as { tools: { name: string }[] }).tools.map((t) => t.name).sort()).toEqual(['forget', 'get_context', 'list_sessions', 'recall', 'remember']);
    const called = await inspect([...server, '--method', 'tools/call', '--tool-name', 'remember', '--tool-arg', 'text=Our on-call rota changes every Thursday.']);
    expect(called.code, called.output).toBe(0);
    expect(textOf(called.json)).toMatch(/^Remembered \(message msg_/);
    const recalled = await inspect([...server, '--method', 'tools/call', '--tool-name', 'recall', '--tool-arg', 'query=on-call rota']);
    expect(textOf(recalled.json)).toContain('every Thursday');
  });

  it('answers the MCP Inspector CLI over Streamable HTTP at /mcp of strata serve', async () => {
    // a data dir without keys: open mode on loopback (the keys of the test above stay in the other one)
    const serve = await startServe(['--data-dir', join(sandbox.dir, 'open-data'), 'serve', '--port', '0'], sandbox.env);
    try {
      const listed = await inspect([`${serve.url}/mcp?namespace=web`, '--method', 'tools/list']);
      expect(listed.code, listed.output).toBe(0);
      expect((listed.json as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('get_context');
      const called = await inspect([`${serve.url}/mcp?namespace=web`, '--method', 'tools/call', '--tool-name', 'remember', '--tool-arg', 'text=The office plants need water on Fridays.']);
      expect(textOf(called.json)).toMatch(/^Remembered/);
      const sessions = (await (await fetch(`${serve.url}/v1/sessions?namespace=web`)).json()) as { sessions: { title?: string }[] };
      expect(sessions.sessions.map((s) => s.title)).toEqual(['MCP']);
    } finally {
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
    }
  });
});

// A third-party MCP client against /mcp of createStrataServer on a real port: the MCP Inspector
// in CLI mode (@modelcontextprotocol/inspector 0.15.0, the last release that runs on Node 20; a
// devDependency of apps/demo-cli), a child process that prints each answer as JSON. Its CLI
// sends no headers, so the server runs in open mode (no keys, ?namespace= picks the namespace).
// `strata mcp` on stdio meets the Inspector in apps/demo-cli/test/mcp-stdio.test.ts.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Memory } from '@strata/core';
import { requireService } from '@strata/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import { createTestMemory } from './test-memory.js';

/** The Inspector's own bin (`mcp-inspector`), run with `--cli`. */
function inspectorBin(): string {
  const manifest = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json');
  const bin = join(dirname(manifest), 'cli/build/cli.js');
  if (!existsSync(bin)) throw new Error(`no ${bin}`);
  return bin;
}

const skipped = await requireService('MCP Inspector CLI (@modelcontextprotocol/inspector, installed with apps/demo-cli)', async () => void inspectorBin());

interface Inspected {
  code: number | null;
  stdout: string;
  stderr: string;
  // biome-ignore lint/suspicious/noExplicitAny: the Inspector prints answers of many shapes
  json: any;
}

/** `mcp-inspector --cli ARGS`, to its exit; `json` is what it printed on stdout, parsed. */
function inspect(args: string[]): Promise<Inspected> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [inspectorBin(), '--cli', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
        json = { unparsed: stdout, error: String(error) };
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

describe.skipIf(skipped !== null)(`the MCP Inspector CLI over Streamable HTTP${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
  let memory: Memory;
  let server: TestServer;
  let url: string;
  beforeAll(async () => {
    memory = await createTestMemory();
    server = await startTestServer({ memory });
    url = `${server.url}/mcp?namespace=inspected`;
  });
  afterAll(async () => {
    await server?.close();
    await memory?.close();
  });

  it('lists the tools (transport detected from the /mcp path)', async () => {
    const listed = await inspect([url, '--method', 'tools/list']);
    expect(listed.code, listed.stderr).toBe(0);
    const tools = listed.json.tools as { name: string; description: string; inputSchema: { required?: string[] } }[];
    expect(tools.map((t) => t.name).sort()).toEqual(['forget', 'get_context', 'list_sessions', 'recall', 'remember']);
    expect(tools.find((t) => t.name === 'remember')?.inputSchema.required).toEqual(['text']);
  });

  it('remembers, recalls with a numeric k, and forgets with a JSON array of ids (--transport http)', async () => {
    const http = [url, '--transport', 'http', '--method', 'tools/call'];
    const remembered = await inspect([...http, '--tool-name', 'remember', '--tool-arg', 'text=The office plants need water on Fridays.']);
    expect(remembered.code, remembered.stderr).toBe(0);
    expect(remembered.json.content[0].text).toMatch(/^Remembered \(message msg_\S+ in session ses_\S+\)\.$/);
    const { messageId, sessionId } = remembered.json.structuredContent as { messageId: string; sessionId: string };
    expect(await memory.sessions.get(sessionId)).toMatchObject({ namespace: 'inspected', title: 'MCP' });

    const recalled = await inspect([...http, '--tool-name', 'recall', '--tool-arg', 'query=when do the plants need water', 'k=1']);
    expect(recalled.json.content[0].text).toMatch(/^1\. \[turn, \d{4}-\d{2}-\d{2}\] The office plants need water on Fridays\./);
    expect(recalled.json.structuredContent.hits).toHaveLength(1);

    const forgot = await inspect([...http, '--tool-name', 'forget', '--tool-arg', `messageIds=${JSON.stringify([messageId])}`]);
    expect(forgot.json).toMatchObject({ content: [{ text: 'Forgot 1 message(s), 0 fact(s) and 0 summary(ies).' }], structuredContent: { messages: 1 } });
    expect(await memory.messages(sessionId)).toEqual([]);
  });

  it('shows a tool error as a result with isError, and reads the resources', async () => {
    const failed = await inspect([url, '--method', 'tools/call', '--tool-name', 'get_context', '--tool-arg', 'query=anything', 'sessionId=ses_nobody']);
    expect(failed.code, failed.stderr).toBe(0);
    expect(failed.json).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^NOT_FOUND: no session with id "ses_nobody"\nhint: /) }] });

    const session = await memory.sessions.create({ namespace: 'inspected', title: 'garden' });
    await memory.append(session.id, { role: 'user', content: 'The tomatoes go in the sunny bed.' });
    const templates = await inspect([url, '--method', 'resources/templates/list']);
    expect(templates.json.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual(['strata://sessions/{id}/transcript']);
    const listed = await inspect([url, '--method', 'resources/list']);
    expect(listed.json.resources.map((r: { uri: string }) => r.uri)).toContain(`strata://sessions/${session.id}/transcript`);
    const read = await inspect([url, '--method', 'resources/read', '--uri', `strata://sessions/${session.id}/transcript`]);
    expect(read.json.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('The tomatoes go in the sunny bed.') });
  });
});

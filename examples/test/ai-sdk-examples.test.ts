import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { repoRoot, runExample } from './run-example.js';

describe('ai-sdk-chat.ts', () => {
  it('answers the friday session (streamText) from a fact told on monday (generateText), storing each turn once', async () => {
    const { code, stdout, stderr } = await runExample('ai-sdk-chat.ts', { STRATA_LLM_BASE_URL: undefined });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^model: the scripted OpenAI-compatible stub/);
    expect(stdout).toContain('--- session friday (streamText)\nuser: Where do I live?\nassistant: You live in Lisbon.\n');
    expect(stdout).toMatch(/the friday prompt held [1-9]\d* long-term fact\(s\) from monday/);
    expect(stdout).toContain('stored in monday: user: Hi! I live in Lisbon and I work as a nurse. | assistant: Nice to meet you!\n');
    expect(stdout).toContain('stored in friday: user: Where do I live? | assistant: You live in Lisbon.\n');
  });
});

interface UIMessageLike {
  id: string;
  role: string;
  parts: { type: string; text?: string }[];
}

let server: ChildProcess | undefined;
/** The chat server's SQLite files: in a directory of the test's own, removed after (the server is killed, so it cannot). */
const dataDir = mkdtempSync(join(tmpdir(), 'strata-ai-sdk-test-'));
let servers = 0;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
afterEach(() => {
  server?.kill('SIGKILL');
  server = undefined;
});

/** Starts the example server and resolves with its URL once it prints it. */
function startChatServer(): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@strata/source', 'examples/ai-sdk-chat-server.ts'], {
      cwd: repoRoot,
      env: { ...process.env, STRATA_LLM_BASE_URL: '', STRATA_DB: join(dataDir, `memory-${++servers}.sqlite`) },
    });
    server = child;
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ url, child, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`the chat server exited (${code}) before listening:\n${out}\n${err}`)));
  });
}

/** POSTs a chat turn and reads the UI message stream (server-sent events) to its end: the text the assistant streamed. */
async function chat(url: string, id: string, messages: UIMessageLike[]): Promise<{ text: string; events: string[] }> {
  const response = await fetch(`${url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, messages }) });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  const body = await response.text();
  const events = body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
  const parsed = events.filter((e) => e !== '[DONE]').map((e) => JSON.parse(e) as { type: string; delta?: string });
  return { text: parsed.flatMap((e) => (e.type === 'text-delta' && e.delta ? [e.delta] : [])).join(''), events: parsed.map((e) => e.type) };
}

async function messagesOf(url: string, id: string): Promise<UIMessageLike[]> {
  const response = await fetch(`${url}/api/chats/${id}/messages`);
  expect(response.status).toBe(200);
  return (await response.json()) as UIMessageLike[];
}

const userMessage = (id: string, text: string): UIMessageLike => ({ id, role: 'user', parts: [{ type: 'text', text }] });

describe('ai-sdk-chat-server.ts (driven over HTTP)', () => {
  it('streams UI message responses, persists each chat in strata once, and recalls across chats', async () => {
    const { url, child, stderr } = await startChatServer();

    const first = await chat(url, 'monday', [userMessage('u1', 'Hi! I live in Lisbon and I work as a nurse.')]);
    expect(first.text).toBe('Nice to meet you!');
    expect(first.events).toEqual(expect.arrayContaining(['start', 'text-delta', 'finish']));
    const monday = await messagesOf(url, 'monday');
    expect(
      monday.map((m) => [
        m.id,
        m.role,
        m.parts
          .filter((p) => p.type === 'text')
          .map((p) => p.text)
          .join(''),
      ]),
    ).toEqual([
      ['u1', 'user', 'Hi! I live in Lisbon and I work as a nurse.'],
      [expect.any(String), 'assistant', 'Nice to meet you!'],
    ]);

    // useChat sends the whole chat each time: only the new message is stored
    await chat(url, 'monday', [...monday, userMessage('u2', 'Thanks!')]);
    const again = await messagesOf(url, 'monday');
    expect(again.map((m) => m.id).slice(0, 3)).toEqual([...monday.map((m) => m.id), 'u2']);
    expect(again).toHaveLength(4);
    expect(new Set(again.map((m) => m.id)).size).toBe(4);

    expect((await fetch(`${url}/api/flush`, { method: 'POST' })).status).toBe(200);
    const friday = await chat(url, 'friday', [userMessage('f1', 'Where do I live?')]);
    expect(friday.text).toBe('You live in Lisbon.');
    expect(await messagesOf(url, 'unknown-chat')).toEqual([]);

    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr()).toBe('');
  });
});

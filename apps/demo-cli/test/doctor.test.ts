import { createServer } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startOpenAiStub, type ChatCompletionRequest, type StubChatReply } from '@strata/testkit';
import { createSandbox, runCli } from './support/cli.js';

const sandbox = createSandbox('doctor');
afterAll(() => sandbox.dispose());

interface Check {
  check: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  hint?: string;
}
async function doctor(env: NodeJS.ProcessEnv, ...flags: string[]): Promise<{ code: number | null; ok: boolean; checks: Record<string, Check> }> {
  const result = await runCli([...flags, 'doctor', '--json'], { env });
  const report = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
  return { code: result.code, ok: report.ok, checks: Object.fromEntries(report.checks.map((c) => [c.check, c])) };
}

/** A model that answers where the user lives the way it was asked: a tool call, or JSON text. */
function locationAnswer(request: ChatCompletionRequest): StubChatReply {
  const args = { city: 'Lisbon' };
  return request.tools?.length ? { toolCalls: [{ name: request.tools[0]?.function.name ?? 'location', args }] } : JSON.stringify(args);
}

/** A port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('strata doctor', () => {
  it('passes on a fresh machine (nothing created yet, no servers configured) and then checks the SQLite file', async () => {
    const fresh = await doctor(sandbox.env);
    expect(fresh.code).toBe(0);
    expect(fresh.checks.node?.status).toBe('ok');
    expect(fresh.checks['sqlite file']?.detail).toMatch(/not created yet/);
    expect([fresh.checks.redis?.status, fresh.checks.chroma?.status, fresh.checks['llm endpoint']?.status]).toEqual(['skip', 'skip', 'skip']);
    expect((await runCli(['chat'], { env: sandbox.env, input: 'I grow tomatoes.\n' })).code).toBe(0);
    const used = await doctor(sandbox.env);
    expect(used.checks['sqlite file']).toMatchObject({ status: 'ok', detail: expect.stringMatching(/quick_check ok, 1 sessions, 1 messages, .* schema \d+/) });
    expect(used.checks['data dir']?.status).toBe('ok');
  });

  it('fails a file that is not a strata database, and unreachable servers, each with a fix (exit 1)', async () => {
    const box = createSandbox('doctor-bad');
    try {
      mkdirSync(box.dataDir, { recursive: true, mode: 0o700 });
      writeFileSync(join(box.dataDir, 'memory.sqlite'), 'these are not the pages of a database'.repeat(200));
      const port = await closedPort();
      const report = await doctor(box.env, '--redis-url', `redis://127.0.0.1:${port}`, '--chroma-url', `http://127.0.0.1:${port}`, '--llm-base-url', `http://127.0.0.1:${port}/v1`, '--llm-model', 'm');
      expect(report.code).toBe(1);
      expect(report.ok).toBe(false);
      for (const name of ['sqlite file', 'redis', 'chroma', 'llm endpoint']) {
        expect(report.checks[name], name).toMatchObject({ status: 'fail', hint: expect.any(String) });
      }
      expect(report.checks['sqlite file']?.detail).toMatch(/not a SQLite database or is corrupt/);
      const table = await runCli(['--chroma-url', `http://127.0.0.1:${port}`, 'doctor'], { env: box.env });
      expect(table.stdout).toMatch(/fix chroma: Start Chroma/);
    } finally {
      box.dispose();
    }
  });

  it('checks an LLM endpoint: the model listed is ok, one not listed is a warning', async () => {
    const stub = await startOpenAiStub({ models: ['small-model'], chat: locationAnswer });
    try {
      const listed = await doctor(sandbox.env, '--llm-base-url', `${stub.url}/v1`, '--llm-model', 'small-model');
      expect(listed.checks['llm endpoint']).toMatchObject({ status: 'ok' });
      const missing = await doctor(sandbox.env, '--llm-base-url', `${stub.url}/v1`, '--llm-model', 'large-model');
      expect(missing.code).toBe(0);
      expect(missing.checks['llm endpoint']).toMatchObject({ status: 'warn', detail: expect.stringMatching(/does not list the model large-model/), hint: 'Pick one it lists (small-model).' });
    } finally {
      await stub.close();
    }
  });
  // The three kinds of endpoint: each answers a structured call only the way it supports.
  const kinds: [string, NonNullable<Parameters<typeof startOpenAiStub>[0]>['refuse'], string][] = [
    ['tool calling', [], 'functionCalling'],
    ['JSON schema, no tools', ['tools'], 'jsonSchema'],
    ['JSON only', ['tools', 'json_schema'], 'jsonMode'],
  ];
  it.each(kinds)('names the structured-output method that works with an endpoint of %s, with its time', async (_kind, refuse, method) => {
    const stub = await startOpenAiStub({ models: ['m'], chat: locationAnswer, refuse });
    try {
      const report = await doctor(sandbox.env, '--llm-base-url', `${stub.url}/v1`, '--llm-model', 'm');
      expect(report.code).toBe(0);
      expect(report.checks['llm structured output']).toMatchObject({
        status: 'ok',
        detail: expect.stringMatching(new RegExp(`works \\(\\d+ ms\\); auto detection picks ${method}$`)),
        hint: `set STRATA_LLM_METHOD=${method} to skip detecting it on each start.`,
      });
      // the same endpoint with a method it refuses, set by hand, fails with a fix
      if (method !== 'functionCalling') {
        const forced = await doctor({ ...sandbox.env, STRATA_LLM_METHOD: 'functionCalling' }, '--llm-base-url', `${stub.url}/v1`, '--llm-model', 'm');
        expect(forced.code).toBe(1);
        expect(forced.checks['llm structured output']).toMatchObject({ status: 'fail', hint: expect.stringMatching(/STRATA_LLM_METHOD=functionCalling does not work/) });
      }
    } finally {
      await stub.close();
    }
  });
});

describe('strata completion', () => {
  it('prints a completion script for bash, zsh and fish, and completes commands and their options', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = await runCli(['completion', shell], { env: sandbox.env });
      expect(script.code, shell).toBe(0);
      expect(script.stdout, shell).toMatch(/strata complete --/);
    }
    const commands = await runCli(['complete', '--', 'se'], { env: sandbox.env });
    expect(commands.stdout.split('\n').map((l) => l.split('\t')[0])).toEqual(expect.arrayContaining(['sessions', 'search']));
    const options = await runCli(['complete', '--', 'sessions', 'list', '--l'], { env: sandbox.env });
    expect(options.stdout).toMatch(/^--limit/m);
    const unknown = await runCli(['completion', 'tcsh'], { env: sandbox.env });
    expect(unknown.code).toBe(1);
    // after a global option too (the completion library is loaded only when the word is given)
    const afterOption = await runCli(['--namespace', 'work', 'completion', 'bash'], { env: sandbox.env });
    expect(afterOption.code, afterOption.stderr).toBe(0);
    expect(afterOption.stdout).toMatch(/strata complete --/);
    const help = await runCli(['--help'], { env: sandbox.env });
    expect(help.stdout).toMatch(/^\s+completion <shell>\s+Generate shell completion scripts/m);
  });
});

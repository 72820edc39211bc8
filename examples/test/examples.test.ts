import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { promptText, startOpenAiStub, type ChatCompletionRequest, type OpenAiStub } from '@strata/testkit';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs an example the way the README tells a user to. Asynchronous on purpose: the OpenAI stub
 * lives in this process and must keep answering while the example runs.
 */
function runExample(file: string, env: Record<string, string | undefined>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@strata/source', `examples/${file}`], { cwd: repoRoot, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Stands in for an LLM: it can only answer from the memory strata put in its prompt. */
function answerFromMemory(request: ChatCompletionRequest): string {
  const lives = /User lives in (\w+)/.exec(promptText(request));
  return lives ? `You live in ${lives[1]}.` : 'Nice to meet you!';
}

let stub: OpenAiStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('examples', () => {
  it('agent-offline.ts answers the second session from memory of the first', async () => {
    const result = await runExample('agent-offline.ts', {});
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/user: Where do I live\?\nassistant: From memory: User lives in Lisbon\./);
    expect(result.stdout).toMatch(/context manifest \(query "Where do I live\?"/);
    expect(result.stdout).toMatch(/included long-term fact/);
  });

  it('agent-openai.ts talks to an OpenAI-compatible server and answers from memory', async () => {
    stub = await startOpenAiStub({ chat: answerFromMemory });
    const result = await runExample('agent-openai.ts', { STRATA_LLM_BASE_URL: `${stub.url}/v1`, STRATA_LLM_MODEL: 'stub-model', OPENAI_API_KEY: 'test' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/user: Hi! I live in Lisbon and I work as a nurse\.\nassistant: Nice to meet you!/);
    expect(result.stdout).toMatch(/\nanswer: You live in Lisbon\.\n/);
    expect(result.stdout).toMatch(/included long-term fact/);
    const prompts = stub.requests.map((r) => r.body as ChatCompletionRequest);
    expect(prompts.map((p) => p.model)).toEqual(['stub-model', 'stub-model']);
    expect(promptText(prompts[1]!)).toMatch(/Known facts:\n- User lives in Lisbon\./);
    expect(stub.requests[0]?.headers.authorization).toBe('Bearer test');
  });

  it('agent-openai.ts explains a missing environment and exits 1', async () => {
    const result = await runExample('agent-openai.ts', { STRATA_LLM_BASE_URL: undefined, OPENAI_API_KEY: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/STRATA_LLM_BASE_URL/);
    expect(result.stderr).toMatch(/OPENAI_API_KEY/);
    expect(result.stdout).toBe('');
  });
});

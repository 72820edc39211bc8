import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promptText, startOpenAiStub, type ChatCompletionRequest, type OpenAiStub } from '@strata/testkit';
import { createSandbox, readDb, runCli } from './support/cli.js';

const sandbox = createSandbox('chat-llm');
const env = { ...sandbox.env, STRATA_NAMESPACE: 'lena' };
const chatPrompts: string[] = [];
let stub: OpenAiStub;

/** Answers the chat turn from the memory in its prompt, as a model would; other calls get an empty JSON reply. */
function answer(request: ChatCompletionRequest): string {
  const prompt = promptText(request);
  if (!prompt.includes('Where do I live?')) return '{}';
  chatPrompts.push(prompt);
  return /User lives in Oslo/.test(prompt) ? 'You live in Oslo.' : 'I do not know where you live.';
}

beforeAll(async () => {
  stub = await startOpenAiStub({ chat: answer });
});
afterAll(async () => {
  await stub.close();
  sandbox.dispose();
});

describe('strata chat with an LLM configured (OpenAI-compatible stub server)', () => {
  it('sends the memory-assembled context to the model, prints its answer and stores it', async () => {
    expect((await runCli(['chat'], { env, input: 'I live in Oslo.\n' })).code).toBe(0); // offline: no LLM yet
    const llmEnv = { ...env, STRATA_LLM_BASE_URL: `${stub.url}/v1`, STRATA_LLM_MODEL: 'stub-model', OPENAI_API_KEY: 'sk-test-key-123456' };
    const { code, stdout, stderr } = await runCli(['chat'], { env: llmEnv, input: 'Where do I live?\n' });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`assistant: stub-model at ${stub.url}/v1`);
    expect(stdout).toContain('strata> You live in Oslo.');
    expect(stdout).not.toContain('offline');
    // the model saw the fact from the earlier (offline) session and the question
    expect(chatPrompts).toHaveLength(1);
    expect(chatPrompts[0]).toMatch(/Known facts:\n- User lives in Oslo/);
    const request = stub.requests.find((r) => promptText(r.body as ChatCompletionRequest).includes('Where do I live?'));
    expect(request?.headers.authorization).toBe('Bearer sk-test-key-123456');
    expect((request?.body as ChatCompletionRequest).model).toBe('stub-model');
    readDb(sandbox.dataDir, (db) => {
      const [, sessionId] = /new session (ses_\S+)/.exec(stdout) ?? [];
      expect(db.prepare('SELECT role, content FROM messages WHERE session_id = ? ORDER BY seq').all(sessionId)).toEqual([
        { role: 'user', content: 'Where do I live?' },
        { role: 'assistant', content: 'You live in Oslo.' },
      ]);
    });
  });

  it('keeps the chat going when the model is unreachable: error with a hint, the turn is stored', async () => {
    const deadEnv = { ...env, STRATA_LLM_BASE_URL: 'http://127.0.0.1:1/v1', STRATA_LLM_MODEL: 'stub-model' };
    const { code, stdout } = await runCli(['chat'], { env: deadEnv, input: 'Are you there?\n/history\n' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/error: the model \(stub-model at http:\/\/127\.0\.0\.1:1\/v1\) did not answer/);
    expect(stdout).toMatch(/hint: Your message is stored/);
    expect(stdout).toMatch(/#1 .* user: Are you there\?/);
  });

  it('exits 1 with a hint when only half of the LLM config is given', async () => {
    const { code, stderr } = await runCli(['chat'], { env: { ...env, STRATA_LLM_BASE_URL: `${stub.url}/v1` } });
    expect(code).toBe(1);
    expect(stderr).toMatch(/llm needs both a base URL and a model/);
    expect(stderr).toMatch(/hint: Set both STRATA_LLM_BASE_URL and STRATA_LLM_MODEL/);
  });
});

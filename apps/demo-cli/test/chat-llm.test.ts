import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promptText, startOpenAiStub, type ChatCompletionRequest, type OpenAiStub, type StubChatReply } from '@strata/testkit';
import type { UsageReport } from '@strata/core';
import { createSandbox, json, readDb, runCli } from './support/cli.js';

const sandbox = createSandbox('chat-llm');
const env = { ...sandbox.env, STRATA_NAMESPACE: 'lena' };
const chatPrompts: string[] = [];
let stub: OpenAiStub;

/** The tools of the models that derivation jobs call: the fact extractor and the summarizer's. */
const DERIVATION_TOOLS = ['facts', 'summary', 'synopsis'];

/** A count as strata prints it: `1,562`. */
const n = (count: number): string => count.toLocaleString('en-US');

const TURN = /^\[#(\d+) [^\]]*\] user[^:]*: (.*)$/;

/**
 * An LLM stand-in behind HTTP. Tool requests are strata's summarizer and fact extractor
 * (the stub fills the tool they ask for); a plain request is the chat turn, answered from
 * the memory in its prompt as a model would.
 */
function answer(request: ChatCompletionRequest): StubChatReply {
  const prompt = promptText(request);
  const tool = request.tools?.[0]?.function.name;
  if (tool === 'summary') return { toolCalls: [{ name: tool, args: { summary: 'LLM summary.' } }] };
  if (tool === 'synopsis') return { toolCalls: [{ name: tool, args: { synopsis: 'LLM synopsis.' } }] };
  if (tool) {
    const facts = prompt.split('\n').flatMap((line) => {
      const [, seq, content] = TURN.exec(line) ?? [];
      const city = /live in ([A-Z][a-z]+)/.exec(content ?? '')?.[1];
      return city ? [{ turn: Number(seq), subject: 'user', predicate: 'lives_in', object: city, text: `User lives in ${city}.`, confidence: 0.9 }] : [];
    });
    return { toolCalls: [{ name: tool, args: { facts } }] };
  }
  chatPrompts.push(prompt);
  return /User lives in Oslo/.test(prompt) ? 'You live in Oslo.' : 'Noted.';
}

/** The stub as the CLI's LLM (set once the stub listens). */
let llm: Record<string, string> = {};

beforeAll(async () => {
  stub = await startOpenAiStub({ chat: answer });
  llm = { STRATA_LLM_BASE_URL: `${stub.url}/v1`, STRATA_LLM_MODEL: 'stub-model', OPENAI_API_KEY: 'sk-test-key-123456' };
});
afterAll(async () => {
  await stub.close();
  sandbox.dispose();
});

describe('strata chat with an LLM configured (OpenAI-compatible stub server)', () => {
  it('derives facts with the LLM, sends the memory-assembled context to it, prints and stores its answer', async () => {
    const llmEnv = { ...env, ...llm };
    const first = await runCli(['chat'], { env: llmEnv, input: 'I live in Oslo.\n' });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`assistant: stub-model at ${stub.url}/v1`);
    expect(first.stdout).toContain('strata> Noted.');
    // the fact came from the LLM extractor (a tool call), not the offline heuristics
    const extraction = stub.requests.find((r) => (r.body as ChatCompletionRequest).tools?.length);
    expect(promptText(extraction!.body as ChatCompletionRequest)).toMatch(/user: I live in Oslo\./);
    readDb(sandbox.dataDir, (db) => expect(db.prepare("SELECT object, degraded FROM facts WHERE predicate = 'lives_in'").all()).toEqual([{ object: 'Oslo', degraded: 0 }]));

    const { code, stdout, stderr } = await runCli(['chat'], { env: llmEnv, input: 'Where do I live?\n' });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('strata> You live in Oslo.');
    expect(stdout).not.toContain('offline');
    // the model saw the fact from the earlier session (a new session here) and the question
    expect(chatPrompts.at(-1)).toMatch(/Known facts:\n- User lives in Oslo/);
    const request = stub.requests.filter((r) => promptText(r.body as ChatCompletionRequest).includes('Where do I live?')).at(0);
    expect(request?.headers.authorization).toBe('Bearer sk-test-key-123456');
    expect((request!.body as ChatCompletionRequest).model).toBe('stub-model');
    readDb(sandbox.dataDir, (db) => {
      const [, sessionId] = /new session (ses_\S+)/.exec(stdout) ?? [];
      expect(db.prepare('SELECT role, content FROM messages WHERE session_id = ? ORDER BY seq').all(sessionId)).toEqual([
        { role: 'user', content: 'Where do I live?' },
        { role: 'assistant', content: 'You live in Oslo.' },
      ]);
    });
  });

  it("inspect shows the tokens the stub reported for the session's derivation, by job type and by model, and the namespace total", async () => {
    const costEnv = { ...env, STRATA_NAMESPACE: 'costs' };
    const before = stub.requests.length;
    const chat = await runCli(['chat'], { env: { ...costEnv, ...llm }, input: 'I live in Bergen.\nI work as a nurse.\nI like skiing.\n' });
    expect(chat.code, chat.stderr).toBe(0);
    const sessionId = /saved session (ses_\S+)/.exec(chat.stdout)![1]!;
    // what the stub answered the derivation jobs' models; the chat turns and the thread selector's
    // calls (made as turns are appended, outside any job) are not in the job ledger
    const derivation = stub.requests.slice(before).filter((r) => DERIVATION_TOOLS.includes((r.body as ChatCompletionRequest).tools?.[0]?.function.name ?? ''));
    const expected = { inputTokens: 0, outputTokens: 0, calls: derivation.length };
    for (const r of derivation) {
      const { usage } = r.response as { usage: { prompt_tokens: number; completion_tokens: number } };
      expected.inputTokens += usage.prompt_tokens;
      expected.outputTokens += usage.completion_tokens;
    }
    expect(expected.calls).toBeGreaterThan(0);
    expect(expected.inputTokens).toBeGreaterThan(0);

    // read from the job ledger: no LLM needs to be configured to see what it cost
    const { stdout, code } = await runCli(['inspect', sessionId], { env: costEnv });
    expect(code).toBe(0);
    const cells = (u: typeof expected) => `${n(u.inputTokens)}\\s+${n(u.outputTokens)}\\s+${u.calls}`;
    expect(stdout).toMatch(new RegExp(`job type\\s+ingest\\s+${cells(expected)}\\n`));
    expect(stdout).toMatch(new RegExp(`model\\s+stub-model\\s+${cells(expected)}\\n`));
    expect(stdout).toMatch(new RegExp(`total\\s+this session\\s+${cells(expected)}\\n`));
    expect(stdout).toContain(`namespace costs: ${n(expected.inputTokens)} tokens in, ${n(expected.outputTokens)} out, ${expected.calls} calls over 1 session`);
    expect(stdout).not.toContain('no model calls');

    const data = json<{ usage: { session: UsageReport; namespace: UsageReport } }>(await runCli(['inspect', sessionId, '--json'], { env: costEnv }));
    expect(data.usage.session).toMatchObject({ sessionId, total: expected, byJobType: { ingest: expected }, byModel: { 'stub-model': expected } });
    expect(data.usage.namespace).toMatchObject({ namespace: 'costs', total: expected, bySession: { [sessionId]: expected } });
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

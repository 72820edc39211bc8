import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAiStub, type ChatCompletionMessage, type ChatCompletionRequest, type OpenAiStub, type StubChatReply } from '@strata/testkit';
// asynchronous on purpose: the OpenAI stub lives in this process and must keep answering while the example runs
import { firstLine, runExample } from './run-example.js';

/** Run offline: with no STRATA_LLM_BASE_URL, the example starts the OpenAI stub itself and scripts the model. */
const offline = { STRATA_LLM_BASE_URL: undefined, STRATA_LLM_MODEL: undefined, OPENAI_API_KEY: undefined };

const textOf = (message: ChatCompletionMessage | undefined) => (typeof message?.content === 'string' ? message.content : '');

/** A model that calls the tool each question asks for, and answers with the tool's result. */
function toolCallingModel(request: ChatCompletionRequest): StubChatReply {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return `Tool said: ${textOf(last)}`;
  if (/remember/i.test(textOf(last))) return { toolCalls: [{ name: 'remember', args: { text: 'I live in Lisbon.' } }] };
  return { toolCalls: [{ name: 'recall', args: { query: 'where does the user live' } }] };
}

let stub: OpenAiStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('ai-sdk-agent.ts', () => {
  it('states its purpose on its first line', () => {
    expect(firstLine('ai-sdk-agent.ts')).toMatch(/^\/\/ [A-Z].{20,}\.$/);
  });

  it('remembers a fact through a tool call in session 1 and recalls it in session 2, which shares no messages with it', async () => {
    const { code, stdout, stderr } = await runExample('ai-sdk-agent.ts', offline);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^model: the scripted OpenAI-compatible stub at http:\/\/127\.0\.0\.1:\d+\/v1/);
    const [, first, second] = stdout.split(/\n(?=\[session \d\] user: )/);
    const remembered =
      /^\[session 1\] user: Please remember that I live in Lisbon\.\n\[session 1\] tool call: remember\(\{"text":"I live in Lisbon\."\}\)\n\[session 1\] tool result \(remember\): Remembered as (msg_\w+)\. strata filed 1 fact from it:\n {4}- \[fact (\S+)\] User lives in Lisbon\.\n\[session 1\] assistant: Noted, I will remember that\.\n/.exec(
        first ?? '',
      );
    expect(remembered).not.toBeNull();
    const [, noteId, factId] = remembered!;
    // Session 2 never names the city: the answer comes from the recall tool's result.
    expect(second).toMatch(/^\[session 2\] user: Where do I live\?\n\[session 2\] tool call: recall\(\{"query":"where the user lives","k":5\}\)\n\[session 2\] tool result \(recall\): /);
    expect(second).toContain(`- [fact ${factId} | `);
    expect(second).toContain(`- [turn ${noteId} | `);
    expect(second).toContain('\n[session 2] assistant: From memory: User lives in Lisbon.\n');
    expect(stdout).toContain(`facts strata filed for "ana":\n  - User lives in Lisbon. (${factId})\n`);
  });

  it('talks to the OpenAI-compatible endpoint of STRATA_LLM_BASE_URL, sending session 2 no message of session 1', async () => {
    stub = await startOpenAiStub({ chat: toolCallingModel });
    const { code, stdout, stderr } = await runExample('ai-sdk-agent.ts', { STRATA_LLM_BASE_URL: `${stub.url}/v1`, STRATA_LLM_MODEL: 'stub-model', OPENAI_API_KEY: 'test' });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^model: stub-model at http:\/\/127\.0\.0\.1:\d+\/v1\n/);
    expect(stdout).toMatch(/\[session 2\] assistant: Tool said: - \[fact \S+ \| [^\]]+\] User lives in Lisbon\./);
    const requests = stub.requests.map((r) => r.body as ChatCompletionRequest);
    expect(requests.map((r) => r.model)).toEqual(['stub-model', 'stub-model', 'stub-model', 'stub-model']);
    expect(stub.requests[0]?.headers.authorization).toBe('Bearer test');
    expect(requests[0]?.tools?.map((t) => t.function.name)).toEqual(['remember', 'recall', 'forget']);
    expect(requests[2]?.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['system', expect.stringMatching(/^You have a long-term memory\./)],
      ['user', 'Where do I live?'],
    ]);
  });

  it('explains an endpoint without a key and exits 1', async () => {
    const { code, stdout, stderr } = await runExample('ai-sdk-agent.ts', { STRATA_LLM_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: undefined });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^ai-sdk-agent: the environment is invalid:/);
    expect(stderr).toMatch(/OPENAI_API_KEY must be set with STRATA_LLM_BASE_URL/);
    expect(stdout).toBe('');
  });
});

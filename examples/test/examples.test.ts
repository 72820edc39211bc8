import { afterEach, describe, expect, it } from 'vitest';
import { promptText, startOpenAiStub, type ChatCompletionRequest, type OpenAiStub } from '@strata/testkit';
// asynchronous on purpose: the OpenAI stub lives in this process and must keep answering while an example runs
import { runExample } from './run-example.js';

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
  /** Run offline: with no STRATA_LLM_BASE_URL, each example starts the OpenAI stub itself and scripts the model. */
  const offline = { STRATA_LLM_BASE_URL: undefined, STRATA_LLM_MODEL: undefined, OPENAI_API_KEY: undefined };

  it('langgraph-agent.ts recalls in thread B a fact told in thread A, through a tool call', async () => {
    const { code, stdout, stderr } = await runExample('langgraph-agent.ts', offline);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^model: the scripted OpenAI-compatible stub at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(stdout).toContain('[thread-a] user: Hi! I live in Lisbon and I work as a nurse.\n[thread-a] assistant: Nice to meet you!\n');
    // Thread B never names the city: the model took it from strata's memory of thread A.
    expect(stdout.match(/^\[thread-b\] user: .*$/gm)?.join('\n')).not.toMatch(/Lisbon/);
    expect(stdout).toContain(
      '[thread-b] tool call: get_weather({"city":"Lisbon"})\n[thread-b] tool result (get_weather): {"city":"Lisbon","tempC":21,"sky":"sunny"}\n[thread-b] assistant: It is 21 °C and sunny in Lisbon.\n',
    );
    expect(stdout).toContain('[thread-b] assistant: You work as a nurse.\n');
    expect(stdout).toContain('  thread-a (checkpoint: 2 messages)\n    1. user: Hi! I live in Lisbon and I work as a nurse.\n    2. assistant: Nice to meet you!\n');
    expect(stdout).toMatch(
      / {2}thread-b \(checkpoint: 6 messages\)\n {4}1\. user: What's the weather like where I live\?\n {4}2\. assistant: calls get_weather\(\{"city":"Lisbon"\}\)\n {4}3\. tool: .*\n {4}4\. assistant: It is 21 °C/,
    );
    const facts = stdout.slice(stdout.indexOf('facts strata filed for "ana"'));
    expect(facts).toContain('  - User lives in Lisbon.\n');
    expect(facts).toContain('  - User works as a nurse.\n');
  });

  it('retrieval-chain.ts prints the retrieved documents with their provenance and answers from them', async () => {
    const { code, stdout, stderr } = await runExample('retrieval-chain.ts', offline);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('question: What am I allergic to?\nretrieved 4 documents, best first:\n');
    // The fact names the message it came from; that message is a retrieved turn of session dinner-plans.
    const fact = /\d\. fact (fact_\S+) \| score 0\.\d{4} \| namespace ana, valid since \d{4}-\d\d-\d\d \| from (msg_\w+)\n {5}User is allergic to peanuts\.\n/.exec(stdout);
    expect(fact).not.toBeNull();
    const [, factId, sourceId] = fact!;
    expect(stdout).toMatch(
      new RegExp(`\\d\\. turn ${sourceId} \\| score 0\\.\\d{4} \\| session dinner-plans, \\d{4}-\\d\\d-\\d\\d \\| from ${sourceId}\\n {5}I'm hosting a dinner on Saturday\\. I'm allergic to peanuts`),
    );
    expect(stdout).not.toMatch(/session moving-house/);
    expect(stdout).toContain(`answer: User is allergic to peanuts. [fact ${factId}]\n`);
  });

  it('retrieval-chain.ts uses the endpoint STRATA_LLM_BASE_URL names, with the retrieved documents in the prompt', async () => {
    stub = await startOpenAiStub({
      chat: (request) => {
        const fact = /\[fact (\S+)\] User is allergic to peanuts\./.exec(promptText(request));
        return fact ? `You are allergic to peanuts [fact ${fact[1]}].` : 'I do not know.';
      },
    });
    const { code, stdout, stderr } = await runExample('retrieval-chain.ts', { STRATA_LLM_BASE_URL: `${stub.url}/v1`, STRATA_LLM_MODEL: 'stub-model', OPENAI_API_KEY: 'test' });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`model: stub-model at ${stub.url}/v1\n`);
    expect(stdout).toMatch(/\nanswer: You are allergic to peanuts \[fact fact_\S+\]\.\n/);
    expect(stub.requests).toHaveLength(1);
    expect((stub.requests[0]!.body as ChatCompletionRequest).model).toBe('stub-model');
    expect(stub.requests[0]?.headers.authorization).toBe('Bearer test');
  });

  it('memory-tools-agent.ts remembers, recalls and forgets through tool calls, and memory shows each step', async () => {
    const { code, stdout, stderr } = await runExample('memory-tools-agent.ts', offline);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const remembered =
      /tool call: remember\(\{"text":"I live in Lisbon\."\}\)\n {2}tool result \(remember\): Remembered as (msg_\w+)\. strata filed 1 fact from it:\n {4}- \[fact (\S+)\] User lives in Lisbon\./.exec(
        stdout,
      );
    expect(remembered).not.toBeNull();
    const [, noteId, factId] = remembered!;
    const [, afterRemember, , afterRecall, afterForget] = stdout.split('memory now holds:');
    expect(afterRemember).toContain(`note ${noteId}: I live in Lisbon.\n    fact ${factId}: User lives in Lisbon.\n`);
    expect(stdout).toContain('tool call: remember({"text":"I work as a nurse."})');
    expect(stdout).toContain(`- [fact ${factId} | `);
    expect(stdout).toContain('assistant: From memory: User lives in Lisbon.\n');
    expect(afterRecall).toContain(`fact ${factId}: User lives in Lisbon.`);
    // forget takes the id recall gave; the fact and the note it came from are gone, the other note stays.
    expect(stdout).toContain(`tool call: forget({"id":"${factId}"})\n  tool result (forget): Forgot fact ${factId} and the 1 message it came from.`);
    expect(afterForget).not.toMatch(/Lisbon/);
    expect(afterForget).toMatch(/note msg_\w+: I work as a nurse\.\n {4}fact \S+: User works as a nurse\.\n/);
  });

  it('store-graph.ts reads back in a later run the preference a node put in config.store', async () => {
    const { code, stdout, stderr } = await runExample('store-graph.ts', offline);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [, first, second, other] = stdout.split('--- run ');
    const item = 'users/ana/preferences units = {"text":"Give temperatures in Celsius."}';
    expect(first).toContain('recall node read 0 item(s)\n');
    expect(first).toContain(`save node put\n  ${item} (updated `);
    expect(second).toContain(`recall node read 1 item(s)\n  ${item} (updated `);
    expect(second).toContain('assistant: Following your preference (Give temperatures in Celsius.): 4 °C in Oslo');
    expect(second).not.toContain('save node put');
    // Another user's run sees none of ana's items.
    expect(other).toContain('user ben\n');
    expect(other).toContain('recall node read 0 item(s)\nassistant: It is 39 °F');
    expect(other).toMatch(/strata search "temperatures celsius" in travel-app: turn msg_\w+ "text: Give temperatures in Celsius\."/);
  });

  it.concurrent.each(['langgraph-agent.ts', 'retrieval-chain.ts', 'memory-tools-agent.ts', 'store-graph.ts'])('%s explains an endpoint without a key and exits 1', async (file) => {
    const { code, stdout, stderr } = await runExample(file, { STRATA_LLM_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: undefined });
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^${file.replace('.ts', '')}: the environment is invalid:`));
    expect(stderr).toMatch(/OPENAI_API_KEY must be set with STRATA_LLM_BASE_URL/);
    expect(stdout).toBe('');
  });
});

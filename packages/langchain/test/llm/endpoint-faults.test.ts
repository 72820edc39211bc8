import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatOpenAI } from '@langchain/openai';
import { createInProcessJobQueue, createMemory, StrataError, type BackgroundError, type Memory } from '@strata/core';
import { promptText, startOpenAiStub, type ChatCompletionRequest, type OpenAiStub, type StubChatReply } from '@strata/testkit';
import { LlmFactExtractor } from '../../src/models/llm-fact-extractor.js';
import { createTestMemory } from '../helpers.js';
import { chatRequests } from '../langchain/openai-stub-model.js';

// HTTP faults of a model endpoint (the testkit's OpenAI stub, scripted per request) under
// LlmFactExtractor and ChatOpenAI: what the memory keeps, and what the app waits for.

const isExtraction = (request: ChatCompletionRequest) => /durable facts/.test(promptText(request));
/** What a good model files for "I live in Lisbon." (the turn's seq read from the prompt). */
function lisbon(request: ChatCompletionRequest): StubChatReply {
  const seq = /\[#(\d+) [^\]]*\] user: I live in Lisbon\./.exec(promptText(request))?.[1];
  return {
    toolCalls: [
      { name: 'facts', args: { facts: seq ? [{ turn: Number(seq), subject: 'user', predicate: 'lives_in', object: 'Lisbon', text: 'MODEL: User lives in Lisbon.', confidence: 0.9 }] : [] } },
    ],
  };
}

let stub: OpenAiStub | undefined;
let memory: Memory | undefined;
afterEach(async () => {
  await memory?.close();
  await stub?.close();
  memory = undefined;
  stub = undefined;
});

/** A stub whose extraction requests get `faults` in order, then the good answer; other requests get 'ok'. */
async function faultyEndpoint(faults: StubChatReply[], timeoutMs = 60_000) {
  const queue = [...faults];
  stub = await startOpenAiStub({ chat: (request) => (isExtraction(request) ? (queue.shift() ?? lisbon(request)) : 'ok') });
  const model = new ChatOpenAI({ model: 'stub-model', apiKey: 'test', maxRetries: 0, timeout: timeoutMs, configuration: { baseURL: `${stub.url}/v1` } });
  return { model, extractions: () => chatRequests(stub!).filter(isExtraction).length };
}

async function lisbonFacts(m: Memory) {
  return (await m.facts.list({ namespace: 'ana' })).map((f) => ({ object: f.object, fromModel: f.text.startsWith('MODEL:'), degraded: f.degraded === true }));
}

async function say(m: Memory, content: string): Promise<string> {
  const session = await m.sessions.create({ namespace: 'ana' });
  await m.append(session.id, [
    { role: 'user', content },
    { role: 'assistant', content: 'Noted.' },
  ]);
  return session.id;
}

describe('model endpoint faults (ChatOpenAI over HTTP)', () => {
  it('500 twice, then valid: the job is retried (each failed try reported with the endpoint host and the job), its fact comes from the model, once', async () => {
    const endpoint = await faultyEndpoint([
      { fault: 'status', status: 500 },
      { fault: 'status', status: 500 },
    ]);
    const events: BackgroundError[] = [];
    const test = await createTestMemory({ extractor: new LlmFactExtractor({ model: endpoint.model }), onError: (e) => events.push(e) });
    memory = test.memory;
    await say(memory, 'I live in Lisbon.');
    await memory.flush();
    expect(await lisbonFacts(memory)).toEqual([{ object: 'Lisbon', fromModel: true, degraded: false }]);
    expect(endpoint.extractions()).toBe(3);

    const host = new URL(stub!.url).host;
    expect(events.map((e) => [e.kind, e.job?.type, e.attempt, e.endpoint])).toEqual([
      ['derive', 'ingest', { number: 1, willRetry: true }, host],
      ['derive', 'ingest', { number: 2, willRetry: true }, host],
    ]);
    for (const event of events) {
      const error = event.error as StrataError;
      expect([error.code, error.endpoint]).toEqual(['BACKEND_UNAVAILABLE', host]);
      expect(error.message).toContain(`model stub-model at ${host} failed`);
      // the host only: never the key, the path or the scheme
      expect(`${error.message} ${error.hint}`).not.toMatch(/apiKey|Bearer|\/v1|http:/);
    }
    const stats = memory.stats().derivation;
    expect(stats.failedTries).toBe(2);
    // the stub reports usage: counted for the model by name, the job type and the namespace
    expect(stats.byModel['stub-model']?.calls).toBeGreaterThanOrEqual(1);
    expect(stats.byJobType.ingest).toEqual(stats.byModel['stub-model']);
    expect(stats.byNamespace.ana?.inputTokens).toBeGreaterThan(0);
  });

  it('429 with Retry-After: 2: the call waits the two seconds, then asks again (no queue retry)', async () => {
    const endpoint = await faultyEndpoint([{ fault: 'status', status: 429, headers: { 'retry-after': '2' }, message: 'rate limited' }]);
    const extractor = new LlmFactExtractor({ model: endpoint.model });
    const started = performance.now();
    const facts = await extractor.extract({ turns: [{ id: 'm1', seq: 1, role: 'user', content: 'I live in Lisbon.', createdAt: Date.UTC(2026, 10, 20) }], knownFacts: [] });
    const waited = performance.now() - started;
    expect(facts.map((f) => f.object)).toEqual(['Lisbon']);
    expect(endpoint.extractions()).toBe(2);
    expect(waited).toBeGreaterThanOrEqual(1900);
  });

  it('a connection reset mid-body: retried, the fact comes from the model', async () => {
    const endpoint = await faultyEndpoint([{ fault: 'reset' }]);
    const events: BackgroundError[] = [];
    const test = await createTestMemory({ extractor: new LlmFactExtractor({ model: endpoint.model }), onError: (e) => events.push(e) });
    memory = test.memory;
    await say(memory, 'I live in Lisbon.');
    await memory.flush();
    expect(await lisbonFacts(memory)).toEqual([{ object: 'Lisbon', fromModel: true, degraded: false }]);
    expect(endpoint.extractions()).toBe(2);
    expect(events.map((e) => [e.kind, e.job?.type, e.attempt?.willRetry, e.endpoint, (e.error as StrataError).code])).toEqual([
      ['derive', 'ingest', true, new URL(stub!.url).host, 'BACKEND_UNAVAILABLE'],
    ]);
  });

  it("a 20 s delay: append and getContext do not wait for it; the call's timeout ends it and derivation falls back (degraded)", async () => {
    const slow = (reply: string): StubChatReply => ({ fault: 'delay', ms: 20_000, reply });
    const endpoint = await faultyEndpoint([slow('x'), slow('x'), slow('x')], 500);
    const events: BackgroundError[] = [];
    memory = await createMemory({ extractor: new LlmFactExtractor({ model: endpoint.model }), queue: await createInProcessJobQueue({ attempts: 3, backoffMs: 10 }), onError: (e) => events.push(e) });
    const sessionId = await say(memory, 'I live in Lisbon.');
    const asked = () => stub?.requests.filter((r) => isExtraction(r.body as ChatCompletionRequest)) ?? [];
    await vi.waitFor(() => expect(asked().length).toBeGreaterThanOrEqual(1), { timeout: 5000 });
    const context = await memory.getContext(sessionId, { query: 'Where do I live?' });
    // answered while the endpoint still held the extraction (how long it took: bench/)
    expect(context.messages.some((m) => 'content' in m && m.content === 'I live in Lisbon.')).toBe(true);
    expect(asked()[0]?.ended).toBeUndefined();
    const report = await memory.flush();
    expect(await lisbonFacts(memory)).toEqual([{ object: 'Lisbon', fromModel: false, degraded: true }]);
    expect(endpoint.extractions()).toBe(3);
    // two timed-out tries retried, the third replaced by the offline extractor: all in the flush's report
    expect(report.derivation).toMatchObject({ failedTries: 2, degradedResults: 1 });
    const host = new URL(stub!.url).host;
    expect(events.map((e) => [e.kind, e.job?.type, e.endpoint])).toEqual([
      ['derive', 'ingest', host],
      ['derive', 'ingest', host],
      ['degraded', 'ingest', host],
    ]);
    expect(String((events[2]?.error as StrataError | undefined)?.message)).toMatch(/derived offline \(degraded\): model stub-model at .* failed/);
  });

  it('timeoutMs bounds each call whatever the client allows: a 20 s answer fails after it, retryable, naming the endpoint host', async () => {
    stub = await startOpenAiStub({ chat: () => ({ fault: 'delay', ms: 20_000, reply: 'late' }) });
    // ChatOpenAI's own timeout is 10 minutes; the extractor's is what ends the call
    const model = new ChatOpenAI({ model: 'stub-model', apiKey: 'test', maxRetries: 0, configuration: { baseURL: `${stub.url}/v1` } });
    const extractor = new LlmFactExtractor({ model, timeoutMs: 300 });
    const started = performance.now();
    const error = await extractor.extract({ turns: [{ id: 'm1', seq: 1, role: 'user', content: 'I live in Lisbon.', createdAt: Date.UTC(2026, 10, 20) }], knownFacts: [] }).catch((e: unknown) => e);
    const waited = performance.now() - started;
    expect(StrataError.is(error, 'BACKEND_UNAVAILABLE') && error.retryable).toBe(true);
    expect((error as StrataError).endpoint).toBe(new URL(stub.url).host);
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(5000);
  });

  it("method 'auto' (the default) finds what the endpoint accepts and remembers it: tools refused, JSON schema used from then on", async () => {
    stub = await startOpenAiStub({
      refuse: ['tools'],
      chat: (request) => {
        const answer = lisbon(request);
        return typeof answer === 'object' && 'toolCalls' in answer ? JSON.stringify(answer.toolCalls?.[0]?.args) : answer;
      },
    });
    const model = new ChatOpenAI({ model: 'stub-model', apiKey: 'test', maxRetries: 0, configuration: { baseURL: `${stub.url}/v1` } });
    const extractor = new LlmFactExtractor({ model });
    const turns = [{ id: 'm1', seq: 1, role: 'user' as const, content: 'I live in Lisbon.', createdAt: Date.UTC(2026, 10, 20) }];
    expect((await extractor.extract({ turns, knownFacts: [] })).map((f) => f.object)).toEqual(['Lisbon']);
    expect((await extractor.extract({ turns, knownFacts: [] })).map((f) => f.object)).toEqual(['Lisbon']);
    const asked = chatRequests(stub).map((r) => (r.tools?.length ? 'tools' : String((r.response_format as { type?: string } | undefined)?.type)));
    expect(asked).toEqual(['tools', 'json_schema', 'json_schema']);
  });
});

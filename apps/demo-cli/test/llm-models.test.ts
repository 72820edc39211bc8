import { afterEach, describe, expect, it } from 'vitest';
import { createInlineJobQueue, createInMemorySessionStore, createMemory, HashingEmbeddings, StrataError, type Memory, type SessionStore } from '@strata/core';
import { createSqliteSessionStore } from '@strata/store-sqlite';
import { promptText, startOpenAiStub, type ChatCompletionRequest, type OpenAiStub, type StubChatReply } from '@strata/testkit';
import { createLlmModels } from '../src/llm-models.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});
async function track<T extends { close(): Promise<void> }>(thing: Promise<T>): Promise<T> {
  const value = await thing;
  open.push(value);
  return value;
}

const TURN = /^\[#(\d+) \w+ [\d-]+ [\d:]+ UTC\] (user[^:]*): (.*)$/;

/** An LLM stand-in behind HTTP: fills whichever tool (schema) the client asks for. */
function llmServer(request: ChatCompletionRequest): StubChatReply {
  const tool = request.tools?.[0]?.function.name ?? '';
  const prompt = promptText(request);
  if (tool === 'summary') return { toolCalls: [{ name: tool, args: { summary: `LLM summary: ${prompt.split('\n').filter((l) => TURN.test(l)).length} user turns.` } }] };
  if (tool === 'synopsis') return { toolCalls: [{ name: tool, args: { synopsis: 'LLM synopsis.' } }] };
  const facts = prompt.split('\n').flatMap((line) => {
    const [, seq, , content] = TURN.exec(line) ?? [];
    const city = /(?:live in|moved to|based in) ([A-Z][a-z]+)/.exec(content ?? '')?.[1];
    return city ? [{ turn: Number(seq), subject: 'user', predicate: 'lives_in', object: city, text: `User lives in ${city}.`, confidence: 0.9 }] : [];
  });
  return { toolCalls: [{ name: 'facts', args: { facts } }] };
}

/** Input and output tokens the stub reported over all chat completions. */
function reportedUsage(stub: OpenAiStub) {
  const usages = stub.requests.filter((r) => r.path === '/v1/chat/completions' && r.response).map((r) => (r.response as { usage: { prompt_tokens: number; completion_tokens: number } }).usage);
  return { inputTokens: usages.reduce((s, u) => s + u.prompt_tokens, 0), outputTokens: usages.reduce((s, u) => s + u.completion_tokens, 0), modelCalls: usages.length };
}

async function freePort(): Promise<number> {
  const probe = await startOpenAiStub();
  await probe.close();
  return Number(new URL(probe.url).port);
}

describe('createLlmModels against a local OpenAI-compatible server', () => {
  it('summarizes and extracts through ChatOpenAI tool calls, with usage from the responses', async () => {
    const stub = await track(startOpenAiStub({ chat: llmServer }));
    const { summarizer, extractor, chatModel } = createLlmModels({ baseUrl: `${stub.url}/v1`, model: 'stub-llm', apiKey: 'sk-test' });
    const usage: { inputTokens: number; outputTokens: number }[] = [];
    const turns = [{ id: 'm1', seq: 1, role: 'user' as const, content: 'I live in Lisbon.', createdAt: Date.UTC(2026, 10, 20, 10) }];
    expect(await extractor.extract({ turns, knownFacts: [], onUsage: (u) => usage.push(u) })).toMatchObject([{ subject: 'user', predicate: 'lives_in', object: 'Lisbon', sourceMessageIds: ['m1'] }]);
    expect(await summarizer.summarize({ turns, maxTokens: 100, onUsage: (u) => usage.push(u) })).toEqual({ text: 'LLM summary: 1 user turns.' });
    const sent = stub.requests[0]!;
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({ model: 'stub-llm', temperature: 0, tool_choice: { type: 'function', function: { name: 'facts' } } });
    expect(promptText(sent.body as ChatCompletionRequest)).toContain('[#1 Friday 2026-11-20 10:00 UTC] user: I live in Lisbon.');
    const total = reportedUsage(stub);
    expect(usage.reduce((s, u) => s + u.inputTokens, 0)).toBe(total.inputTokens);
    expect(usage.reduce((s, u) => s + u.outputTokens, 0)).toBe(total.outputTokens);
    expect(chatModel.model).toBe('stub-llm');
  });

  it('builds float OpenAIEmbeddings with the requested dimensions', async () => {
    const stub = await track(startOpenAiStub());
    const { embeddings } = createLlmModels({ baseUrl: `${stub.url}/v1`, model: 'm', embeddings: { baseUrl: `${stub.url}/v1`, model: 'stub-embed', dimensions: 12 } });
    expect(await embeddings?.embedQuery('I live in Lisbon')).toHaveLength(12);
    expect(stub.requests[0]?.body).toMatchObject({ model: 'stub-embed', encoding_format: 'float', dimensions: 12 });
    expect(createLlmModels({ baseUrl: `${stub.url}/v1`, model: 'm' }).embeddings).toBeUndefined();
  });

  it('refuses a bad config with CONFIG_INVALID naming the field', () => {
    const error = (() => {
      try {
        createLlmModels({ baseUrl: 'localhost:11434', model: '' });
      } catch (e) {
        return e;
      }
    })();
    expect(StrataError.is(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as StrataError).message).toMatch(/baseUrl must be an http\(s\) URL[\s\S]*model must name/);
    expect((error as StrataError).hint).toMatch(/STRATA_LLM_BASE_URL/);
  });

  it('answers in a second session from a fact stated only in the first; a later contradiction supersedes it; usage counted', async () => {
    const stub = await track(startOpenAiStub({ chat: llmServer, embeddingDimensions: 24 }));
    const { summarizer, extractor, embeddings } = createLlmModels({ baseUrl: `${stub.url}/v1`, model: 'stub-llm', embeddings: { baseUrl: `${stub.url}/v1`, model: 'stub-embed' } });
    const memory = await track(createMemory({ summarizer, extractor, ...(embeddings ? { embeddings } : {}), queue: await createInlineJobQueue() }));
    const first = await memory.sessions.create({ namespace: 'ana' });
    const second = await memory.sessions.create({ namespace: 'ana' });
    await memory.append(first.id, [
      { role: 'user', content: 'Hi, I live in Lisbon.' },
      { role: 'assistant', content: 'Nice!' },
    ]);
    await memory.append(second.id, { role: 'user', content: 'Where do I live?' });
    const recall = await memory.getContext(second.id, { budgetTokens: 800 });
    expect(recall.messages.map((m) => m.content).join('\n')).toMatch(/User lives in Lisbon\./);

    await memory.append(second.id, { role: 'user', content: 'I moved to Porto.' });
    const after = await memory.getContext(second.id, { query: 'Where do I live?', budgetTokens: 800 });
    const prompt = after.messages.map((m) => m.content).join('\n');
    expect(prompt).toMatch(/User lives in Porto\./);
    expect(prompt).not.toMatch(/User lives in Lisbon\./);
    const facts = await memory.facts.list({ namespace: 'ana', includeSuperseded: true });
    expect(facts.map((f) => [f.object, f.validTo === undefined, f.degraded])).toEqual([
      ['Lisbon', false, false],
      ['Porto', true, false],
    ]);
    expect(memory.stats().derivation).toMatchObject(reportedUsage(stub));
  });

  const stores: [string, () => Promise<SessionStore>][] = [
    ['in-memory store', () => createInMemorySessionStore()],
    ['SQLite store', () => createSqliteSessionStore({ path: ':memory:' })],
  ];
  it.each(stores)('derives offline while the endpoint is down, then re-derives and replaces when it is back (%s)', async (_name, createStore) => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    // No cool-down: the endpoint comes back at once here (the breaker has its own tests).
    const { summarizer, extractor } = createLlmModels({ baseUrl, model: 'stub-llm', breaker: { coolDownMs: 0 } });
    const memory: Memory = await track(
      createMemory({
        store: await createStore(),
        summarizer,
        extractor,
        embeddings: new HashingEmbeddings(),
        queue: await createInlineJobQueue({ attempts: 2 }),
        policy: { immediate: { maxMessages: 4, minMessages: 2 }, working: { batchMessages: 2 } },
      }),
    );
    const session = await memory.sessions.create({ namespace: 'ana' });
    for (const content of ['I live in Lisbon.', 'I work at Acme.', 'My sister is Ana.']) {
      await memory.append(session.id, [
        { role: 'user', content },
        { role: 'assistant', content: 'Noted.' },
      ]);
    }
    const summaries = await memory
      .export(session.id, { format: 'json' })
      .then((j) => (JSON.parse(j) as { sessions: { summaries: { id: string; sourceMessageIds: string[]; degraded: boolean; text: string }[] }[] }).sessions[0]!.summaries);
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.every((s) => s.degraded && !s.text.startsWith('LLM'))).toBe(true);
    const offline = await memory.facts.list({ namespace: 'ana' });
    expect(offline.map((f) => [f.predicate, f.object, f.degraded])).toEqual([
      ['lives_in', 'Lisbon', true],
      ['employer', 'Acme', true],
      ['sister', 'Ana', true],
    ]);
    const degraded = memory.stats().derivation.degradedResults;

    const stub = await track(startOpenAiStub({ chat: llmServer, port }));
    expect(await memory.rederiveDegraded()).toEqual({ jobs: degraded, remaining: 0 });
    const replaced = await memory
      .export(session.id, { format: 'json' })
      .then((j) => (JSON.parse(j) as { sessions: { summaries: { id: string; sourceMessageIds: string[]; degraded: boolean; text: string }[] }[] }).sessions[0]!.summaries);
    expect(replaced.map((s) => [s.id, s.sourceMessageIds])).toEqual(summaries.map((s) => [s.id, s.sourceMessageIds]));
    expect(replaced.every((s) => !s.degraded && s.text.startsWith('LLM summary'))).toBe(true);
    const facts = await memory.facts.list({ namespace: 'ana', includeSuperseded: true });
    // The endpoint's model found only the city; what the offline extractor claimed beyond it is taken back.
    expect(facts.map((f) => [f.predicate, f.object, f.degraded, f.sourceMessageIds])).toEqual([['lives_in', 'Lisbon', false, offline[0]!.sourceMessageIds]]);
    const stats = memory.stats().derivation;
    expect(stats).toMatchObject({ degradedResults: degraded, rederivedResults: degraded, ...reportedUsage(stub) });
    expect(stub.requests.length).toBe(stats.modelCalls);
  });
});

import { modelNameOf } from '../../src/models/structured-call.js';
import { describe, expect, it } from 'vitest';
import { deriveJob, ExtractiveSummarizer, HashingEmbeddings, HeuristicFactExtractor, policySchema, StrataError, TiktokenTokenCounter, toModelError, type DeriveJob } from '@strata/core';
import { LlmFactExtractor } from '../../src/models/llm-fact-extractor.js';
import { LlmSummarizer } from '../../src/models/llm-summarizer.js';
import { connectionRefused, ruleBasedAnswer, ToolCallingFake } from './tool-calling-fake.js';

const T = Date.UTC(2026, 10, 20, 10, 0);
const turns = [
  { id: 'm1', seq: 1, role: 'user' as const, content: 'I live in Lisbon.', createdAt: T },
  { id: 'm2', seq: 2, role: 'assistant' as const, content: 'Lovely city.', createdAt: T + 1000 },
];
const ref = { sessionId: 's1', namespace: 'ana', fromSeq: 1, toSeq: 2 };
const summarize: DeriveJob = { ...ref, key: 'summarize:s1:1-2', type: 'summarize', turns };
const ingest: DeriveJob = { ...ref, key: 'ingest:s1:1-2', type: 'ingest', turns, knownFacts: [] };

function models(model: ToolCallingFake) {
  return { summarizer: new LlmSummarizer({ model }), extractor: new LlmFactExtractor({ model }), embeddings: new HashingEmbeddings(), policy: policySchema.parse({}) };
}

describe('deriveJob with an LLM and the attempt it is on', () => {
  it('throws a retryable BACKEND_UNAVAILABLE before the final attempt, so the queue backs off', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    model.failure = connectionRefused();
    const error = await deriveJob(summarize, models(model), { number: 1, isFinal: false }).catch((e: unknown) => e);
    expect(StrataError.is(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((error as StrataError).retryable).toBe(true);
  });

  it('falls back to the offline models on the final attempt and marks the result degraded', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    model.failure = connectionRefused();
    const summary = await deriveJob(summarize, models(model), { number: 3, isFinal: true });
    expect(summary).toMatchObject({ degraded: true, sourceMessageIds: ['m1', 'm2'] });
    expect(summary).not.toHaveProperty('usage');
    const facts = await deriveJob(ingest, models(model), { number: 3, isFinal: true });
    expect(facts).toMatchObject({ degraded: true, facts: [{ predicate: 'lives_in', object: 'Lisbon' }] });
    expect('turnVectors' in facts ? facts.turnVectors.map((t) => t.id) : []).toEqual(['m1', 'm2']);
  });

  it('uses the fallbacks it is given', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    model.failure = connectionRefused();
    const fallbackSummarizer = { name: 'canned', summarize: async () => ({ text: 'canned' }), consolidate: async () => ({ text: 'canned' }) };
    const result = await deriveJob(summarize, { ...models(model), fallbackSummarizer }, { number: 2, isFinal: true });
    expect(result).toMatchObject({ text: 'canned', degraded: true });
  });

  it('carries the usage of the model calls on the result', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const result = await deriveJob(ingest, models(model), { number: 1, isFinal: false });
    expect(result.degraded).toBe(false);
    // in total, and by the model's name
    const { calls, inputTokens, outputTokens } = model.usage();
    expect(result.usage).toEqual({ calls, inputTokens, outputTokens, byModel: { [modelNameOf(model)]: { calls, inputTokens, outputTokens } } });
  });

  it('never falls back in a re-derivation: the failure is thrown even on the final attempt', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    model.failure = connectionRefused();
    const job: DeriveJob = { ...ingest, key: 'ingest:s1:1-2#rederive@1', rederive: { markerKey: 'ingest:s1:1-2#degraded' } };
    await expect(deriveJob(job, models(model), { number: 3, isFinal: true })).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
  });

  it('throws what an offline primary throws: it has no fallback', async () => {
    const broken = new ExtractiveSummarizer({ tokens: new TiktokenTokenCounter() });
    broken.summarize = async () => {
      throw new Error('disk on fire');
    };
    const deps = { summarizer: broken, extractor: new HeuristicFactExtractor(), embeddings: new HashingEmbeddings(), policy: policySchema.parse({}) };
    await expect(deriveJob(summarize, deps, { number: 1, isFinal: true })).rejects.toThrow('disk on fire');
  });
});

describe('toModelError', () => {
  const status = (code: number) => Object.assign(new Error(`${code} boom`), { status: code });
  it.each([
    [connectionRefused(), 'BACKEND_UNAVAILABLE', true],
    [Object.assign(new Error('Request timed out.'), { name: 'APIConnectionTimeoutError' }), 'BACKEND_UNAVAILABLE', true],
    [status(500), 'BACKEND_UNAVAILABLE', true],
    [status(503), 'BACKEND_UNAVAILABLE', true],
    [status(429), 'BACKEND_UNAVAILABLE', true],
    [status(408), 'BACKEND_UNAVAILABLE', true],
    [status(401), 'CONFIG_INVALID', false],
    [status(404), 'CONFIG_INVALID', false],
    [status(400), 'INVALID_INPUT', false],
  ])('maps %s to %s (retryable: %s)', (error, code, retryable) => {
    const mapped = toModelError(error, 'gpt-x');
    expect(mapped.code).toBe(code);
    expect(mapped.retryable).toBe(retryable);
    expect(mapped.message).toContain('model gpt-x failed');
    expect(mapped.cause).toBe(error);
    expect(mapped.hint.length).toBeGreaterThan(10);
  });
});

describe('deriveJob within policy.limits', () => {
  const fact = (text: string) => ({ subject: 'user', predicate: 'note', object: text, text, sourceMessageIds: ['m1'], validFrom: T, confidence: 0.9 });
  const withExtractor = (facts: ReturnType<typeof fact>[], limits: Record<string, number> = {}) => ({
    summarizer: new ExtractiveSummarizer({ tokens: new TiktokenTokenCounter() }),
    extractor: { name: 'listing', extract: async () => facts },
    embeddings: new HashingEmbeddings(),
    policy: policySchema.parse({ limits }),
  });

  it('fails the job, not retried, when the extractor returns more facts than factsPerDerivation', async () => {
    const many = Array.from({ length: 6 }, (_, i) => fact(`User noted thing ${i}.`));
    const error = await deriveJob(ingest, withExtractor(many, { factsPerDerivation: 5 }), { number: 1, isFinal: false }).catch((e: unknown) => e);
    expect(StrataError.is(error, 'INVALID_INPUT')).toBe(true);
    expect((error as StrataError).message).toMatch(/6 facts for 2 turns.*factsPerDerivation \(5\)/);
    const result = await deriveJob(ingest, withExtractor(many.slice(0, 5), { factsPerDerivation: 5 }), { number: 1, isFinal: false });
    expect('facts' in result ? result.facts : []).toHaveLength(5);
  });

  it('leaves out a fact longer than factChars', async () => {
    const result = await deriveJob(ingest, withExtractor([fact('User lives in Lisbon.'), fact(`User pasted ${'notes '.repeat(50)}`)], { factChars: 100 }), { number: 1, isFinal: false });
    expect('facts' in result ? result.facts.map((f) => f.text) : []).toEqual(['User lives in Lisbon.']);
  });
});

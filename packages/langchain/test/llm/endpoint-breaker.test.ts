import { describe, expect, it } from 'vitest';
import { StrataError, type BackgroundError, type TranscriptTurn } from '@strata/core';
import { LlmFactExtractor } from '../../src/models/llm-fact-extractor.js';
import { LlmSummarizer } from '../../src/models/llm-summarizer.js';
import { createTestMemory } from '../helpers.js';
import { connectionRefused, ruleBasedAnswer, ToolCallingFake } from './tool-calling-fake.js';

const turns: TranscriptTurn[] = [{ id: 'm1', seq: 1, role: 'user', content: 'I live in Lisbon.', createdAt: Date.UTC(2026, 10, 20) }];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the endpoint circuit breaker', () => {
  it('after N consecutive failures calls fail at once (not retryable) without reaching the endpoint; after the cool-down one call probes and closes it', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const extractor = new LlmFactExtractor({ model, breaker: { failures: 2, coolDownMs: 200 } });
    model.failure = connectionRefused();
    for (let i = 0; i < 2; i++) {
      const error = await extractor.extract({ turns, knownFacts: [] }).catch((e: unknown) => e);
      expect(StrataError.is(error, 'BACKEND_UNAVAILABLE') && error.retryable).toBe(true);
    }
    expect(model.failedCalls).toBe(2);

    const open = await extractor.extract({ turns, knownFacts: [] }).catch((e: unknown) => e);
    expect(StrataError.is(open, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((open as StrataError).retryable).toBe(false);
    expect((open as StrataError).message).toMatch(/circuit open/);
    expect(model.failedCalls).toBe(2);

    model.failure = undefined;
    await sleep(250);
    const facts = await extractor.extract({ turns, knownFacts: [] });
    expect(facts.map((f) => f.object)).toEqual(['Lisbon']);
    expect(model.calls).toHaveLength(1);
  });

  it('an unusable answer does not count as the endpoint being down', async () => {
    const model = new ToolCallingFake(() => ({ nonsense: true }));
    const extractor = new LlmFactExtractor({ model, breaker: { failures: 1, coolDownMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect(StrataError.is(await extractor.extract({ turns, knownFacts: [] }).catch((e: unknown) => e), 'INTERNAL')).toBe(true);
    expect(model.calls).toHaveLength(6);
  });

  it('in a memory: once the circuit is open, jobs derive offline at once (degraded, no queue retries); re-derived when the endpoint is back', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const options = { model, breaker: { failures: 2, coolDownMs: 1000 } };
    const events: BackgroundError[] = [];
    const { memory } = await createTestMemory({ summarizer: new LlmSummarizer(options), extractor: new LlmFactExtractor(options), onError: (e) => events.push(e) });
    const session = await memory.sessions.create({ namespace: 'ana' });
    model.failure = connectionRefused();
    for (const content of ['I live in Lisbon.', 'I work at Acme.', 'My sister is Ana.', 'I like long walks.']) {
      await memory.append(session.id, [
        { role: 'user', content },
        { role: 'assistant', content: 'Noted.' },
      ]);
    }
    // Two failures opened the circuit (a job started beside them may fail too); later jobs fell
    // back without asking, where the inline queue would have tried each job 3 times.
    const stats = memory.stats().derivation;
    expect(model.failedCalls).toBeLessThan(stats.degradedResults);
    expect(model.failedCalls).toBeLessThanOrEqual(3);
    expect((await memory.facts.list({ namespace: 'ana' })).every((f) => f.degraded)).toBe(true);
    // each degraded result is reported with its job and why; the last ones were not asked (circuit open)
    const degraded = events.filter((e) => e.kind === 'degraded');
    expect(degraded).toHaveLength(stats.degradedResults);
    expect(new Set(degraded.map((e) => e.job?.key)).size).toBe(degraded.length);
    expect(String((degraded.at(-1)?.error as StrataError | undefined)?.message)).toMatch(/circuit open/);

    model.failure = undefined;
    await sleep(1100);
    expect(await memory.rederiveDegraded()).toEqual({ jobs: stats.degradedResults, remaining: 0 });
    const facts = await memory.facts.list({ namespace: 'ana' });
    expect(facts.some((f) => f.degraded)).toBe(false);
    expect(new Set(facts.map((f) => `${f.predicate}=${f.object}`)).size).toBe(facts.length);
    await memory.close();
  });
});

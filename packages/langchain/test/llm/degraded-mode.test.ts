import { describe, expect, it } from 'vitest';
import { createInProcessJobQueue, type Fact, type Summary } from '@strata/core';
import { LlmFactExtractor } from '../../src/models/llm-fact-extractor.js';
import { LlmSummarizer } from '../../src/models/llm-summarizer.js';
import { createTestMemory } from '../helpers.js';
import { connectionRefused, ruleBasedAnswer, ToolCallingFake, type FakeAnswer } from './tool-calling-fake.js';

async function llmMemory(answer: FakeAnswer = ruleBasedAnswer) {
  const model = new ToolCallingFake(answer);
  // No cool-down: these tests bring the model back at once (the breaker has its own tests).
  const breaker = { coolDownMs: 0 };
  const test = await createTestMemory({ summarizer: new LlmSummarizer({ model, breaker }), extractor: new LlmFactExtractor({ model, breaker }) });
  const session = await test.memory.sessions.create({ namespace: 'ana' });
  const say = (content: string) =>
    test.memory.append(session.id, [
      { role: 'user', content },
      { role: 'assistant', content: 'Noted.' },
    ]);
  const markers = async () => (await test.store.jobs({ sessionId: session.id })).filter((j) => j.key.endsWith('#degraded')).map((j) => j.key);
  return { ...test, model, session, say, markers };
}

const shape = (s: Summary) => ({ id: s.id, level: s.level, fromSeq: s.fromSeq, toSeq: s.toSeq, sourceMessageIds: s.sourceMessageIds, createdAt: s.createdAt });
const slot = (f: Fact) => `${f.predicate}=${f.object}${f.validTo === undefined ? '' : ' (history)'}${f.degraded ? ' [degraded]' : ''}`;

describe('degraded mode', () => {
  it('derives offline while the model is down (after retries), then re-derives and replaces when it is back', async () => {
    const { memory, store, model, session, say, markers } = await llmMemory();
    model.failure = connectionRefused();
    await say('I live in Lisbon.');
    await say('I work at Acme.');
    await say('My sister is Ana.');
    await say('I like long walks.');

    const degradedSummaries = await store.summaries({ sessionId: session.id });
    expect(degradedSummaries.length).toBeGreaterThan(0);
    expect(degradedSummaries.every((s) => s.degraded)).toBe(true);
    expect(degradedSummaries.some((s) => s.text.startsWith('LLM'))).toBe(false);
    const offlineFacts = await memory.facts.list({ namespace: 'ana' });
    expect(offlineFacts.map(slot).sort()).toEqual(['employer=Acme [degraded]', 'lives_in=Lisbon [degraded]', 'opinion_of:long walks=likes [degraded]', 'sister=Ana [degraded]']);
    // The inline queue tries 3 times; the first two failures are thrown for a retry, the third falls back.
    const before = memory.stats().derivation;
    expect(model.failedCalls).toBe(3 * before.degradedResults);
    expect(before).toMatchObject({ inputTokens: 0, outputTokens: 0, modelCalls: 0, rederivedResults: 0 });
    const degradedMarkers = await markers();
    expect(degradedMarkers.length).toBe(before.degradedResults);

    model.failure = undefined;
    await say('I am flying to Rome next Friday.');

    const after = await store.summaries({ sessionId: session.id });
    const replaced = after.filter((s) => degradedSummaries.some((d) => d.id === s.id));
    expect(replaced.map(shape)).toEqual(degradedSummaries.map(shape));
    expect(after.every((s) => !s.degraded && s.text.startsWith('LLM'))).toBe(true);
    const facts = await memory.facts.list({ namespace: 'ana', includeSuperseded: true });
    // The model's reading replaces the offline one: its slot names, and no opinion it did not find.
    expect(facts.map(slot).sort()).toEqual(['employer=Acme', 'lives_in=Lisbon', 'sister_name=Ana', 'trip=Rome on 2026-11-27']);
    expect(facts.find((f) => f.object === 'Lisbon')?.sourceMessageIds).toEqual(offlineFacts.find((f) => f.object === 'Lisbon')?.sourceMessageIds);
    expect(await markers()).toEqual([]);

    const stats = memory.stats().derivation;
    expect(stats.rederivedResults).toBe(degradedMarkers.length);
    expect({ inputTokens: stats.inputTokens, outputTokens: stats.outputTokens, modelCalls: stats.modelCalls }).toEqual({
      inputTokens: model.usage().inputTokens,
      outputTokens: model.usage().outputTokens,
      modelCalls: model.usage().calls,
    });
    expect(await memory.rederiveDegraded()).toEqual({ jobs: 0, remaining: 0 });
    await memory.close();
  });

  it('falls back when the model answers badly twice (one corrective call, no queue retries), and re-derives on request', async () => {
    let broken = true;
    const { memory, model, say, markers } = await llmMemory((call) => (broken ? { nonsense: true } : ruleBasedAnswer(call)));
    await say('I live in Lisbon.');
    // the answer, then the one corrective call with the validation error; the queue does not retry
    expect(model.calls).toHaveLength(2);
    expect((await memory.facts.list({ namespace: 'ana' })).map(slot)).toEqual(['lives_in=Lisbon [degraded]']);
    expect(await markers()).toHaveLength(1);

    broken = false;
    expect(await memory.rederiveDegraded()).toEqual({ jobs: 1, remaining: 0 });
    expect((await memory.facts.list({ namespace: 'ana' })).map(slot)).toEqual(['lives_in=Lisbon']);
    await memory.close();
  });

  it('keeps a degraded re-derivation marked while the model is still down', async () => {
    const { memory, model, say, markers } = await llmMemory();
    model.failure = connectionRefused();
    await say('I live in Lisbon.');
    expect(await memory.rederiveDegraded()).toEqual({ jobs: 1, remaining: 1 });
    expect(await markers()).toHaveLength(1);
    expect((await memory.facts.list({ namespace: 'ana' })).map(slot)).toEqual(['lives_in=Lisbon [degraded]']);
    await memory.close();
  });

  it('takes back a degraded fact the model does not confirm: the fact it superseded is current again, other slots untouched', async () => {
    const { memory, model, say } = await llmMemory((call) => {
      const answer = ruleBasedAnswer(call) as { facts?: { object: string }[] };
      // This model reads "I moved to Porto" as a joke, not a fact.
      return answer.facts ? { facts: answer.facts.filter((f) => f.object !== 'Porto') } : answer;
    });
    await say('I live in Lisbon.');
    await say('I work at Acme.');
    const acme = (await memory.facts.list({ namespace: 'ana' })).find((f) => f.object === 'Acme');
    model.failure = connectionRefused();
    await say('Haha, I moved to Porto.');
    expect((await memory.facts.list({ namespace: 'ana', includeSuperseded: true })).map(slot).sort()).toEqual(['employer=Acme', 'lives_in=Lisbon (history)', 'lives_in=Porto [degraded]']);

    model.failure = undefined;
    await say('Anyway.');
    const facts = await memory.facts.list({ namespace: 'ana', includeSuperseded: true });
    expect(facts.map(slot).sort()).toEqual(['employer=Acme', 'lives_in=Lisbon']);
    expect(facts.find((f) => f.object === 'Lisbon')?.supersededBy).toBeUndefined();
    expect(facts.find((f) => f.object === 'Acme')).toEqual(acme);
    await memory.close();
  });

  it('backs off while the endpoint is briefly down and completes with the model once it answers (background queue)', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const { memory, store } = await createTestMemory({
      extractor: new LlmFactExtractor({ model }),
      summarizer: new LlmSummarizer({ model }),
      queue: await createInProcessJobQueue({ attempts: 4, backoffMs: 5 }),
    });
    const session = await memory.sessions.create({ namespace: 'ana' });
    model.failure = connectionRefused();
    model.failuresLeft = 2;
    await memory.append(session.id, { role: 'user', content: 'I live in Lisbon.' });
    await memory.flush();
    expect(model.failedCalls).toBe(2);
    expect((await memory.facts.list({ namespace: 'ana' })).map(slot)).toEqual(['lives_in=Lisbon']);
    expect((await store.jobs({ sessionId: session.id })).map((j) => j.key)).toEqual([`ingest:${session.id}:1-1`]);
    expect(memory.stats().derivation).toMatchObject({ degradedResults: 0, results: 1, modelCalls: 1 });
    await memory.close();
  });

  it('replaces a degraded synopsis in place, re-folded from the batch summaries', async () => {
    const { memory, store, model, session, say, markers } = await llmMemory();
    model.failure = connectionRefused();
    for (let i = 0; i < 12; i++) await say(`Note number ${i}: I like topic ${i}.`);
    const [synopsis] = await store.summaries({ sessionId: session.id, level: 'synopsis' });
    expect(synopsis).toMatchObject({ level: 'synopsis', degraded: true });

    model.failure = undefined;
    const all = await markers();
    // A synopsis replaced by a later consolidation leaves a stale marker: cleared, not re-derived.
    const stale = all.filter((k) => k.startsWith('consolidate:') && !k.endsWith(`:1-${synopsis!.toSeq}#degraded`));
    expect(stale.length).toBeGreaterThan(0);
    expect(await memory.rederiveDegraded()).toEqual({ jobs: all.length - stale.length, remaining: 0 });
    expect(await markers()).toEqual([]);
    const [replaced] = await store.summaries({ sessionId: session.id, level: 'synopsis' });
    expect(replaced).toEqual({ ...synopsis, text: replaced!.text, degraded: false });
    const batches = await store.summaries({ sessionId: session.id, level: 'batch' });
    const folded = batches.filter((b) => b.toSeq <= synopsis!.toSeq).length;
    expect(replaced!.text).toBe(`LLM synopsis: ${folded} summaries folded.`);
    expect(batches.every((b) => !b.degraded)).toBe(true);
    await memory.close();
  });

  it('clears the markers of degraded summaries that a forget removes', async () => {
    const { memory, store, model, session, say, markers } = await llmMemory();
    model.failure = connectionRefused();
    for (let i = 0; i < 4; i++) await say(`Entry ${i}: I work at Acme${i}.`);
    const [first] = await store.summaries({ sessionId: session.id, level: 'batch' });
    expect(first?.degraded).toBe(true);
    await memory.forget({ messageIds: [first!.sourceMessageIds[0]!] });
    expect((await markers()).some((k) => k.startsWith(`summarize:${session.id}:${first!.fromSeq}-${first!.toSeq}#`))).toBe(false);

    model.failure = undefined;
    expect((await memory.rederiveDegraded()).remaining).toBe(0);
    const summaries = await store.summaries({ sessionId: session.id });
    expect(summaries.every((s) => !s.degraded)).toBe(true);
    expect(summaries.flatMap((s) => s.sourceMessageIds)).not.toContain(first!.sourceMessageIds[0]);
    await memory.close();
  });

  it('never marks results of offline primary models degraded', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'ana' });
    for (let i = 0; i < 8; i++) await memory.append(session.id, { role: 'user', content: `I live in Lisbon, note ${i}.` });
    expect(memory.stats().derivation).toMatchObject({ degradedResults: 0, modelCalls: 0, inputTokens: 0 });
    expect(memory.stats().derivation.results).toBeGreaterThan(8);
    await memory.close();
  });
});

import { modelNameOf } from '../../src/models/structured-call.js';
import { describe, expect, it } from 'vitest';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { StrataError, type TranscriptTurn } from '@strata/core';
import { LlmFactExtractor } from '../../src/models/llm-fact-extractor.js';
import { LlmSummarizer } from '../../src/models/llm-summarizer.js';
import { ruleBasedAnswer, ToolCallingFake } from './tool-calling-fake.js';

const FRIDAY = Date.UTC(2026, 10, 20, 9, 30);
const turn = (seq: number, role: TranscriptTurn['role'], content: string, createdAt = FRIDAY + seq * 60_000, name?: string): TranscriptTurn => ({
  id: `m${seq}`,
  seq,
  role,
  content,
  createdAt,
  ...(name ? { name } : {}),
});

describe('LlmFactExtractor', () => {
  it('renders each turn with its seq, timestamp and speaker, and maps cited turns to provenance', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const facts = await new LlmFactExtractor({ model }).extract({
      turns: [turn(1, 'user', 'Hi, I live in Lisbon.'), turn(2, 'assistant', 'Nice! I live in Lisbon too, in a way.'), turn(3, 'user', 'My sister is Ana.', undefined, 'Rui')],
      knownFacts: [],
    });
    expect(model.calls[0]?.prompt).toContain('[#1 Friday 2026-11-20 09:31 UTC] user: Hi, I live in Lisbon.');
    expect(model.calls[0]?.prompt).toContain('[#3 Friday 2026-11-20 09:33 UTC] Rui (user): My sister is Ana.');
    expect(facts).toEqual([
      { subject: 'user', predicate: 'lives_in', object: 'Lisbon', text: 'User lives in Lisbon.', sourceMessageIds: ['m1'], validFrom: FRIDAY + 60_000, confidence: 0.9 },
      { subject: 'rui', predicate: 'sister_name', object: 'Ana', text: "Rui's sister is Ana.", sourceMessageIds: ['m3'], validFrom: FRIDAY + 180_000, confidence: 0.9 },
    ]);
  });

  it('drops facts about the user cited from an assistant turn, keeps what the assistant says of itself', async () => {
    const model = new ToolCallingFake(() => ({
      facts: [
        { turn: 2, subject: 'user', predicate: 'lives_in', object: 'Porto', text: 'User lives in Porto.', confidence: 0.7 },
        { turn: 2, subject: 'assistant', predicate: 'name', object: 'Max', text: 'The assistant is called Max.', confidence: 0.9 },
        { turn: 9, subject: 'user', predicate: 'age', object: '34', text: 'User is 34.', confidence: 0.9 },
      ],
    }));
    const facts = await new LlmFactExtractor({ model }).extract({ turns: [turn(1, 'user', 'Who are you?'), turn(2, 'assistant', "I'm Max. You live in Porto, right?")], knownFacts: [] });
    expect(facts.map((f) => [f.subject, f.predicate, f.object, f.sourceMessageIds])).toEqual([['assistant', 'name', 'Max', ['m2']]]);
  });

  it('resolves relative dates from the timestamp of the turn that says them', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const monday = Date.UTC(2026, 10, 23, 8, 0);
    const facts = await new LlmFactExtractor({ model }).extract({ turns: [turn(4, 'user', "I'm flying to Tokyo next Friday.", monday)], knownFacts: [] });
    expect(model.calls[0]?.prompt).toMatch(/Resolve relative dates .* from the timestamp of the turn/);
    expect(model.calls[0]?.prompt).toContain('[#4 Monday 2026-11-23 08:00 UTC]');
    expect(facts[0]).toMatchObject({ predicate: 'trip', object: 'Tokyo on 2026-11-27', validFrom: monday });
  });

  it('shows known facts so that slots are reused, and keeps a known subject spelling', async () => {
    const model = new ToolCallingFake(() => ({ facts: [{ turn: 1, subject: 'Ana', predicate: 'lives_in', object: 'Faro', text: 'Ana lives in Faro.', confidence: 1.4 }] }));
    const facts = await new LlmFactExtractor({ model }).extract({
      turns: [turn(1, 'user', 'Ana moved to Faro.')],
      knownFacts: [{ id: 'f1', subject: 'ana', predicate: 'lives_in', object: 'Lagos', text: 'Ana lives in Lagos.' }],
    });
    expect(model.calls[0]?.prompt).toContain('Known facts (subject | predicate | object):\n- ana | lives_in | Lagos');
    expect(facts[0]).toMatchObject({ subject: 'ana', object: 'Faro', confidence: 1 });
  });

  it('names one slot one way: aliases and spellings become the canonical predicate, a known one is reused', async () => {
    const model = new ToolCallingFake(() => ({
      facts: [
        { turn: 1, subject: 'user', predicate: 'Current City', object: 'Faro', text: 'User lives in Faro.', confidence: 0.9 },
        { turn: 1, subject: 'user', predicate: 'Opinion-Of:Jazz', object: 'loves', text: 'User loves jazz.', confidence: 0.9 },
        { turn: 1, subject: 'user', predicate: 'occupation', object: 'nurse', text: 'User is a nurse.', confidence: 0.9 },
      ],
    }));
    const facts = await new LlmFactExtractor({ model }).extract({
      turns: [turn(1, 'user', 'I am a nurse in Faro and I love jazz.')],
      knownFacts: [{ id: 'f1', subject: 'user', predicate: 'job', object: 'teacher', text: 'User is a teacher.' }],
    });
    expect(facts.map((f) => f.predicate)).toEqual(['lives_in', 'opinion_of:jazz', 'job']);
  });

  it('reports the usage of each call and makes no call without a user or tool turn', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const extractor = new LlmFactExtractor({ model });
    const seen: { inputTokens: number; outputTokens: number; model?: string }[] = [];
    await extractor.extract({ turns: [turn(1, 'assistant', 'Hello, how can I help?')], knownFacts: [], onUsage: (u) => seen.push(u) });
    expect(model.calls).toHaveLength(0);
    await extractor.extract({ turns: [turn(1, 'user', 'I work at Acme.')], knownFacts: [], onUsage: (u) => seen.push(u) });
    expect(seen).toEqual([{ inputTokens: model.calls[0]!.inputTokens, outputTokens: model.calls[0]!.outputTokens, model: modelNameOf(model) }]);
    expect(seen[0]!.inputTokens).toBeGreaterThan(50);
  });

  it('rejects output that does not match the schema with a non-retryable StrataError', async () => {
    const model = new ToolCallingFake(() => ({ facts: [{ turn: 'one', subject: 'user' }] }));
    const error = await new LlmFactExtractor({ model }).extract({ turns: [turn(1, 'user', 'I live in Rome.')], knownFacts: [] }).catch((e: unknown) => e);
    expect(StrataError.is(error, 'INTERNAL')).toBe(true);
    expect((error as StrataError).retryable).toBe(false);
    expect((error as StrataError).message).toMatch(/unusable structured output[\s\S]*facts/);
  });

  it("works with LangChain's FakeListChatModel answering JSON text", async () => {
    const model = new FakeListChatModel({
      responses: [JSON.stringify({ facts: [{ turn: 1, subject: 'user', predicate: 'employer', object: 'Acme', text: 'User works at Acme.', confidence: 0.8 }] })],
    });
    const facts = await new LlmFactExtractor({ model }).extract({ turns: [turn(1, 'user', 'I work at Acme.')], knownFacts: [] });
    expect(facts.map((f) => f.object)).toEqual(['Acme']);
  });

  it('refuses options without a chat model (CONFIG_INVALID with a hint)', () => {
    const build = () => new LlmFactExtractor({ model: {} as never });
    expect(build).toThrow(/model must be a LangChain chat model/);
    try {
      build();
    } catch (error) {
      expect(StrataError.is(error, 'CONFIG_INVALID')).toBe(true);
      expect((error as StrataError).hint).toMatch(/Pass \{ model/);
    }
  });
});

describe('LlmSummarizer', () => {
  it('summarizes new turns on top of the previous summary, asking for the token cap in words', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const usage: number[] = [];
    const out = await new LlmSummarizer({ model }).summarize({
      turns: [turn(4, 'user', 'We settled on Porto.'), turn(5, 'assistant', 'Porto it is.')],
      previousSummary: 'The user was choosing between Lisbon and Porto.',
      maxTokens: 100,
      onUsage: (u) => usage.push(u.inputTokens),
    });
    const prompt = model.calls[0]!.prompt;
    expect(prompt).toContain('Previous summary (context only):\nThe user was choosing between Lisbon and Porto.');
    expect(prompt).toMatch(/Build on the previous summary/);
    expect(prompt).toContain('At most about 70 words.');
    expect(prompt).toContain('[#4 Friday 2026-11-20 09:34 UTC] user: We settled on Porto.');
    expect(out.text).toBe('LLM summary of #4,5: user said "We settled on Porto." assistant said "Porto it is."');
    expect(usage).toEqual([model.calls[0]!.inputTokens]);
  });

  it('folds the synopsis and summaries, oldest first', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const out = await new LlmSummarizer({ model }).consolidate({ synopsis: 'Old synopsis.', summaries: ['First.', 'Second.'], maxTokens: 300 });
    expect(model.calls[0]!.prompt).toContain('Current synopsis:\nOld synopsis.\n\nNewer summaries (oldest first):\n1. First.\n2. Second.');
    expect(out.text).toBe('LLM synopsis: 2 summaries folded.');
  });
});

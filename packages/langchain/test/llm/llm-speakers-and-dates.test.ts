import { describe, expect, it } from 'vitest';
import type { TranscriptTurn } from '@strata/core';
import { LlmFactExtractor } from '../../src/models/llm-fact-extractor.js';
import { LlmSummarizer } from '../../src/models/llm-summarizer.js';
import { parseTurns, ruleBasedAnswer, ToolCallingFake } from './tool-calling-fake.js';

// An invented two-person dialogue: each turn carries its speaker's name, a week apart.
const MONDAY = Date.UTC(2025, 2, 3, 18, 5);
const NEXT_MONDAY = Date.UTC(2025, 2, 10, 9, 40);
const dialogue: TranscriptTurn[] = [
  { id: 'p1', seq: 1, role: 'user', name: 'Priya', content: 'I signed up for a pottery class yesterday.', createdAt: MONDAY },
  { id: 't2', seq: 2, role: 'assistant', name: 'Tomasz', content: 'Nice! My brother Janek teaches there. You must be so talented.', createdAt: MONDAY + 60_000 },
  { id: 'p3', seq: 3, role: 'user', name: 'Priya', content: 'I live in Leeds now, by the way.', createdAt: NEXT_MONDAY },
];
/** What every request must show of each turn: its seq, timestamp, speaker's name and role. */
const RENDERED = [
  '[#1 Monday 2025-03-03 18:05 UTC] Priya (user): I signed up for a pottery class yesterday.',
  '[#2 Monday 2025-03-03 18:06 UTC] Tomasz (assistant): Nice! My brother Janek teaches there. You must be so talented.',
  '[#3 Monday 2025-03-10 09:40 UTC] Priya (user): I live in Leeds now, by the way.',
];

function expectTurnsWithNamesAndTimestamps(prompt: string): void {
  for (const line of RENDERED) expect(prompt).toContain(line);
  expect(parseTurns(prompt).map((t) => [t.seq, t.name, t.role, t.date])).toEqual([
    [1, 'Priya', 'user', '2025-03-03'],
    [2, 'Tomasz', 'assistant', '2025-03-03'],
    [3, 'Priya', 'user', '2025-03-10'],
  ]);
}

describe('LlmFactExtractor on named dialogue', () => {
  it('shows the model every turn with its speaker name and timestamp, and asks for third-person facts with absolute dates', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    await new LlmFactExtractor({ model }).extract({ turns: dialogue, knownFacts: [] });
    const prompt = model.calls[0]?.prompt ?? '';
    expectTurnsWithNamesAndTimestamps(prompt);
    expect(prompt).toContain("A fact is one short third-person sentence naming who it is about: the speaker's name, or 'User' for a user without a name");
    expect(prompt).toContain('Resolve first-person words (I, me, my, we, our) to the speaker');
    expect(prompt).toMatch(/Resolve relative dates \("yesterday".*\) to absolute dates \(YYYY-MM-DD\) from the timestamp of the turn that says them/);
    expect(prompt).toContain('Cite the #seq of the turn that states each fact');
    expect(prompt).toContain('Skip questions, greetings, thanks, compliments and other remarks about the other person');
  });

  it('names the speaker a fact is about, and drops what one speaker says of the other', async () => {
    const model = new ToolCallingFake(() => ({
      facts: [
        { turn: 1, subject: 'I', predicate: 'class', object: 'pottery since 2025-03-02', text: 'Priya signed up for a pottery class on 2025-03-02.', confidence: 0.9 },
        { turn: 2, subject: 'Tomasz', predicate: 'brother_name', object: 'Janek', text: "Tomasz's brother is Janek.", confidence: 0.9 },
        { turn: 2, subject: 'Janek', predicate: 'job', object: 'pottery teacher', text: 'Janek teaches pottery.', confidence: 0.8 },
        { turn: 2, subject: 'priya', predicate: 'skill', object: 'talented', text: 'Priya is talented.', confidence: 0.6 },
        { turn: 3, subject: 'user', predicate: 'lives_in', object: 'Leeds', text: 'Priya lives in Leeds.', confidence: 0.9 },
      ],
    }));
    const facts = await new LlmFactExtractor({ model }).extract({ turns: dialogue, knownFacts: [] });
    expect(facts.map((f) => [f.subject, f.predicate, f.text, f.sourceMessageIds, f.validFrom])).toEqual([
      ['priya', 'class', 'Priya signed up for a pottery class on 2025-03-02.', ['p1'], MONDAY],
      ['tomasz', 'brother_name', "Tomasz's brother is Janek.", ['t2'], MONDAY + 60_000],
      ['janek', 'job_title', 'Janek teaches pottery.', ['t2'], MONDAY + 60_000],
      ['priya', 'lives_in', 'Priya lives in Leeds.', ['p3'], NEXT_MONDAY],
    ]);
  });

  it('asks the model about a batch in which only a named assistant speaks (a person, not the AI)', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const facts = await new LlmFactExtractor({ model }).extract({ turns: [{ ...dialogue[1]!, content: 'I work at Harrow Mills.' }], knownFacts: [] });
    expect(model.calls).toHaveLength(1);
    expect(facts.map((f) => [f.subject, f.text])).toEqual([['tomasz', 'Tomasz works at Harrow.']]);
  });
});

describe('LlmSummarizer on named dialogue', () => {
  it('shows the model every turn with its speaker name and timestamp, and asks for names and dates', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const out = await new LlmSummarizer({ model }).summarize({ turns: dialogue, maxTokens: 120 });
    const prompt = model.calls[0]?.prompt ?? '';
    expectTurnsWithNamesAndTimestamps(prompt);
    expect(prompt).toContain('Attribute every statement to its speaker by name ("Ana said ...", "Ben suggested ...")');
    expect(prompt).toContain('Keep dates: say on which day things were said or happened ("On 2024-03-02, Ana ...")');
    expect(prompt).toMatch(/resolve relative dates .* to absolute dates \(YYYY-MM-DD\) from the timestamp of the turn that says them/);
    expect(out.text).toContain('Priya said "I signed up for a pottery class yesterday."');
  });

  it('hands the synopsis the summaries with their names and days, and asks to keep them', async () => {
    const model = new ToolCallingFake(ruleBasedAnswer);
    const summaries = ['[3 March 2025] Priya: I signed up for a pottery class.\nTomasz: My brother Janek teaches there.', '[10 March 2025] Priya: I live in Leeds now.'];
    await new LlmSummarizer({ model }).consolidate({ synopsis: 'On 2025-02-20, Priya said she was moving.', summaries, maxTokens: 300 });
    const prompt = model.calls[0]?.prompt ?? '';
    expect(prompt).toContain(`Current synopsis:\nOn 2025-02-20, Priya said she was moving.\n\nNewer summaries (oldest first):\n1. ${summaries[0]}\n2. ${summaries[1]}`);
    expect(prompt).toContain('Keep who said what by name, and the dates of what was said and happened');
    expect(prompt).toContain('never replace a name with "the user"');
  });
});

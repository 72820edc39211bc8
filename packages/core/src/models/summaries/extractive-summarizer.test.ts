import { describe, expect, it } from 'vitest';
import type { TranscriptTurn } from '../../domain/jobs.js';
import { StrataError } from '../../errors/strata-error.js';
import { CharTokenCounter } from '../tokens/char-token-counter.js';
import { ExtractiveSummarizer } from './extractive-summarizer.js';
import { splitSentences } from '../split-sentences.js';
import { parseSummaryLines } from './summary-lines.js';
import { TiktokenTokenCounter } from '../tokens/tiktoken-token-counter.js';

const T0 = Date.parse('2026-11-20T10:00:00Z');

function turns(...pairs: [TranscriptTurn['role'], string][]): TranscriptTurn[] {
  return pairs.map(([role, content], i) => ({ id: `m${i + 1}`, seq: i + 1, role, content, createdAt: T0 + i * 1000 }));
}

/** Every output sentence, day, label and ellipsis removed, must be a verbatim piece of the input. */
export function expectExtractive(output: string, input: string): void {
  for (const { text } of parseSummaryLines(output)) {
    for (const sentence of splitSentences(text)) expect(input).toContain(sentence.replace(/…$/u, ''));
  }
}

const chat = turns(
  ['user', 'Hi there! I moved to Berlin last March. I work as a nurse at Charité.'],
  ['assistant', 'Nice to meet you. Berlin is a great city. How can I help you today?'],
  ['user', 'Ok. I want to plan a trip to Tokyo in April. My budget is 2000 euros.'],
  ['assistant', 'Sure. Tokyo in April is cherry blossom season. Do you prefer hotels or hostels?'],
  ['user', 'Hotels, please. Thanks!'],
  ['tool', '{"results": 3}'],
);
const chatText = chat.map((turn) => turn.content).join('\n');

describe('ExtractiveSummarizer.summarize', () => {
  const tokens = new TiktokenTokenCounter();
  const summarizer = new ExtractiveSummarizer({ tokens });

  it('is named for what it is', () => {
    expect(summarizer.name).toBe('extractive');
  });

  it('keeps all but small talk when the budget allows, in order, one line per turn with its speaker', async () => {
    const { text } = await summarizer.summarize({ turns: chat, maxTokens: 1000 });
    expect(text).toBe(
      [
        '[20 November 2026] User: I moved to Berlin last March. I work as a nurse at Charité.',
        'Assistant: Nice to meet you. Berlin is a great city. How can I help you today?',
        'User: I want to plan a trip to Tokyo in April. My budget is 2000 euros.',
        'Assistant: Tokyo in April is cherry blossom season. Do you prefer hotels or hostels?',
        'User: Hotels, please.',
        'Tool: {"results": 3}',
      ].join('\n'),
    );
  });

  it.each([10, 25, 40, 60, 120])('picks durable, specific sentences within %i tokens', async (maxTokens) => {
    const { text } = await summarizer.summarize({ turns: chat, maxTokens });
    expect(tokens.count(text)).toBeLessThanOrEqual(maxTokens);
    expect(text.length).toBeGreaterThan(0);
    expectExtractive(text, chatText);
  });

  it('ranks first-person facts with names and numbers above small talk', async () => {
    const { text } = await summarizer.summarize({ turns: chat, maxTokens: 40 });
    expect(text).toContain('I moved to Berlin last March.');
    expect(text).not.toContain('Thanks!');
    expect(text).not.toContain('How can I help you today?');
  });

  it('is deterministic', async () => {
    const a = await summarizer.summarize({ turns: chat, maxTokens: 50 });
    const b = await new ExtractiveSummarizer({ tokens: new TiktokenTokenCounter() }).summarize({ turns: chat, maxTokens: 50 });
    expect(a.text).toBe(b.text);
  });

  it('does not repeat the previous summary and prefers what is new', async () => {
    const previousSummary = 'User: I moved to Berlin last March. I work as a nurse at Charité.';
    const batch = turns(['user', 'I moved to Berlin last March, as I said.'], ['user', 'My sister Anna is visiting me in Hamburg next week.']);
    const { text } = await summarizer.summarize({ turns: batch, previousSummary, maxTokens: 20 });
    expect(text).toBe('[20 November 2026] User: My sister Anna is visiting me in Hamburg next week.');
  });

  it('shortens the best sentence at a clause end, with an ellipsis, when none fits whole', async () => {
    const batch = turns(['user', 'I decided to move to Lisbon in 2027, because my partner Marta got a job offer there.']);
    const { text } = await summarizer.summarize({ turns: batch, maxTokens: 24 });
    expect(text).toBe('[20 November 2026] User: I decided to move to Lisbon in 2027…');
    expect(tokens.count(text)).toBeLessThanOrEqual(24);
  });

  it('returns at least one sentence even of small talk, and nothing for no turns', async () => {
    expect((await summarizer.summarize({ turns: turns(['user', 'Ok!']), maxTokens: 50 })).text).toBe('[20 November 2026] User: Ok!');
    expect((await summarizer.summarize({ turns: [], maxTokens: 50 })).text).toBe('');
  });

  it('labels tool turns with the tool name', async () => {
    const batch: TranscriptTurn[] = [{ id: 't', seq: 1, role: 'tool', name: 'weather', content: 'Berlin: 4 degrees, rain.', createdAt: T0 }];
    expect((await summarizer.summarize({ turns: batch, maxTokens: 50 })).text).toBe('[20 November 2026] weather: Berlin: 4 degrees, rain.');
  });

  it.each([0, -5, 2.5, Number.NaN])('rejects maxTokens %s', async (maxTokens) => {
    await expect(summarizer.summarize({ turns: chat, maxTokens })).rejects.toSatisfy((e) => StrataError.is(e, 'INVALID_INPUT'));
  });

  it.each([
    ['tiktoken', new TiktokenTokenCounter(), 200],
    ['chars/4', new CharTokenCounter(), 200],
    ['tiktoken tiny', new TiktokenTokenCounter(), 3],
    ['tiktoken small', new TiktokenTokenCounter(), 12],
  ])('never exceeds the budget on a long input (%s)', async (_, counter, maxTokens) => {
    const long = turns(
      ...Array.from({ length: 60 }, (_, i): [TranscriptTurn['role'], string] => [
        i % 2 === 0 ? 'user' : 'assistant',
        `Message ${i} talks about topic ${i % 7} at length. I like item ${i} a lot. Filler words fill the room here.`,
      ]),
    );
    const { text } = await new ExtractiveSummarizer({ tokens: counter }).summarize({ turns: long, maxTokens });
    expect(counter.count(text)).toBeLessThanOrEqual(maxTokens);
    expect(text.length).toBeGreaterThan(0);
    expectExtractive(text, long.map((turn) => turn.content).join('\n'));
  });
});

describe('ExtractiveSummarizer.consolidate', () => {
  const tokens = new TiktokenTokenCounter();
  const summarizer = new ExtractiveSummarizer({ tokens });
  const synopsis = 'User: I live in Berlin. I work as a nurse.';
  const summaries = [
    'User: I am planning a trip to Tokyo in April.\nAssistant: Suggested three hotels near Shinjuku.',
    'User: I booked the Hotel Gracery for April 3. My budget is 2000 euros. Thanks.',
  ];
  const input = [synopsis, ...summaries].join('\n');

  it('keeps all but small talk in chronological order when it fits', async () => {
    const { text } = await summarizer.consolidate({ synopsis, summaries, maxTokens: 500 });
    expect(text).toBe(
      [
        'User: I live in Berlin. I work as a nurse.',
        'User: I am planning a trip to Tokyo in April.',
        'Assistant: Suggested three hotels near Shinjuku.',
        'User: I booked the Hotel Gracery for April 3. My budget is 2000 euros.',
      ].join('\n'),
    );
  });

  it.each([12, 20, 30])('selects verbatim sentences within %i tokens', async (maxTokens) => {
    const { text } = await summarizer.consolidate({ synopsis, summaries, maxTokens });
    expect(tokens.count(text)).toBeLessThanOrEqual(maxTokens);
    expectExtractive(text, input);
  });

  it('works without a synopsis and drops repeated sentences', async () => {
    const { text } = await summarizer.consolidate({ summaries: ['User: I love jazz.', 'User: I love jazz.'], maxTokens: 100 });
    expect(text).toBe('User: I love jazz.');
  });

  it('never exceeds the budget on many long summaries', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `User: Summary ${i} says I like thing ${i}. Assistant: Noted item ${i} on 2026-01-${(i % 28) + 1}.`);
    const { text } = await summarizer.consolidate({ summaries: many, maxTokens: 150 });
    expect(tokens.count(text)).toBeLessThanOrEqual(150);
    expectExtractive(text, many.join('\n'));
  });
});

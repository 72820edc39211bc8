import { describe, expect, it } from 'vitest';
import type { TranscriptTurn } from '../../domain/jobs.js';
import { CharTokenCounter } from '../tokens/char-token-counter.js';
import { ExtractiveSummarizer } from './extractive-summarizer.js';
import { parseSummaryLines } from './summary-lines.js';
import { TiktokenTokenCounter } from '../tokens/tiktoken-token-counter.js';

// Two people talking on two days, each turn carrying its speaker's name.
const MARCH_3 = Date.UTC(2025, 2, 3, 18, 5);
const MARCH_10 = Date.UTC(2025, 2, 10, 9, 40);
type Line = [TranscriptTurn['role'], string, string];
function dialogue(start: number, firstSeq: number, lines: Line[]): TranscriptTurn[] {
  return lines.map(([role, name, content], i) => ({ id: `d${firstSeq + i}`, seq: firstSeq + i, role, name, content, createdAt: start + i * 60_000 }));
}
const dayOne = dialogue(MARCH_3, 1, [
  ['user', 'Priya', 'Hey Tomasz! I signed up for a pottery class at the studio on Elm Street, every Tuesday evening.'],
  ['assistant', 'Tomasz', 'Nice, Priya! My brother Janek teaches woodworking there, so say hi if you see him.'],
  ['user', 'Priya', 'Will do. I also adopted a grey cat named Biscuit last weekend, which was a big decision for me.'],
  ['assistant', 'Tomasz', 'Congrats! We are driving to Kraków in April to see my grandmother for her 90th birthday.'],
]);
const dayTwo = dialogue(MARCH_10, 5, [
  ['user', 'Priya', 'Biscuit knocked my first bowl off the shelf, so I have to start it again next Tuesday.'],
  ['assistant', 'Tomasz', 'Ha! Janek says your glaze colours were the best in the class.'],
  ['user', 'Priya', 'I am planning to sell a few mugs at the spring market in May.'],
]);
const allText = [...dayOne, ...dayTwo].map((t) => t.content).join('\n');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The output ends each of its lines at a word end of the input, never inside a word. */
function expectWholeWords(output: string, input: string): void {
  expect(output).not.toMatch(LONE_SURROGATE);
  for (const { text } of parseSummaryLines(output)) {
    const kept = text.replace(/…$/u, '');
    const at = input.indexOf(kept.split(/(?<=[.!?])\s+/u).at(-1) ?? kept);
    expect(at).toBeGreaterThanOrEqual(0);
    const last = kept.split(/(?<=[.!?])\s+/u).at(-1) ?? kept;
    expect(input.charAt(at + last.length)).not.toMatch(/[\p{L}\p{N}]/u);
  }
}

describe('ExtractiveSummarizer on named dialogue', () => {
  const tokens = new TiktokenTokenCounter();
  const summarizer = new ExtractiveSummarizer({ tokens });

  it('names each speaker and writes the day; greetings and calling each other by name are small talk', async () => {
    const { text } = await summarizer.summarize({ turns: dayOne, maxTokens: 500 });
    expect(text).toBe(
      [
        '[3 March 2025] Priya: I signed up for a pottery class at the studio on Elm Street, every Tuesday evening.',
        'Tomasz: My brother Janek teaches woodworking there, so say hi if you see him.',
        'Priya: I also adopted a grey cat named Biscuit last weekend, which was a big decision for me.',
        'Tomasz: We are driving to Kraków in April to see my grandmother for her 90th birthday.',
      ].join('\n'),
    );
  });

  it('writes each day a batch spans where its turns begin', async () => {
    const { text } = await summarizer.summarize({ turns: [...dayOne.slice(2), ...dayTwo.slice(0, 1)], maxTokens: 500 });
    expect(text.split('\n').map((line) => line.slice(0, 24))).toEqual(['[3 March 2025] Priya: I ', 'Tomasz: We are driving t', '[10 March 2025] Priya: B']);
  });

  it.each([
    ['tiktoken', new TiktokenTokenCounter()],
    ['chars/4', new CharTokenCounter()],
  ])('stays within every cap from 5 to 200 tokens and never ends inside a word (%s)', async (_, counter) => {
    const model = new ExtractiveSummarizer({ tokens: counter });
    for (let maxTokens = 5; maxTokens <= 200; maxTokens += 1) {
      const { text } = await model.summarize({ turns: [...dayOne, ...dayTwo], maxTokens });
      expect(counter.count(text)).toBeLessThanOrEqual(maxTokens);
      expect(text.length).toBeGreaterThan(0);
      expectWholeWords(text, allText);
      const synopsis = await model.consolidate({ summaries: [text, text.replace('Priya', 'Tomasz')], maxTokens });
      expect(counter.count(synopsis.text)).toBeLessThanOrEqual(maxTokens);
      expectWholeWords(synopsis.text, allText);
    }
  });

  it('shortens text without spaces between words, never inside a surrogate pair', async () => {
    const cjk = dialogue(MARCH_3, 1, [['user', '美咲', '私は去年の春に大阪へ引っ越して、新しい仕事を始めました🎉とても楽しいです。']]);
    const outputs = await Promise.all([8, 10, 12, 14, 16, 20].map(async (maxTokens) => (await summarizer.summarize({ turns: cjk, maxTokens })).text));
    const source = cjk[0]?.content ?? '';
    const wordStarts = new Set([...new Intl.Segmenter('ja', { granularity: 'word' }).segment(source)].map((s) => s.index));
    for (const text of outputs) {
      expect(text).not.toMatch(LONE_SURROGATE);
      const kept = (parseSummaryLines(text)[0]?.text ?? '').replace(/…$/u, '');
      expect(source.startsWith(kept)).toBe(true);
      expect(wordStarts.has(kept.length) || kept.length === source.length).toBe(true);
    }
    expect(outputs[0]).toMatch(/^(?:\[3 March 2025\] )?美咲: 私は/u);
  });

  it('drops a sentence whose only word is too long to fit rather than cutting it', async () => {
    const token = 'a1b2c3d4e5'.repeat(20);
    const batch = dialogue(MARCH_3, 1, [['user', 'Priya', token]]);
    expect((await summarizer.summarize({ turns: batch, maxTokens: 10 })).text).toBe('');
  });
});

describe('ExtractiveSummarizer.consolidate on named dialogue', () => {
  const tokens = new TiktokenTokenCounter();
  const summarizer = new ExtractiveSummarizer({ tokens });

  it('keeps who said what, and when, from the summaries it folds in', async () => {
    const first = await summarizer.summarize({ turns: dayOne, maxTokens: 60 });
    const second = await summarizer.summarize({ turns: dayTwo, previousSummary: first.text, maxTokens: 60 });
    const { text } = await summarizer.consolidate({ summaries: [first.text, second.text], maxTokens: 90 });
    const lines = parseSummaryLines(text);
    expect(lines.length).toBeGreaterThan(1);
    expect(new Set(lines.map((line) => line.day))).toEqual(new Set(['3 March 2025', '10 March 2025']));
    for (const line of lines) expect(['Priya', 'Tomasz']).toContain(line.label);
    expect(text).not.toMatch(/\b(?:User|Assistant):/);
    expect(tokens.count(text)).toBeLessThanOrEqual(90);
  });

  it('carries a synopsis line over with its speaker and day', async () => {
    const synopsis = '[3 March 2025] Priya: I adopted a grey cat named Biscuit last weekend.';
    const { text } = await summarizer.consolidate({ synopsis, summaries: ['[10 March 2025] Tomasz: We are driving to Kraków in April.'], maxTokens: 100 });
    expect(text).toBe(`${synopsis}\n[10 March 2025] Tomasz: We are driving to Kraków in April.`);
  });
});

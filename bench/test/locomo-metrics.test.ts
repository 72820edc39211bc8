import { describe, expect, it } from 'vitest';
import { normaliseEvidence, parseSessionDate } from '../lib/locomo-data.js';
import { contentWords, scoreDerivation, stripSuffix } from '../lib/locomo-metrics.js';

describe('LoCoMo-format reading', () => {
  it('parses session dates on the UTC calendar', () => {
    expect(new Date(parseSessionDate('1:56 pm on 8 May, 2023')).toISOString()).toBe('2023-05-08T13:56:00.000Z');
    expect(new Date(parseSessionDate('12:05 am on 1 January 2024')).toISOString()).toBe('2024-01-01T00:05:00.000Z');
    expect(() => parseSessionDate('yesterday')).toThrow(/unreadable session date/);
  });

  it('normalises malformed evidence ids', () => {
    expect(normaliseEvidence('D1:3')).toEqual(['D1:3']);
    expect(normaliseEvidence('D:11:26')).toEqual(['D11:26']);
    expect(normaliseEvidence('D1:3; D1:4')).toEqual(['D1:3', 'D1:4']);
    expect(normaliseEvidence('')).toEqual([]);
  });
});

describe('derivation metrics', () => {
  it('strips plural and tense suffixes plainly', () => {
    expect(['paints', 'painted', 'painting', 'paint'].map(stripSuffix)).toEqual(['paint', 'paint', 'paint', 'paint']);
    expect(['stories', 'loves', 'love'].map(stripSuffix)).toEqual(['story', 'lov', 'lov']);
  });

  it("leaves out stop words and the speakers' names", () => {
    expect([...contentWords("Ana's brother Bo painted the old lighthouse", ['Ana', 'Bo'])].sort()).toEqual(['brother', 'lighthous', 'old', 'paint']);
  });

  it('covers an observation with a fact citing its turn and holding 40 % of its words; grounds a fact holding 30 % of one', () => {
    const observations = [
      { speaker: 'Ana', statement: 'Ana painted a lighthouse at sunrise with her brother.', evidence: ['c:D1:1'] },
      { speaker: 'Ana', statement: 'Ana adopted a grey cat named Biscuit.', evidence: ['c:D1:5'] },
    ];
    const facts = [
      { text: 'Ana painted the lighthouse on 2 May 2024.', sourceMessageIds: ['c:D1:1'] }, // lighthouse, paint: 2 of 4 words -> covers, grounds
      { text: 'Ana adopted a grey cat named Biscuit.', sourceMessageIds: ['c:D1:2'] }, // right words, wrong turn: neither
      { text: 'Ana thinks the weather is lovely.', sourceMessageIds: ['c:D1:9'] }, // small talk
    ];
    expect(scoreDerivation(observations, facts, ['Ana', 'Bo'])).toEqual({ observations: 2, covered: 1, facts: 3, grounded: 1 });
  });
});

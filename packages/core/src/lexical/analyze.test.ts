import { describe, expect, it } from 'vitest';
import { stemmer } from 'stemmer';
import { analyzeText, isStopWord } from './analyze.js';

describe('analyzeText', () => {
  it.each([
    ['I moved to Berlin last year', ['move', 'berlin', 'last', 'year']],
    ["My sister's running shoes", ['sister', 'run', 'shoe']],
    ['The cats are LIVING happily', ['cat', 'live', 'happili']],
    ['', []],
    ['   ...!!! ', []],
  ])('%j -> %j', (input, expected) => {
    expect(analyzeText(input)).toEqual(expected);
  });

  it('keeps digits and non-latin letters', () => {
    expect(analyzeText('Room 42 in Zürich')).toEqual(['room', '42', 'zürich']);
  });

  it('knows stop words regardless of case', () => {
    expect(isStopWord('The')).toBe(true);
    expect(isStopWord('berlin')).toBe(false);
  });
});

describe('analyzeText with its stem cache', () => {
  it("gives the stemmer's own stems, for words seen before and after the cache evicts them", () => {
    // more distinct words than the cache keeps, each analyzed twice: the second pass is served from the cache or after an eviction
    const words = Array.from({ length: 60_000 }, (_, i) => `walking${i.toString(36)}s`);
    for (const pass of [1, 2]) {
      for (let i = 0; i < words.length; i += 997) {
        const word = words[i] as string;
        expect(analyzeText(word), `${word}, pass ${pass}`).toEqual([stemmer(word)]);
      }
      for (const word of words) analyzeText(word);
    }
    expect(analyzeText('Running runners ran')).toEqual(['run', 'runner', 'ran']);
  });
});

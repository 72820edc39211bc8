import { describe, expect, it } from 'vitest';
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

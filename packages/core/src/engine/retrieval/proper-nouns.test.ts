import { describe, expect, it } from 'vitest';
import { properNouns } from './proper-nouns.js';

describe('properNouns', () => {
  it.each([
    ['My cousin is called Alice.', ['Alice']],
    ['Alice just moved to Hanoi for a new job.', ['Hanoi']],
    ['I moved from Cape Town to Krakow. Berlin is next!', ['Cape', 'Town', 'Krakow']],
    ["I met Lena's brother in Seoul, I think.", ['Lena', 'Seoul']],
    ['i am from osaka', []],
    ['The IBM office. Yes.', []],
    ['', []],
  ])('%j -> %j', (text, expected) => {
    expect(properNouns(text)).toEqual(expected);
  });
});

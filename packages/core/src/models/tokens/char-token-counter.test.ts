import { describe, expect, it } from 'vitest';
import { CharTokenCounter } from './char-token-counter.js';

describe('CharTokenCounter', () => {
  const counter = new CharTokenCounter();

  it('is named for its rule', () => {
    expect(counter.name).toBe('chars/4');
  });

  it.each([
    ['', 0],
    ['a', 1],
    ['abcd', 1],
    ['abcde', 2],
    ['hello world', 3],
    ['x'.repeat(400), 100],
  ])('%j -> %i', (text, expected) => {
    expect(counter.count(text)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { TiktokenTokenCounter } from './tiktoken-token-counter.js';

describe('TiktokenTokenCounter', () => {
  const counter = new TiktokenTokenCounter();

  it('is named for its encoding', () => {
    expect(counter.name).toBe('tiktoken:o200k_base');
  });

  it.each([
    ['', 0],
    ['hello world', 2],
    ['I live in Berlin.', 5],
    ['The quick brown fox jumps over the lazy dog.', 10],
    // special-token text is ordinary text typed by a user: counted, never thrown on
    ['<|endoftext|>', 7],
  ])('%j -> %i', (text, expected) => {
    expect(counter.count(text)).toBe(expected);
  });

  it('gives the same count from the cache and for long uncached texts', () => {
    const long = 'hello world '.repeat(500);
    expect(long.length).toBeGreaterThan(2_000);
    const first = counter.count(long);
    expect(counter.count(long)).toBe(first);
    expect(first).toBe(1001); // one token per word + the trailing space
    expect(counter.count('hello world')).toBe(2);
  });

  it('keeps counting correctly past the cache bound', () => {
    const fresh = new TiktokenTokenCounter();
    for (let i = 0; i < 10_050; i++) fresh.count(`n${i}`);
    expect(fresh.count('hello world')).toBe(2);
    expect(fresh.count('n0')).toBe(counter.count('n0'));
  });
});

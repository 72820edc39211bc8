import { describe, expect, it } from 'vitest';
import { TiktokenTokenCounter } from './tiktoken-token-counter.js';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

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

  it('counts a long multi-line text, cut into cached lines, exactly as the whole text', () => {
    let seed = 3;
    const random = (): number => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    // line starts and ends that pre-tokenize differently: spaces, slashes, punctuation, digits, marks, CRLF, tabs, other scripts
    const pieces = [
      '\n',
      '\n\n',
      '\r\n',
      ' \n',
      '.\n',
      '!!\n',
      '/',
      '//',
      ' ',
      '  ',
      '\t',
      '- ',
      'Word',
      'word',
      "'s",
      '123',
      '4567',
      ',',
      'é',
      '\u0301',
      '你好',
      '🤖',
      '\u00a0',
      '\u2028',
      '<|endoftext|>',
    ];
    // one reference encoder: building o200k's ranks costs about half a second each time
    const reference = new Tiktoken(o200kBase);
    for (let round = 0; round < 40; round++) {
      const fresh = new TiktokenTokenCounter();
      let text = '';
      while (text.length < 2_500 + round * 50) text += pieces[Math.floor(random() * pieces.length)];
      const whole = reference.encode(text, [], []).length;
      expect(fresh.count(text), JSON.stringify(text.slice(0, 80))).toBe(whole);
      // and again from the cached lines
      expect(fresh.count(text)).toBe(whole);
    }
  });

  it('keeps counting correctly past the cache bound', () => {
    const fresh = new TiktokenTokenCounter();
    for (let i = 0; i < 10_050; i++) fresh.count(`n${i}`);
    expect(fresh.count('hello world')).toBe(2);
    expect(fresh.count('n0')).toBe(counter.count('n0'));
  });
});

describe('TiktokenTokenCounter against js-tiktoken (the reference port of OpenAI tiktoken)', () => {
  it('counts exactly as js-tiktoken on prose, code, mixed scripts, emoji, special-token text and random text', () => {
    const reference = new Tiktoken(o200kBase);
    let seed = 7;
    const random = (): number => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const codePoint = (): number => (random() < 0.7 ? 32 + Math.floor(random() * 95) : random() < 0.5 ? 0xa0 + Math.floor(random() * 0x500) : 0x4e00 + Math.floor(random() * 2000));
    const texts = [
      '<|endoftext|> hi <|im_start|>user<|im_end|>',
      'héllo wörld 你好世界 🤖🎉 مرحبا',
      'function f(x) {\n  return x * 2;\n}\n\n\n   spaces  ',
      "it's I'LL we've they'd",
      '12345678901234 3.14159',
      '\t\n\r ',
      'a'.repeat(5_000),
      ...Array.from({ length: 1_000 }, () => String.fromCodePoint(...Array.from({ length: Math.floor(random() * 120) }, codePoint))),
    ];
    const counter = new TiktokenTokenCounter();
    const differing = texts.filter((text) => counter.count(text) !== reference.encode(text, [], []).length);
    expect(differing).toEqual([]);
  });
});

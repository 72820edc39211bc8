import { describe, expect, it } from 'vitest';
import { compressText, restoreText } from './cold-text.js';

describe('cold text', () => {
  it.each([
    { name: 'empty', text: '' },
    { name: 'a short turn', text: 'I moved to Berlin last spring.' },
    { name: 'unicode and newlines', text: 'Größe: 42 € — 東京\n\n  indented\ttab 🎉' },
    { name: 'a long reply', text: 'Layer the pasta with spinach, ricotta and tomato sauce. '.repeat(40) },
  ])('round-trips $name exactly', ({ text }) => {
    expect(restoreText(compressText(text))).toBe(text);
  });

  it('makes repetitive text much smaller', () => {
    const text = 'We talked about the lasagna recipe and the oven temperature again. '.repeat(20);
    expect(compressText(text).length).toBeLessThan(Buffer.byteLength(text) / 5);
  });

  it('refuses bytes of an unknown format or damaged bytes', () => {
    expect(() => restoreText(Uint8Array.from([9, 1, 2]))).toThrow(/unknown format 9/);
    const damaged = compressText('hello there, how are you?');
    expect(() => restoreText(damaged.subarray(0, 3))).toThrow(/cannot be restored/);
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readText, storedText } from './rows.js';

describe('stored text', () => {
  it('round-trips any string, and stores none with U+0000 (which PostgreSQL text refuses)', () => {
    const withSpecials = fc.array(fc.oneof(fc.string(), fc.constantFrom('\u0000', '\uFFFF', '\uFFFF0', '\uFFFF1', '0', '1')), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), withSpecials), (text) => {
        const stored = storedText(text);
        expect(stored.includes('\u0000')).toBe(false);
        expect(readText(stored)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves text without U+0000 or U+FFFF as it is', () => {
    expect(storedText('emoji 🤖, RTL مرحبا')).toBe('emoji 🤖, RTL مرحبا');
    expect(storedText('a\u0000b')).toBe('a\uFFFF0b');
  });
});

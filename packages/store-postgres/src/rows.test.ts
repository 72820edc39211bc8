import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { JobRecord } from '@strata/core';
import { readText, storedText, storedUsage, toJob } from './rows.js';

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

describe('stored usage', () => {
  const read = (stored: string | null): JobRecord => toJob({ key: 'k', type: 'ingest', session_id: 's1', from_seq: 1, to_seq: 1, applied_at: 1, usage: stored === null ? null : JSON.parse(stored) });

  it('round-trips any model name through JSON that JSONB accepts (no \\u0000, no lone surrogate)', () => {
    const withSpecials = fc.array(fc.oneof(fc.string(), fc.constantFrom('\u0000', '\uFFFF', '\uFFFF0', '__proto__')), { maxLength: 4 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.uniqueArray(fc.oneof(fc.string({ unit: 'grapheme' }), withSpecials), { maxLength: 5 }), (names) => {
        const byModel = Object.fromEntries(names.map((name, i) => [name, { inputTokens: i, outputTokens: 1, calls: 1 }]));
        const stored = storedUsage({ inputTokens: 9, outputTokens: 5, calls: names.length, byModel });
        expect(stored).not.toMatch(/\\u(0000|d[89a-f])/i);
        expect(read(stored).usage).toEqual({ inputTokens: 9, outputTokens: 5, calls: names.length, byModel });
      }),
      { numRuns: 1000 },
    );
  });

  it('stores a lone surrogate in a model name as U+FFFD, as a text column would, and no usage as NULL', () => {
    const stored = storedUsage({ inputTokens: 1, outputTokens: 1, calls: 1, byModel: { 'bad\uD800name': { inputTokens: 1, outputTokens: 1, calls: 1 } } });
    expect(Object.keys(read(stored).usage?.byModel ?? {})).toEqual(['bad\uFFFDname']);
    expect(storedUsage(undefined)).toBeNull();
    expect('usage' in read(null)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { cutAtBoundary } from './cut-at-boundary.js';

const upTo =
  (chars: number) =>
  (text: string): boolean =>
    text.length <= chars;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const boundaries = (text: string): Set<number> => new Set([...new Intl.Segmenter(undefined, { granularity: 'word' }).segment(text)].map((s) => s.index).concat(text.length));

describe('cutAtBoundary', () => {
  it.each([
    ['returns text that fits as is', 'I live in Porto.', 40, 'I live in Porto.'],
    ['prefers a clause end that keeps most of the words', 'I moved to Berlin, where I work as a nurse.', 30, 'I moved to Berlin…'],
    ['takes the word end when the clause end keeps too little', 'Yes, I adopted two cats from the shelter in town.', 30, 'Yes, I adopted two cats from…'],
    ['cuts before a spaced dash, not after it', 'Pottery is my thing - I go every Tuesday evening.', 24, 'Pottery is my thing…'],
    ['keeps a hyphenated word whole', 'A well-known painter visited.', 10, 'A…'],
    ['keeps the words without an ellipsis when only they fit', 'Remember Wednesday.', 8, 'Remember'],
    ['gives nothing when not even the first word fits', 'Supercalifragilistic words.', 5, undefined],
    ['cuts between words of a script without spaces', '東京タワーに行ったけど、とても混んでいた。', 12, '東京タワーに行ったけど…'],
  ])('%s', (_, text, chars, expected) => {
    expect(cutAtBoundary(text, upTo(chars))).toBe(expected);
  });

  it('never ends inside a word, a grapheme or a surrogate pair, for any cap', () => {
    const texts = [
      'My sister Ana, who lives in Faro, sent me 3.50 euros — don’t ask why.',
      '私は去年の春に大阪へ引っ越して、新しい仕事を始めました。',
      'Party time 🎉🎉 with my friends 👍🏽 at Zoë’s place, naïvely.',
      'https://example.org/a/very/long/path?with=query then words after it',
    ];
    for (const text of texts) {
      const cuts = boundaries(text);
      for (let chars = 1; chars <= text.length + 1; chars += 1) {
        const out = cutAtBoundary(text, upTo(chars));
        if (out === undefined) continue;
        expect(out.length).toBeLessThanOrEqual(chars);
        expect(out).not.toMatch(LONE_SURROGATE);
        const kept = out.replace(/…$/u, '');
        expect(text.startsWith(kept)).toBe(true);
        expect(cuts.has(kept.length)).toBe(true);
        // A Latin word goes on only after a space or punctuation.
        expect(/[\p{L}\p{N}]/u.test(text.charAt(kept.length)) && /[\p{Script=Latin}\p{N}]/u.test(kept.at(-1) ?? '')).toBe(false);
      }
    }
  });
});

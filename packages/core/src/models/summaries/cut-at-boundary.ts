/**
 * Where a text may be shortened without cutting a word in half. A summary read later must not
 * end in "wor": a reader (or a model) cannot tell a cut word from a different word.
 */

const ELLIPSIS = '…';
// Scripts written without spaces between words: a word boundary inside them is a cut point.
const NO_SPACE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303f\uff00-\uffef]/u;
const CLAUSE_END = /[,;:](?=\s)|[、，；：]|\s[–—-]\s/gu;
// A clause cut is preferred unless it throws away much more than the word cut would.
const CLAUSE_KEEPS = 0.6;
// made on the first cut: ICU's word segmenter loads its dictionaries (about 18 ms), which an
// import of strata that never shortens a text should not pay
let segmenter: Intl.Segmenter | undefined;

/**
 * Offsets that end a word: before whitespace, and between words of a script without spaces
 * (found by the ICU word segmenter, so never inside a word, a grapheme or a surrogate pair).
 */
function wordEnds(text: string): number[] {
  const ends: number[] = [];
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  for (const { segment, index } of segmenter.segment(text)) {
    const end = index + segment.length;
    if (end >= text.length || /^\s+$/u.test(segment)) continue;
    const before = [...segment].at(-1) ?? '';
    const after = String.fromCodePoint(text.codePointAt(end) ?? 32);
    if (/\s/u.test(after) || NO_SPACE.test(before) || NO_SPACE.test(after)) ends.push(end);
  }
  return ends;
}

/** Offsets that end a clause: after a comma, semicolon or colon, or before a spaced dash. */
function clauseEnds(text: string, words: readonly number[]): number[] {
  const allowed = new Set(words);
  const ends = [...text.matchAll(CLAUSE_END)].map((m) => (/^\s/u.test(m[0]) ? m.index : m.index + m[0].length));
  return ends.filter((end) => allowed.has(end));
}

function shortened(text: string, end: number, withEllipsis: boolean): string {
  const kept = text.slice(0, end).replace(/[\s,;:、，；：–—-]+$/u, '');
  return withEllipsis ? `${kept}${ELLIPSIS}` : kept;
}

/** Largest k in [0, n] with passes(k), for a monotone predicate (passes(0) is assumed). */
export function largestPassing(n: number, passes: (k: number) => boolean): number {
  let low = 0;
  let high = n;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (passes(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The last of `cuts` whose shortened text fits, or undefined. */
function lastFitting(text: string, cuts: readonly number[], withEllipsis: boolean, fits: (text: string) => boolean): number | undefined {
  const k = largestPassing(cuts.length, (i) => fits(shortened(text, cuts[i - 1] ?? 0, withEllipsis)));
  return k === 0 ? undefined : cuts[k - 1];
}

/**
 * The longest prefix of `text` that `fits`, ending at a clause end when that keeps most of
 * what a word cut would, else at a word end, followed by an ellipsis so the reader knows the
 * sentence goes on. Without room for the ellipsis the bare words are returned; `undefined`
 * when not even the first word fits.
 *
 * @example
 * cutAtBoundary('I moved to Berlin, where I work as a nurse.', (t) => t.length <= 30);
 * // 'I moved to Berlin…'
 */
export function cutAtBoundary(text: string, fits: (text: string) => boolean): string | undefined {
  if (fits(text)) return text;
  const words = wordEnds(text);
  const word = lastFitting(text, words, true, fits);
  if (word === undefined) {
    const bare = lastFitting(text, words, false, fits);
    return bare === undefined ? undefined : shortened(text, bare, false);
  }
  const clause = lastFitting(text, clauseEnds(text, words), true, fits);
  const end = clause !== undefined && clause >= CLAUSE_KEEPS * word ? clause : word;
  return shortened(text, end, true);
}

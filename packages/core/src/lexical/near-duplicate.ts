import { analyzeText } from './analyze.js';

/** Share of terms two texts must have in common (Jaccard, of their terms' sets) to say the same thing. */
const NEAR_DUPLICATE = 0.8;

/** A text's terms by the lexical rules, as a set, for {@link areNearDuplicateTerms}. */
export function termSet(text: string): ReadonlySet<string> {
  return new Set(analyzeText(text));
}

/** Whether two term sets are near duplicates: at least 80 % of their terms shared (Jaccard); never when either is empty. */
export function areNearDuplicateTerms(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared) >= NEAR_DUPLICATE;
}

/** Whether two texts say the same thing, near enough: the same terms after the lexical rules, 80 % of them or more. */
export function isNearDuplicate(a: string, b: string): boolean {
  return areNearDuplicateTerms(termSet(a), termSet(b));
}

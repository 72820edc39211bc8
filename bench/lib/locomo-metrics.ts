/**
 * Derivation metrics of ../shared/evals/README.md: observation coverage (an annotated
 * observation is covered when some extracted fact cites one of its evidence turns and holds at
 * least 40 % of its content words) and grounded facts (a fact holding at least 30 % of the
 * content words of an observation of a turn it cites). Content words: lower-cased, stop words
 * and the two speakers' names left out, a plain suffix strip for plurals and tenses.
 */
import { createRequire } from 'node:module';
import type { LocomoObservation } from './locomo-data.js';

// stopword ships CommonJS without type declarations; its English list is a plain string[].
const { eng } = createRequire(import.meta.url)('stopword') as { eng: string[] };
const STOP = new Set(eng);

export const COVERAGE_SHARE = 0.4;
export const GROUNDED_SHARE = 0.3;

/** "paints", "painted", "painting" -> "paint"; "loves", "love" -> "lov"; "stories" -> "story". */
export function stripSuffix(word: string): string {
  let w = word.replace(/'s$/, '');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** The content words of a text, as a set. */
export function contentWords(text: string, names: readonly string[]): Set<string> {
  const skip = new Set(names.map((n) => n.toLowerCase()));
  const out = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu)) {
    const word = match[0];
    if (STOP.has(word) || skip.has(word) || skip.has(word.replace(/'s$/, ''))) continue;
    out.add(stripSuffix(word));
  }
  return out;
}

/** Share of `of`'s words that `inside` holds (0 when `of` has none). */
export function shareHeld(of: ReadonlySet<string>, inside: ReadonlySet<string>): number {
  if (of.size === 0) return 0;
  let held = 0;
  for (const word of of) if (inside.has(word)) held++;
  return held / of.size;
}

export interface ScoredFact {
  text: string;
  sourceMessageIds: readonly string[];
}

export interface DerivationScore {
  observations: number;
  covered: number;
  facts: number;
  grounded: number;
}

/** Coverage of one conversation's observations by its facts, and how many facts are grounded. */
export function scoreDerivation(observations: readonly LocomoObservation[], facts: readonly ScoredFact[], names: readonly string[]): DerivationScore {
  const obs = observations.map((o) => ({ words: contentWords(o.statement, names), evidence: o.evidence }));
  const byTurn = new Map<string, Set<string>[]>();
  for (const o of obs) for (const id of o.evidence) byTurn.set(id, [...(byTurn.get(id) ?? []), o.words]);
  const factWords = facts.map((f) => ({ words: contentWords(f.text, names), sources: new Set(f.sourceMessageIds) }));
  const covered = obs.filter((o) => factWords.some((f) => o.evidence.some((id) => f.sources.has(id)) && shareHeld(o.words, f.words) >= COVERAGE_SHARE)).length;
  const grounded = factWords.filter((f) => [...f.sources].some((id) => (byTurn.get(id) ?? []).some((words) => shareHeld(words, f.words) >= GROUNDED_SHARE))).length;
  return { observations: obs.length, covered, facts: facts.length, grounded };
}

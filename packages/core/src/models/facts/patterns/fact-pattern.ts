import type { ResolvedDate } from '../../../shared/resolve-relative-date.js';

/** A fact as a pattern proposes it; the extractor adds provenance and reconciles slot names. */
export interface FactDraft {
  /** Defaults to 'user'. */
  subject?: string;
  predicate: string;
  object: string;
  text: string;
  confidence: number;
}

export interface SentenceContext {
  /** Creation time of the turn, for resolving relative dates. */
  createdAt: number;
  /** True when the clause is typed all lower-case, so capitals cannot mark names. */
  isCasual: boolean;
  /** The first date expression of the clause, resolved against `createdAt`. */
  date: ResolvedDate | undefined;
}

/**
 * One rule of the heuristic fact extractor: a regex over a first-person clause (apostrophes
 * straightened) and a function from its match to zero or more facts. Patterns that need a
 * date (plans) run on the clause with its date expression cut out, and only when it has one.
 */
export interface FactPattern {
  name: string;
  regex: RegExp;
  input?: 'clause' | 'clause-without-date';
  build(match: RegExpExecArray, context: SentenceContext): FactDraft | FactDraft[] | undefined;
}

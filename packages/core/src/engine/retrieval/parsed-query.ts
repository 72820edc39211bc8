import { analyzeText } from '../../lexical/analyze.js';
import { properNouns } from './proper-nouns.js';
import { queryDayOf, type QueryDay } from './query-day.js';

/**
 * A question analysed once, for every channel of a retrieval to read: the lexical search, the
 * fact and name expansions, the speaker boost, the day ranking and the context's shares.
 */
export interface ParsedQuery {
  /** The question as asked. */
  text: string;
  /** Its terms by the lexical rules ({@link analyzeText}), in order, repeats kept. */
  terms: readonly string[];
  /** Its words, lower-cased, as a speaker's name is matched against it. */
  words: ReadonlySet<string>;
  /** The calendar day it names, when time-aware ranking is on and it names one. */
  day: QueryDay | null;
  /** What the lexical channels search: the question, and the day's `MM-DD` when it names one. */
  searchText: string;
  /** The terms of `searchText`, which every lexical channel searching it passes to the index (analysed here, once). */
  searchTerms: readonly string[];
  /** The people and places it names, lower-cased as fact subjects are stored ({@link properNouns}: "Where does Mia live?" -> ['mia']). */
  names: readonly string[];
}

/**
 * The names a question holds ({@link properNouns}), lower-cased: each full name whole, with its
 * first name ("Mia Lopez" -> 'mia lopez', 'mia'; a fact's subject is one or the other), not its
 * other words.
 */
function namesIn(text: string): string[] {
  const words = properNouns(text);
  const names: string[] = [];
  for (let i = 0; i < words.length; i++) {
    let end = i + 1;
    while (end < words.length && text.includes(words.slice(i, end + 1).join(' '))) end++;
    if (end > i + 1) names.push(words.slice(i, end).join(' '));
    names.push(words[i] as string);
    i = end - 1;
  }
  return [...new Set(names.map((name) => name.toLowerCase()))];
}

/**
 * Parses a question once (see {@link ParsedQuery}). The day is resolved against `now` only when
 * `timeAware` (the date parser is skipped otherwise).
 * @example
 * parseQuery('What did Ana cook on March 4?', { now: Date.UTC(2025, 5, 1), timeAware: true });
 * // { text: 'What did Ana cook on March 4?', terms: ['ana', 'cook', 'march', '4'], words: Set {...}, day: { key: '03-04' }, searchText: 'What did Ana cook on March 4? 03-04' }
 */
export function parseQuery(text: string, options: { now: number; timeAware: boolean }): ParsedQuery {
  const day = (options.timeAware ? queryDayOf(text, options.now) : undefined) ?? null;
  const terms = analyzeText(text);
  return {
    text,
    terms,
    words: new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []),
    day,
    searchText: day === null ? text : `${text} ${day.key}`,
    searchTerms: day === null ? terms : [...terms, ...analyzeText(day.key)],
    names: namesIn(text),
  };
}

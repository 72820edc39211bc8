import { stemmer } from 'stemmer';
import { boundedMemo } from '../shared/bounded-memo.js';
import { loadOnFirstUse } from '../shared/load-on-first-use.js';

// stopword ships CommonJS without type declarations; its English list is a plain string[]. It
// loads every language's list (about 50 ms), so on the first analysis, not at import.
const stopwordLists = loadOnFirstUse<{ eng: string[] }>('stopword');

/**
 * Words of the stock list that carry time in a memory question ("where do I live now?",
 * "before the move"): kept as terms, the retrieval-quality bench ranks updates better with them.
 */
const TEMPORAL_WORDS: ReadonlySet<string> = new Set(['now', 'still', 'before', 'after']);

let loadedStopWords: ReadonlySet<string> | undefined;

const stopWords = (): ReadonlySet<string> =>
  (loadedStopWords ??= new Set([
    ...stopwordLists().eng.filter((word) => !TEMPORAL_WORDS.has(word)),
    // contractions and chat filler the stock list lacks
    "i'm",
    "i've",
    "i'd",
    "i'll",
    'im',
    'ive',
    'id',
    'ill',
    'dont',
    "don't",
    'doesnt',
    "doesn't",
    'yeah',
    'yes',
    'ok',
    'okay',
    'oh',
    'um',
    'uh',
    'hmm',
    'just',
    'really',
    'also',
    'got',
    'get',
    'gets',
    'thing',
    'things',
    'like',
    'well',
    'would',
    'could',
    'should',
    'can',
    'will',
    'me',
    'my',
    'mine',
    'you',
    'your',
    'yours',
    'am',
    'us',
    'let',
    "let's",
    'lets',
    'know',
  ]));

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** The words of `text` as {@link analyzeText} reads them (lowercased, NFKC), stop words included, in order. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().normalize('NFKC').match(WORD) ?? [];
}

/**
 * The lexical rules every strata index shares: lower-case, split into words, drop stop
 * words, Porter-stem. Used by the in-memory BM25 index, the hashing embeddings, and by
 * adapters (FTS5) to build their query terms, so scores agree across stores.
 */
export function analyzeText(text: string): string[] {
  const stop = stopWords();
  const terms: string[] = [];
  // match() gives the words alone: matchAll built a match object per word, on every search and every indexed text
  for (const found of wordsOf(text)) {
    const word = found.includes('’') ? found.replace(/’/g, "'") : found;
    if (stop.has(word)) continue;
    const base = word.endsWith("'s") ? word.slice(0, -2) : word;
    if (base.length === 0 || stop.has(base)) continue;
    terms.push(stemOf(base));
  }
  return terms;
}

/** Stems of the last 50k distinct words: the Porter stemmer runs a dozen regular expressions per word, and a conversation reuses its words. */
const stemOf = boundedMemo(50_000, stemmer);

/** Whether a lower-cased word is a stop word under strata's lexical rules. */
export function isStopWord(word: string): boolean {
  return stopWords().has(word.toLowerCase());
}

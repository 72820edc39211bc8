import { FACT_VOCABULARY } from './fact-vocabulary.js';

/**
 * Phrase handling shared by the heuristic fact patterns: where an object phrase ends, what is
 * a name, how an item becomes a slot key. Kept apart so each pattern stays a few lines.
 */

// Words that end an object phrase: clause starts, time and filler ("I live in Berlin now").
const CLAUSE_END =
  /[,;:!?()"]|\.(?:\s|$)|\s(?:and|but|or|because|cause|since|so|though|although|which|who|whom|where|when|while|until|unless|if|as|with|for|from|after|before|ago|last|next|this|that|these|those|every|each|at|on|now|anymore|any more|nowadays|these days|at the moment|currently|right now|too|as well|actually|again|yet|already|lol|haha|a lot|very much|a bit|recently|today|tonight|tomorrow|yesterday|anyway|here|there)\b/i;
const TRAILING_JUNK = /[\s.,!?;:'"-]+$/;
const DETERMINER = /^(?:a|an|the|my|our|his|her|their|this|that|some|any|here|there|home|it|me|myself)\b/i;
const PROPER = /^(?:the\s+)?\p{Lu}[\p{L}\p{N}'.&-]*(?:\s+(?:(?:of|de|del|da|do|la|le|am|upon|on|sur|y)\s+)?\p{Lu}[\p{L}\p{N}'.&-]*)*/u;

/** The phrase at the start of `raw` up to the first match of `end`, without trailing punctuation. */
export function cutPhrase(raw: string, end: RegExp): string {
  const text = raw.trim();
  const found = end.exec(text);
  return (found === null ? text : text.slice(0, found.index)).replace(TRAILING_JUNK, '').trim();
}

/** The object phrase at the start of `raw`, cut at the first clause boundary or filler. */
export function cleanObject(raw: string, extraEnd?: RegExp): string {
  const text = cutPhrase(raw, CLAUSE_END);
  return extraEnd === undefined ? text : cutPhrase(text, extraEnd);
}

/**
 * A proper noun phrase at the start of `raw` ("New York", "the Netherlands", "Charité"), kept
 * as written. In casual all-lower-case text a short plain phrase is accepted and capitalised.
 */
export function takeProperNoun(raw: string, isCasual: boolean): string | undefined {
  const text = raw.trim();
  const proper = PROPER.exec(text)?.[0];
  if (proper !== undefined) {
    const cleaned = cleanObject(proper);
    return cleaned.length > 0 ? cleaned : undefined;
  }
  if (!isCasual) return undefined;
  const phrase = cleanObject(text, /\s(?:in|to|near|by|around)\b/i);
  if (phrase.length === 0 || DETERMINER.test(phrase) || phrase.split(/\s+/).length > 3) return undefined;
  return titleCase(phrase);
}

export function titleCase(text: string): string {
  return text.replace(/(^|[\s-])(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** The key of an item inside a predicate ("opinion_of:<key>"): lower-case, no leading article. */
export function itemKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/^(?:the|a|an)\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Rewrites first person for a third-person fact text: "visit my mom" -> "visit their mom". */
export function toThirdPerson(text: string): string {
  return text
    .replace(/\bmy\b/gi, 'their')
    .replace(/\bmine\b/gi, 'theirs')
    .replace(/\bmyself\b/gi, 'themselves')
    .replace(/\bme\b/gi, 'them');
}

/** Whether the text carries no capitals beyond its first letter and the pronoun "I". */
export function isCasualText(sentence: string): boolean {
  return !/\p{Lu}/u.test(sentence.slice(1).replace(/\bI\b/g, ''));
}

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

/** "a" -> 1, "two" -> 2, "3" -> 3; undefined for anything else. */
export function parseCount(word: string): number | undefined {
  const lower = word.toLowerCase();
  if (/^\d+$/.test(lower)) return Number(lower);
  return NUMBER_WORDS[lower];
}

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A person's name at the start of `raw`: leading capitalised words (at most two), or in
 * casual text only when `named` says a name follows ("my name is sam").
 */
export function pickName(raw: string, isCasual: boolean, named: boolean): string | undefined {
  const words = raw
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}'-]+$/u, '').replace(/'s$/, ''));
  const first = words[0] ?? '';
  if (first.length < 2 || NOT_A_NAME.test(first) || isNotName(first)) return undefined;
  if (isCasual) return named ? titleCase(first) : undefined;
  const taken: string[] = [];
  for (const word of words.slice(0, 2)) {
    if (!/^\p{Lu}[\p{L}'-]*$/u.test(word) || isNotName(word)) break;
    taken.push(word);
  }
  return taken.length > 0 ? taken.join(' ') : undefined;
}

const NOT_A_NAME = /^(?:a|an|the|my|not|so|very|really|just|also|still|is|was|here|there)$/i;

function isNotName(word: string): boolean {
  const lower = word.toLowerCase();
  return FACT_VOCABULARY.notNames.has(lower) || FACT_VOCABULARY.demonyms.has(lower);
}

const LIST_END = /[;:!?()"]|\.(?:\s|$)|\s(?:but|because|since|so|which|who|when|while|if|though|although|now|anymore|too|as well)\b|,\s*(?:which|who|but|so|because|I)\b/i;

/** A list of items at the start of `raw`: "peanuts, shellfish and eggs" -> three items. */
export function takeList(raw: string): string[] {
  const end = LIST_END.exec(raw);
  const text = end === null ? raw : raw.slice(0, end.index);
  return text
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+/i)
    .map((item) => cleanObject(item))
    .filter((item) => item.length > 0);
}

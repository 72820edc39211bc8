import { analyzeText } from '../../lexical/analyze.js';

/** A sentence of the input, with the speaker label, day and line it is rendered under. */
export interface SummaryUnit {
  label: string | undefined;
  day: string | undefined;
  text: string;
  /** Consecutive units of one group render as one line ("User: a. b."). */
  group: number;
  terms: string[];
  /** Multiplies the lexical score (recency, coverage by the previous summary). */
  weight: number;
}

// Statements that tend to stay true or matter later: identity, preferences, decisions, plans.
const DURABLE = /\b(?:i am|i'm|my|i live|i work|i like|i love|i hate|i prefer|plan|planning|will|i'll|decided|going to|moved)\b/i;
const DATE_WORD = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\d/i;
const NOT_PROPER = new Set(['I', "I'm", 'I’m', "I've", "I'll", "I'd", 'OK', 'Ok']);
const ROLE_LABELS = new Set(['User', 'Assistant', 'System', 'Tool']);

/** Lower-case words of the speakers' names (role labels are not names). */
function speakerWordsOf(units: SummaryUnit[]): string[] {
  const labels = new Set(units.flatMap((unit) => (unit.label === undefined || ROLE_LABELS.has(unit.label) ? [] : [unit.label])));
  return [...labels].flatMap((label) => label.toLowerCase().split(/\s+/));
}

/** A speaker's name, or its start ("Bea" for Beatrix), in a turn mostly addresses them: it is not content. */
function isSpeakerWord(word: string, speakerWords: readonly string[]): boolean {
  return word.length >= 3 && speakerWords.some((name) => name.startsWith(word));
}

/** Numbers, dates and names mid-sentence (other than the speakers') are what a later question usually asks for. */
function hasSpecifics(sentence: string, speakerWords: readonly string[]): boolean {
  if (DATE_WORD.test(sentence)) return true;
  const words = sentence.split(/\s+/).slice(1);
  return words.some((word) => {
    const bare = word.replace(/[^\p{L}'’]/gu, '');
    return /^[A-Z][\p{L}]+/u.test(word) && !NOT_PROPER.has(bare) && !isSpeakerWord(bare.toLowerCase(), speakerWords);
  });
}

/**
 * Term frequency over the whole batch, normalised by length, with content bonuses. The
 * speakers' names do not count: in dialogue they mostly address the other person.
 */
export function scoreSummaryUnits(units: SummaryUnit[]): number[] {
  const speakerWords = speakerWordsOf(units);
  const speakerTerms = speakerWords.flatMap((word) => analyzeText(word));
  const termsOf = units.map((unit) => unit.terms.filter((term) => !isSpeakerWord(term, speakerTerms)));
  const tf = new Map<string, number>();
  for (const terms of termsOf) for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
  return units.map((unit, index) => {
    const terms = termsOf[index] ?? [];
    if (terms.length === 0) return 0;
    const distinct = new Set(terms);
    let sum = 0;
    for (const term of distinct) sum += tf.get(term) ?? 0;
    const durable = DURABLE.test(unit.text);
    const specific = hasSpecifics(unit.text, speakerWords);
    // One plain word ("Thanks.", "Hi there!", "Wow, Mel!") is small talk, however rare the word.
    if (distinct.size < 2 && !durable && !specific) return 0;
    let score = sum / Math.sqrt(terms.length);
    if (durable) score *= 1.5;
    if (specific) score *= 1.25;
    // Questions are mostly prompts for the answer that follows, which carries the content.
    if (/\?["')\]]*$/.test(unit.text)) score *= 0.7;
    return score * unit.weight;
  });
}

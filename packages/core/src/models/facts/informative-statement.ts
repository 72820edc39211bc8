// Long only in its closed word lists (one word per line, as the formatter lays them out); the tests on a parsed sentence they serve are below them.
import type { ParsedSentence, ParsedToken } from './parse-sentences.js';

const SUBJECTS: ReadonlySet<string> = new Set(['i', "i'm", 'my', 'we', 'our']);
const FIRST_PERSON: ReadonlySet<string> = new Set(['i', "i'm", 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'ourselves']);
const SECOND_PERSON: ReadonlySet<string> = new Set(['you', 'your', 'yours', 'yourself', 'yourselves', 'ya', 'u']);
const QUESTION_START: ReadonlySet<string> = new Set([
  'do',
  'does',
  'did',
  'where',
  'what',
  'who',
  'whom',
  'whose',
  'when',
  'why',
  'how',
  'which',
  'is',
  'are',
  'am',
  'was',
  'were',
  'can',
  'could',
  'would',
  'should',
  'will',
  'shall',
  'have',
  'has',
  'any',
  'anything',
]);
// A condition, wish or guess is not something that happened or holds ("if I had time", "I'd love to").
const HYPOTHETICAL: ReadonlySet<string> = new Set(['if', 'unless', 'suppose', 'imagine', 'wish', 'would', "'d", 'might', 'maybe', 'perhaps', 'whether']);
// Words that carry a chat's politeness, not its content: a sentence made only of these says nothing durable.
const FILLER: ReadonlySet<string> = new Set([
  'thanks',
  'thank',
  'glad',
  'hope',
  'sure',
  'great',
  'awesome',
  'cool',
  'nice',
  'amazing',
  'wow',
  'lol',
  'haha',
  'hey',
  'hi',
  'hello',
  'bye',
  'agree',
  'appreciate',
  'mean',
  'means',
  'know',
  'think',
  'guess',
  'bet',
  'feel',
  'wait',
  'love',
  'like',
  'happy',
  'excited',
  'good',
  'lot',
  'much',
  'so',
  'really',
  'totally',
  'definitely',
  'check',
  'sound',
  'sounds',
  'look',
  'looks',
  'keep',
  'let',
  'say',
  'tell',
  'see',
  'get',
  'got',
  'go',
  'going',
  'gonna',
  'thing',
  'things',
  'stuff',
  'way',
  'time',
  'lots',
  'fun',
  'true',
  'right',
  'same',
  'too',
  'support',
  'luck',
  'care',
  'best',
  'welcome',
  'sorry',
  'okay',
  'ok',
  'yeah',
  'yes',
  'no',
]);
const CONTENT_POS: ReadonlySet<string> = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM']);

// Content words (beyond chat filler) a sentence needs: with the speaker as its subject, with
// the speaker only mentioned ("the trip meant a lot to me"), and as a detail beside those.
// Chosen on real dialogue: a mention needs more content to be as often worth keeping.
const MIN_SUBJECT_WORDS = 3;
const MIN_MENTION_WORDS = 5;
const MIN_DETAIL_WORDS = 2;

function lowerWords(tokens: readonly ParsedToken[]): string[] {
  return tokens.map((token) => token.text.toLowerCase());
}

/** Ends with a question mark, or opens like one ("Did ...", "What ..."). */
export function isQuestion(sentence: ParsedSentence): boolean {
  const words = lowerWords(sentence.tokens);
  return words.includes('?') || QUESTION_START.has(words[0] ?? '');
}

/** Words that say something beyond politeness: nouns, verbs, adjectives, numbers, not filler. */
export function contentWordCount(tokens: readonly ParsedToken[]): number {
  let count = 0;
  for (const token of tokens) {
    const lower = token.text.toLowerCase();
    if (CONTENT_POS.has(token.pos) && !FILLER.has(lower) && !FILLER.has(token.lemma) && /\p{L}{3,}|\d/u.test(lower)) count++;
  }
  return count;
}

/**
 * Whether the speaker is the one the sentence is about: a first-person subject ("I", "my
 * sister", "we") comes before its first verb, possibly after an opening phrase ("Last week,
 * I ..."). "It made me think" or "Seeing that warmed my heart" are about something else.
 */
export function hasFirstPersonSubject(tokens: readonly ParsedToken[]): boolean {
  const comma = tokens.findIndex((token) => token.text === ',');
  for (const start of comma < 0 ? [0] : [0, comma + 1]) {
    for (const token of tokens.slice(start)) {
      if (SUBJECTS.has(token.text.toLowerCase())) return true;
      if (token.pos === 'VERB' || token.pos === 'AUX') break;
    }
  }
  return false;
}

/** What a sentence contributes to what is known about its speaker. */
export type SentenceRole = 'anchor' | 'detail' | 'none';

/**
 * An anchor states something about the speaker or their world: a statement (not a question
 * or a hypothetical), in the first person, not addressed to the other person ("you
 * chose well"), with enough content beyond greetings, thanks and praise. A detail is another
 * statement with content ("It was so powerful."): worth keeping beside an anchor, not alone.
 * A sentence addressed to the other person ("your advice got me through the exam") is at
 * most a detail, and only when who "you" is is known (`isListenerKnown`), so it can be retold.
 */
export function roleOfSentence(sentence: ParsedSentence, isListenerKnown = false): SentenceRole {
  const words = lowerWords(sentence.tokens);
  if (isQuestion(sentence) || words.some((word) => HYPOTHETICAL.has(word))) return 'none';
  const content = contentWordCount(sentence.tokens);
  if (words.some((word) => SECOND_PERSON.has(word))) return isListenerKnown && content >= MIN_DETAIL_WORDS ? 'detail' : 'none';
  if (hasFirstPersonSubject(sentence.tokens) && content >= MIN_SUBJECT_WORDS) return 'anchor';
  if (words.some((word) => FIRST_PERSON.has(word)) && content >= MIN_MENTION_WORDS) return 'anchor';
  return content >= MIN_DETAIL_WORDS ? 'detail' : 'none';
}

// A turn that opens with one of these answers the other person ("Thanks!", "Wow, ...",
// "That's great", "Sounds fun", "Congrats!") more often than it tells news of its own.
const REACTION_OPENERS: ReadonlySet<string> = new Set([
  'thanks',
  'thank',
  'thx',
  'wow',
  'woah',
  'whoa',
  'congrats',
  'congratulations',
  'glad',
  'sounds',
  'that',
  "that's",
  'thats',
  'awesome',
  'great',
  'nice',
  'cool',
  'aw',
  'aww',
  'omg',
  'sorry',
  'yeah',
  'yes',
  'yep',
  'definitely',
  'totally',
  'absolutely',
  'agreed',
  'exactly',
  'true',
  'right',
  'same',
  'lol',
  'haha',
  'amazing',
  'wonderful',
  'good',
  'sure',
  'no',
  'of',
]);
const GREETINGS: ReadonlySet<string> = new Set(['hey', 'hi', 'hello', 'hiya', 'morning', 'evening']);
// Words that place a statement in time: "yesterday", "last week", "in May", "two years".
const TIME_WORDS: ReadonlySet<string> = new Set([
  'yesterday',
  'today',
  'tonight',
  'tomorrow',
  'last',
  'next',
  'ago',
  'recently',
  'week',
  'weeks',
  'weekend',
  'weekends',
  'month',
  'months',
  'year',
  'years',
  'morning',
  'evening',
  'night',
  'summer',
  'winter',
  'spring',
  'autumn',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]);

/**
 * What makes a turn worth a fact about its speaker, each signal explainable on its own.
 * Measured on real dialogue and left out for adding nothing beside these: past-tense verbs,
 * proper nouns and numbers, questions and "you" elsewhere in the turn.
 */
export interface TurnSignals {
  /** Content words (beyond chat filler) of the sentences retold. */
  content: number;
  /** Sentences retold that are about the speaker (anchors, see {@link roleOfSentence}). */
  anchors: number;
  /** Words that place it in time ("yesterday", "last week", "in May"). */
  times: number;
  /** Opens with a reaction to the other person ("Thanks!", "Wow", "That's great"). */
  isReaction: boolean;
  /** Opens with a greeting: a turn that starts an exchange tends to bring news. */
  isGreeting: boolean;
}

/** The signals of a turn: `kept` are the sentences retold, `anchors` how many of them are anchors, `all` the whole turn. */
export function signalsOf(kept: readonly ParsedToken[][], anchors: number, all: readonly ParsedSentence[]): TurnSignals {
  const first = all[0]?.tokens[0]?.text.toLowerCase() ?? '';
  return {
    content: kept.reduce((sum, sentence) => sum + contentWordCount(sentence), 0),
    anchors,
    times: kept.flat().filter((token) => TIME_WORDS.has(token.text.toLowerCase())).length,
    isReaction: REACTION_OPENERS.has(first),
    isGreeting: GREETINGS.has(first),
  };
}

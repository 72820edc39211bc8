import type { FactDraft, FactPattern } from './fact-pattern.js';
import { cleanObject, itemKey, takeList, toThirdPerson } from './fact-phrases.js';
import { FACT_VOCABULARY } from './fact-vocabulary.js';
import { analyzeText } from '../../../lexical/analyze.js';

type Opinion = 'loves' | 'likes' | 'dislikes' | 'hates';

const OPINION_VERB: Record<Opinion, string> = { loves: 'loves', likes: 'likes', dislikes: "doesn't like", hates: 'hates' };
// "I love it when...", "I like that": no thing named.
const NO_THING = /^(?:it|that|this|you|them|him|her|everything|nothing|something|anything|one|those|these|so|too|when|how|what|if|the idea)$/i;
const FAN = '(?:an? (?:big |huge )?)?fan of';
/** Words that start a clause or a bare infinitive rather than the name of a thing. */
const CLAUSE_START = /^(?:to|is|are|was|were|be|been|that|how|when|where|why|what|who|which|if|because|it'?s|it)\b/i;

/** One opinion fact per slot `opinion_of:<thing>`, so opinions of different things coexist. */
function opinionDraft(level: Opinion, raw: string | undefined, confidence: number): FactDraft | undefined {
  const spoken = toThirdPerson(cleanObject(raw ?? ''));
  // "I love to cook" and "I love cooking" differ only in form; the slot names the activity.
  const thing = spoken.replace(/^to /i, '');
  if (thing.length === 0 || NO_THING.test(thing) || thing.split(/\s+/).length > 6) return undefined;
  // "I love to." / "... I love is awesome" / "I love that you came": no thing is named
  if (CLAUSE_START.test(thing) || analyzeText(thing).length === 0) return undefined;
  return { predicate: `opinion_of:${itemKey(thing)}`, object: level, text: `User ${OPINION_VERB[level]} ${spoken}.`, confidence };
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** One fact per language named in the list; other words ("I'm learning to cook") are ignored. */
function languageDrafts(raw: string | undefined, object: 'yes' | 'no' | 'learning'): FactDraft[] {
  const verb = { yes: 'speaks', no: "doesn't speak", learning: 'is learning' }[object];
  return takeList(raw ?? '')
    .map((item) => item.toLowerCase().replace(/^(?:fluent|some|a little|a bit of|basic|good|native|conversational)\s+/, ''))
    .filter((language) => FACT_VOCABULARY.languages.has(language))
    .map((language) => ({ predicate: `speaks:${language}`, object, text: `User ${verb} ${capitalise(language)}.`, confidence: 0.8 }));
}

function allergyDrafts(raw: string | undefined): FactDraft[] {
  return takeList(raw ?? '').map((item) => ({
    predicate: `allergy:${itemKey(item)}`,
    object: 'allergic',
    text: `User is allergic to ${item}.`,
    confidence: 0.85,
  }));
}

/** Likes and dislikes, allergies, diet, languages, favourites. */
export const preferenceFactPatterns: FactPattern[] = [
  { name: 'loves', regex: /\bI(?: really| absolutely| just| truly| totally| still)? (?:love|adore) (.+)/i, build: (m) => opinionDraft('loves', m[1], 0.8) },
  { name: 'likes', regex: /\bI(?: really| quite| also| still| do| kind of| kinda)? (?:like|enjoy) (.+)/i, build: (m) => opinionDraft('likes', m[1], 0.75) },
  { name: 'fan-of', regex: new RegExp(String.raw`\bI(?:'?m| am)(?: really| also)? (?:into|${FAN}) (.+)`, 'i'), build: (m) => opinionDraft('likes', m[1], 0.7) },
  {
    name: 'dislikes',
    regex: new RegExp(
      String.raw`\bI (?:(?:don't|do not|dont|no longer|don't really|do not really) (?:like|enjoy|care for)|dislike)(?: anymore)? (.+)|\bI(?:'?m| am) (?:not|no longer) (?:really )?(?:into|${FAN}) (.+)`,
      'i',
    ),
    build: (m) => opinionDraft('dislikes', m[1] ?? m[2], 0.75),
  },
  {
    name: 'hates',
    regex: /\bI(?: really| absolutely| just| truly| totally)? (?:hate|can't stand|cannot stand|can not stand|detest|loathe|despise) (.+)/i,
    build: (m) => opinionDraft('hates', m[1], 0.8),
  },
  {
    name: 'allergy',
    regex: /\bI(?:'?m| am)(?: very| severely| really| deathly| mildly)? allergic to (.+)|\bI (?:have|'ve got|have got) (?:an? )?(?:severe |mild )?allergy to (.+)/i,
    build: (m) => allergyDrafts(m[1] ?? m[2]),
  },
  {
    name: 'allergy-noun',
    regex: /\bI (?:have|'ve got|have got) (?:an? )?(?:severe |mild )?([\p{L}-]+(?: [\p{L}-]+)?) allergy\b/iu,
    build: (m) => allergyDrafts(m[1]),
  },
  {
    name: 'diet',
    regex: /\bI(?:'?m| am)(?: now| strictly| fully)?(?: an?)? (vegetarian|vegan|pescatarian|keto|paleo)\b/i,
    build: (m) => {
      const diet = (m[1] ?? '').toLowerCase();
      return { predicate: 'diet', object: diet, text: `User is ${diet}.`, confidence: 0.8 };
    },
  },
  {
    name: 'speaks',
    regex: /\bI (?:can )?speak (.+)|\bI(?:'?m| am) (?:fluent|a native speaker|native|conversational) in (.+)|\bmy (?:native|first|mother) (?:language|tongue) is (.+)/i,
    build: (m) => languageDrafts(m[1] ?? m[2] ?? m[3], 'yes'),
  },
  { name: 'learning-language', regex: /\bI(?:'?m| am)(?: currently| also| now)? learning (.+)/i, build: (m) => languageDrafts(m[1], 'learning') },
  { name: 'no-language', regex: /\bI (?:don't|do not|can't|cannot) speak (?:any )?(.+)/i, build: (m) => languageDrafts(m[1], 'no') },
  {
    name: 'favorite',
    regex: /\bmy (?:all-time |absolute )?fav(?:ou?rite|e) ([\p{L}-]+(?: [\p{L}-]+)?) (?:is|are) (.+)/iu,
    build: (m) => {
      const category = itemKey(m[1] ?? '');
      const value = cleanObject(m[2] ?? '');
      if (value.length === 0) return undefined;
      return { predicate: `favorite:${category}`, object: value, text: `User's favorite ${category} is ${value}.`, confidence: 0.85 };
    },
  },
];

import type { FactDraft, FactPattern, SentenceContext } from './fact-pattern.js';
import { cutPhrase, itemKey, toThirdPerson } from './fact-phrases.js';
import { FACT_VOCABULARY } from './fact-vocabulary.js';

// Plans are stated in the progressive ("I'm flying"); the slot names the plain verb.
const GERUNDS: Readonly<Record<string, string>> = {
  flying: 'fly',
  going: 'go',
  visiting: 'visit',
  moving: 'move',
  driving: 'drive',
  traveling: 'travel',
  travelling: 'travel',
  leaving: 'leave',
  meeting: 'meet',
  seeing: 'see',
  starting: 'start',
  taking: 'take',
  having: 'have',
  attending: 'attend',
  heading: 'head',
  returning: 'return',
  coming: 'come',
  getting: 'get',
  celebrating: 'celebrate',
  running: 'run',
  hosting: 'host',
  throwing: 'throw',
  joining: 'join',
  catching: 'catch',
  doing: 'do',
  playing: 'play',
  watching: 'watch',
  picking: 'pick',
  presenting: 'present',
  giving: 'give',
  buying: 'buy',
  selling: 'sell',
  signing: 'sign',
  launching: 'launch',
  interviewing: 'interview',
  working: 'work',
  staying: 'stay',
  spending: 'spend',
};
const GERUND = Object.keys(GERUNDS).join('|');
// "I'm going to Paris" is a trip; "I'm going to visit Paris" a future tense.
const DESTINATION_START = /^(?:\p{Lu}|the\b|a\b|an\b|my\b|our\b|his\b|her\b|their\b|see\b)/u;
// Unlike other objects, an activity keeps its prepositions ("fly to Tokyo", "work on the report").
const ACTIVITY_END = /[,;:!?()"]|\.(?:\s|$)|\s(?:because|but|and|so|which|who|since|though|although|too|as well|lol|haha)\b/i;

const DANGLING = /(?:\s+(?:by|on|at|in|for|until|till|before|after|from|this|next|around))+$/i;

function article(phrase: string): string {
  return /^[aeiou]/i.test(phrase) ? 'an' : 'a';
}

interface PlanDate {
  /** YYYY-MM-DD, or YYYY-MM / YYYY when the text was vaguer ("next month"). */
  object: string;
  spoken: string;
}

/** A plan needs a day that has not passed when it is said. */
function upcomingDate({ date, createdAt }: SentenceContext): PlanDate | undefined {
  if (date === undefined || date.iso < new Date(createdAt).toISOString().slice(0, 10)) return undefined;
  if (date.precision === 'year') return { object: date.iso.slice(0, 4), spoken: `in ${date.iso.slice(0, 4)}` };
  if (date.precision === 'month') return { object: date.iso.slice(0, 7), spoken: `in ${date.iso.slice(0, 7)}` };
  return { object: date.iso, spoken: `on ${date.iso} (${date.weekday})` };
}

function planDraft(activity: string, context: SentenceContext, confidence: number): FactDraft | undefined {
  const date = upcomingDate(context);
  // The date expression was cut out; a preposition it leaves behind goes too ("finish it by").
  const phrase = cutPhrase(activity, ACTIVITY_END).replace(/\s+/g, ' ').replace(DANGLING, '');
  const spoken = toThirdPerson(phrase);
  if (date === undefined || spoken.length === 0 || spoken.split(' ').length > 7) return undefined;
  const text = `User plans to ${spoken} ${date.spoken}.`;
  return { predicate: `plan:${itemKey(spoken)}`, object: date.object, text, confidence };
}

function eventDraft(event: string | undefined, context: SentenceContext): FactDraft | undefined {
  const date = upcomingDate(context);
  const spoken = toThirdPerson((event ?? '').trim().toLowerCase());
  if (date === undefined || spoken.length === 0) return undefined;
  const text = `User has ${article(spoken)} ${spoken} ${date.spoken}.`;
  return { predicate: `plan:${itemKey(spoken)}`, object: date.object, text, confidence: 0.75 };
}

function futureActivity(auxiliary: string, verb: string, rest: string): string {
  if (/going to$/i.test(auxiliary) && DESTINATION_START.test(verb)) return `go to ${verb}${rest}`;
  return `${GERUNDS[verb.toLowerCase()] ?? verb}${rest}`;
}

/**
 * Upcoming plans and appointments, each in its own slot `plan:<activity>` whose object is the
 * resolved day (YYYY-MM-DD). They run on the clause with its date expression removed.
 */
export const planFactPatterns: FactPattern[] = [
  {
    name: 'plan-progressive',
    regex: new RegExp(String.raw`\bI(?:'?m| am)(?: also| just| finally)? (?!going to\b)(${GERUND}) (.+)`, 'i'),
    input: 'clause-without-date',
    build: (m, context) => planDraft(`${GERUNDS[(m[1] ?? '').toLowerCase()] ?? ''} ${m[2] ?? ''}`, context, 0.75),
  },
  {
    name: 'plan-future',
    regex:
      /\bI('ll| will| shall|(?:'?m| am) going to|(?:'?m| am) gonna|(?:'?m| am) planning (?:to|on)| plan (?:to|on)|(?:'?m| am) about to| have to| need to|(?:'ve| have) got to| intend to)(?: also| definitely| probably| finally)? ([\p{L}-]+)(.*)/iu,
    input: 'clause-without-date',
    build: (m, context) => planDraft(futureActivity(m[1] ?? '', m[2] ?? '', m[3] ?? ''), context, 0.75),
  },
  {
    name: 'my-event',
    regex: new RegExp(String.raw`\bmy ((?:[\p{L}-]+ ){0,3}?(?:${FACT_VOCABULARY.eventNouns}))\b`, 'iu'),
    input: 'clause-without-date',
    build: (m, context) => eventDraft(m[1], context),
  },
  {
    name: 'have-event',
    regex: new RegExp(String.raw`\bI (?:have|'ve got|have got|got)(?: an?| another)? ((?:[\p{L}-]+ ){0,3}?(?:${FACT_VOCABULARY.eventNouns}))\b`, 'iu'),
    input: 'clause-without-date',
    build: (m, context) => eventDraft(m[1], context),
  },
];

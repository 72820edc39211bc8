import type { FactDraft, FactPattern } from './fact-pattern.js';
import { cleanObject, takeProperNoun } from './fact-phrases.js';
import { FACT_VOCABULARY } from './fact-vocabulary.js';

const JOB_END = /\s(?:in|at|for|with|by|who|and|but|since)\b/i;
// "I work at home" / "at night" name no employer.
const NOT_EMPLOYER = /^(?:home|night|nights|weekends?|the weekend|the moment|times|least|myself|me|it|this|that|all)\b/i;
const ADVERB = '(?: now| currently| also| still| just| actually)?';

function article(phrase: string): string {
  return /^[aeiou]/i.test(phrase) ? 'an' : 'a';
}

/** The job phrase up to the first known job noun, within four words ("senior software engineer"). */
function listedJob(raw: string): string | undefined {
  const words = cleanObject(raw, JOB_END).split(/\s+/).slice(0, 4);
  const head = words.findIndex((word) => FACT_VOCABULARY.jobNouns.has(word.toLowerCase()));
  return head < 0 ? undefined : words.slice(0, head + 1).join(' ');
}

/** "... at Charité" right after a job phrase also names the employer. */
function employerAfter(raw: string, job: string, isCasual: boolean): FactDraft[] {
  const rest = raw.slice(raw.indexOf(job) + job.length);
  const at = /^\s+(?:at|for) (.+)/i.exec(rest);
  const employer = at?.[1] === undefined ? undefined : takeProperNoun(at[1], isCasual);
  return employer === undefined ? [] : [{ predicate: 'employer', object: employer, text: `User works at ${employer}.`, confidence: 0.75 }];
}

function jobDrafts(job: string | undefined, raw: string, isCasual: boolean, confidence: number): FactDraft[] | undefined {
  if (job === undefined || job.length === 0 || job.split(/\s+/).length > 5) return undefined;
  const title = { predicate: 'job_title', object: job, text: `User works as ${article(job)} ${job}.`, confidence };
  return [title, ...employerAfter(raw, job, isCasual)];
}

/** A workplace: a proper noun, or an indefinite phrase like "a hospital". */
function employerOf(raw: string | undefined, isCasual: boolean, allowPhrase: boolean): string | undefined {
  const text = (raw ?? '').trim();
  if (NOT_EMPLOYER.test(text)) return undefined;
  if (allowPhrase && /^(?:a|an) /i.test(text)) {
    const phrase = cleanObject(text, /\s(?:in|as)\b/i);
    return phrase.split(/\s+/).length <= 5 ? phrase : undefined;
  }
  return takeProperNoun(text, isCasual);
}

function leftDraft(employer: string | undefined, confidence: number): FactDraft {
  const text = employer === undefined ? 'User left their job.' : `User left their job at ${employer}.`;
  return { predicate: 'employer', object: 'none', text, confidence };
}

/** What the user does for a living and where. */
export const workFactPatterns: FactPattern[] = [
  {
    name: 'work-as',
    regex: new RegExp(String.raw`\b(?:I${ADVERB} work as|I(?:'?m| am)${ADVERB} (?:working|employed) as|my (?:job|profession|occupation) is) (?:an? )?(.+)`, 'i'),
    build: (m, { isCasual }) => jobDrafts(cleanObject(m[1] ?? '', JOB_END), m[1] ?? '', isCasual, 0.85),
  },
  {
    name: 'i-am-a-job',
    regex: new RegExp(String.raw`\bI(?:'?m| am|'ve become| have become| became)${ADVERB} an? (.+)`, 'i'),
    build: (m, { isCasual }) => jobDrafts(listedJob(m[1] ?? ''), m[1] ?? '', isCasual, 0.75),
  },
  {
    name: 'retired',
    regex: /\bI(?:'?m| am)(?: now)? (retired|unemployed|self-employed)\b|\bI(?: just| recently)? (retired)(?=\s*(?:$|[,.;!]|\blast\b|\bthis\b))/i,
    build: (m) => {
      const status = (m[1] ?? m[2] ?? '').toLowerCase();
      return { predicate: 'job_title', object: status, text: `User is ${status}.`, confidence: 0.8 };
    },
  },
  {
    name: 'work-at',
    regex: new RegExp(String.raw`\bI(?:'?m| am)?${ADVERB} (?:work|working) (?:at|for) (.+)`, 'i'),
    build: (m, { isCasual }) => {
      const employer = employerOf(m[1], isCasual, true);
      return employer === undefined ? undefined : { predicate: 'employer', object: employer, text: `User works at ${employer}.`, confidence: 0.85 };
    },
  },
  {
    // Only proper nouns: "I joined a gym" names no employer.
    name: 'joined',
    regex: /\bI(?:'ve| have)?(?: just| recently| finally)? (?:joined|started (?:a new job |working |my new job )?at|got a (?:new )?job (?:at|with)|got hired (?:at|by)|was hired (?:at|by)) (.+)/i,
    build: (m) => {
      const employer = employerOf(m[1], false, false);
      return employer === undefined ? undefined : { predicate: 'employer', object: employer, text: `User works at ${employer}.`, confidence: 0.8 };
    },
  },
  {
    name: 'left-my-job',
    regex:
      /\bI(?:'ve| have)?(?: just| recently| finally)? (?:quit|left|resigned from|was laid off from|got laid off from|got fired from|was fired from|retired from) my (?:job|position|role)(?: (?:at|with) (.+))?/i,
    build: (m, { isCasual }) => leftDraft(m[1] === undefined ? undefined : employerOf(m[1], isCasual, true), 0.8),
  },
  {
    name: 'left-employer',
    regex:
      /\bI(?:'ve| have)?(?: just| recently| finally)? (?:quit|resigned from|was laid off from|got laid off from|got fired from|was fired from|retired from) (.+)|\bI (?:don't|do not|no longer) work (?:at|for) (.+)/i,
    build: (m, { isCasual }) => {
      const employer = employerOf(m[1] ?? m[2], isCasual && m[2] !== undefined, m[2] !== undefined);
      return employer === undefined ? undefined : leftDraft(employer, 0.75);
    },
  },
];

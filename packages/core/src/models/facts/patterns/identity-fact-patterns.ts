import type { FactDraft, FactPattern } from './fact-pattern.js';
import { MONTHS, pickName, takeProperNoun } from './fact-phrases.js';
import { FACT_VOCABULARY } from './fact-vocabulary.js';
import { resolveRelativeDate } from '../../../shared/resolve-relative-date.js';

// What may follow a short statement like "I'm 34" or "I'm German" for it to be the whole claim.
const STATEMENT_END = String.raw`(?=\s*(?:$|[,.;!]|\b(?:and|but|now|btw|by the way)\b))`;

function nameDraft(raw: string | undefined, isCasual: boolean, named: boolean, confidence: number): FactDraft | undefined {
  const name = pickName(raw ?? '', isCasual, named);
  return name === undefined ? undefined : { predicate: 'name', object: name, text: `User's name is ${name}.`, confidence };
}

function placeDraft(predicate: 'lives_in' | 'hometown', raw: string | undefined, isCasual: boolean, confidence: number): FactDraft | undefined {
  const place = takeProperNoun(raw ?? '', isCasual);
  if (place === undefined || /\d/.test(place)) return undefined;
  const text = predicate === 'lives_in' ? `User lives in ${place}.` : `User is from ${place}.`;
  return { predicate, object: place, text, confidence };
}

function birthdayDraft(raw: string | undefined, createdAt: number, withYear: boolean): FactDraft | undefined {
  const date = resolveRelativeDate(raw ?? '', createdAt);
  if (date === undefined || date.index > 3) return undefined;
  const monthDay = date.iso.slice(5);
  const object = withYear && date.hasYear ? date.iso : monthDay;
  const spoken = `${MONTHS[date.month - 1] ?? ''} ${date.day}`;
  return { predicate: 'birthday', object, text: `User's birthday is ${spoken} (${object}).`, confidence: 0.85 };
}

/** Who the user is: name, age, nationality, contact, birthday, where they live and come from. */
export const identityFactPatterns: FactPattern[] = [
  {
    name: 'name-is',
    regex: /\bmy (?:first |full )?name(?: is|'s) (.+)/i,
    build: (m, { isCasual }) => nameDraft(m[1], isCasual, true, 0.9),
  },
  {
    name: 'call-me',
    regex: /\b(?:call me|I(?:'?m| am) called|people call me|everyone calls me) (.+)/i,
    build: (m, { isCasual }) => nameDraft(m[1], isCasual, false, 0.8),
  },
  {
    // Case-sensitive: "I'm Sam" is a name, "I'm sad" is not.
    name: 'i-am-name',
    regex: new RegExp(String.raw`\b[Ii](?:'?m| am) (\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)?)${STATEMENT_END}`, 'u'),
    build: (m, { isCasual }) => nameDraft(m[1], isCasual, false, 0.7),
  },
  {
    name: 'age',
    regex: new RegExp(String.raw`\bI(?:'?m| am)(?: now)? (\d{1,3})(?: years? old| y/?o| yrs? old)?${STATEMENT_END}|\bI(?: just)? turned (\d{1,3})\b`, 'i'),
    build: (m) => {
      const age = Number(m[1] ?? m[2]);
      if (!(age >= 1 && age <= 120)) return undefined;
      return { predicate: 'age', object: String(age), text: `User is ${age} years old.`, confidence: 0.85 };
    },
  },
  {
    name: 'nationality',
    regex: new RegExp(String.raw`\bI(?:'?m| am) (?:an? )?(\p{L}+)(?: citizen| national)?${STATEMENT_END}`, 'iu'),
    build: (m) => {
      const word = (m[1] ?? '').toLowerCase();
      if (!FACT_VOCABULARY.demonyms.has(word)) return undefined;
      const nationality = word.charAt(0).toUpperCase() + word.slice(1);
      return { predicate: 'nationality', object: nationality, text: `User is ${nationality}.`, confidence: 0.8 };
    },
  },
  {
    name: 'email',
    regex: /\b(?:my (?:e-?mail|email address|e-mail address)(?: address)? is|(?:e-?mail|reach|contact) me at)\s+([^\s@]+@[^\s@]+\.[a-z]{2,})/i,
    build: (m) => {
      const email = m[1] ?? '';
      return { predicate: 'email', object: email, text: `User's email is ${email}.`, confidence: 0.9 };
    },
  },
  {
    name: 'birthday',
    regex: /\bmy (?:birthday|bday|b-day) is (.+)/i,
    build: (m, { createdAt }) => birthdayDraft(m[1], createdAt, false),
  },
  {
    name: 'born-on',
    regex: /\bI was born on (.+)/i,
    build: (m, { createdAt }) => birthdayDraft(m[1], createdAt, true),
  },
  {
    name: 'lives-in',
    regex:
      /\bI(?:'?m|'ve| am| have)?(?: just| recently| now| currently| still| finally| actually| also)? (?:(?:live|living|reside|residing|based|located|settled) in|(?:moved|relocated)(?: back)? to) (.+)/i,
    build: (m, { isCasual }) => placeDraft('lives_in', m[1], isCasual, 0.85),
  },
  {
    name: 'hometown',
    regex: /\bI(?:'?m| am| come| came)(?: originally)? from (.+)|\bI (?:grew up|was raised|was born) in (.+)/i,
    build: (m, { isCasual }) => placeDraft('hometown', m[1] ?? m[2], isCasual, 0.8),
  },
];

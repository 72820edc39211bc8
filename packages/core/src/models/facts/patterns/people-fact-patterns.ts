import type { FactDraft, FactPattern } from './fact-pattern.js';
import { cleanObject, parseCount, pickName, takeProperNoun } from './fact-phrases.js';
import { FACT_VOCABULARY } from './fact-vocabulary.js';

function alternation(words: Iterable<string>): string {
  return [...words].sort((a, b) => b.length - a.length).join('|');
}

const RELATION = alternation(Object.keys(FACT_VOCABULARY.relations));
const SPECIES = alternation(Object.keys(FACT_VOCABULARY.petSpecies));
const NAMING = "(?:'s name is| is called| is named| named| called)";

/** Facts about a named relative from the rest of the clause: "my sister Anna lives in Rome". */
function thirdPartyDrafts(subject: string, rest: string, isCasual: boolean): FactDraft[] {
  const lives = /^,?\s+(?:who\s+)?(?:lives|is living|is based|just moved|moved|has moved) (?:in|to) (.+)/i.exec(rest);
  const place = lives?.[1] === undefined ? undefined : takeProperNoun(lives[1], isCasual);
  if (place !== undefined) return [{ subject: subject.toLowerCase(), predicate: 'lives_in', object: place, text: `${subject} lives in ${place}.`, confidence: 0.7 }];
  const works = /^,?\s+(?:who\s+)?works (?:at|for) (.+)/i.exec(rest);
  const employer = works?.[1] === undefined ? undefined : takeProperNoun(works[1], isCasual);
  if (employer !== undefined) return [{ subject: subject.toLowerCase(), predicate: 'employer', object: employer, text: `${subject} works at ${employer}.`, confidence: 0.7 }];
  return [];
}

function relationDrafts(m: RegExpExecArray, isCasual: boolean): FactDraft[] | undefined {
  const relation = (m[1] ?? '').toLowerCase();
  const predicate = FACT_VOCABULARY.relations[relation];
  const tail = m[3] ?? '';
  const name = pickName(tail, isCasual, m[2] !== undefined && m[2].trim() !== 'is' && m[2].trim() !== ',');
  if (predicate === undefined || name === undefined) return undefined;
  const fact: FactDraft = { predicate, object: name, text: `User's ${relation} is ${name}.`, confidence: m[2] === undefined ? 0.75 : 0.85 };
  return [fact, ...thirdPartyDrafts(name, tail.slice(tail.indexOf(name) + name.length), isCasual)];
}

function petDraft(speciesWord: string | undefined, countWord: string | undefined, rawName: string | undefined, isCasual: boolean): FactDraft | undefined {
  const species = FACT_VOCABULARY.petSpecies[(speciesWord ?? '').toLowerCase()];
  if (species === undefined) return undefined;
  const name = rawName === undefined ? undefined : pickName(rawName, isCasual, true);
  if (name !== undefined) return { predicate: `pet:${species}`, object: name, text: `User has a ${species} named ${name}.`, confidence: 0.85 };
  const count = parseCount(countWord ?? '');
  if (count === undefined) return undefined;
  const text = count === 1 ? `User has a ${species}.` : `User has ${count} ${cleanObject(speciesWord ?? '').toLowerCase()}.`;
  return { predicate: `pet:${species}`, object: String(count), text, confidence: 0.75 };
}

/** The people and animals in the user's life. */
export const peopleFactPatterns: FactPattern[] = [
  {
    name: 'relation',
    regex: new RegExp(String.raw`\bmy (${RELATION})(${NAMING}| is|,)?\s+(.+)`, 'i'),
    build: (m, { isCasual }) => relationDrafts(m, isCasual),
  },
  {
    name: 'have-pet',
    regex: new RegExp(String.raw`\bI(?:'ve| have)? (?:have|got|own|adopted|just adopted|just got) (an?|one|two|three|four|five|\d+) (?:[\p{L}-]+ )?(${SPECIES})\b(?:,? (?:named|called) (\S+))?`, 'iu'),
    build: (m, { isCasual }) => petDraft(m[2], m[1], m[3], isCasual),
  },
  {
    name: 'my-pet',
    regex: new RegExp(String.raw`\bmy (${SPECIES})(${NAMING}|,)?\s+(\S+)`, 'i'),
    build: (m, { isCasual }) => {
      if (m[2] === undefined && isCasual) return undefined;
      return petDraft(m[1], undefined, m[3], isCasual && m[2] !== undefined);
    },
  },
];

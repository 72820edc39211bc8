import type { Fact } from '../../domain/derived.js';
import { parseSentences } from './parse-sentences.js';
import { userNameIn } from './speaker-of.js';
import { nameAt } from './third-person.js';
import { RELATION_WORDS_BY_SLOT } from './patterns/fact-vocabulary.js';
import { boundedMemo } from '../../shared/bounded-memo.js';
import { resolveRelativeDate } from '../../shared/resolve-relative-date.js';

/** One entity of a namespace's facts: who or what they are about or name, and those facts. */
export interface FactEntity {
  /** How the facts call it: a speaker by name ("Maya"; an unnamed user "User"), a person, place or thing by its proper name. */
  name: string;
  /** The facts whose subject it is (their slots hold what is known of it), in the order given. */
  about: Fact[];
  /** Other facts that name it, in the order given. */
  namedIn: Fact[];
  /** What it is, when a fact's slot says: a person (a speaker, a relative), a place (a home), an organisation (an employer), a pet. */
  kind?: EntityKind;
}

/** What an entity is, when a slot of a fact says so (see {@link FactEntity.kind}). */
export type EntityKind = 'person' | 'place' | 'organisation' | 'pet';

/** What a slot's object is ("lives_in" -> a place); relatives are people. */
function objectKind(predicate: string): EntityKind | undefined {
  if (RELATION_WORDS_BY_SLOT.has(predicate)) return 'person';
  if (predicate === 'lives_in' || predicate === 'hometown') return 'place';
  if (predicate === 'employer') return 'organisation';
  if (predicate.startsWith('pet:')) return 'pet';
  return undefined;
}

/** A proper name in a fact's text, and whether it opens a sentence (where a tagger also marks a capitalised common word as one). */
interface NameMention {
  name: string;
  opensSentence: boolean;
}

/** Whether a proper noun is a day or a month ("Saturday", "March 4"): the tagger's, not an entity's (chrono reads it whole). */
const isDate = boundedMemo(1024, (name: string): boolean => resolveRelativeDate(name, 0)?.matched.toLowerCase() === name.toLowerCase());

/** Proper names in a text, by the tagger's proper-noun tags (consecutive PROPN tokens, as {@link nameAt} reads them; a possessive 's left off). */
function namesIn(text: string): NameMention[] {
  const names: NameMention[] = [];
  for (const { tokens } of parseSentences(text)) {
    for (let i = 0; i < tokens.length; i++) {
      const run = nameAt(tokens, i);
      if (run === undefined) continue;
      const name = run.replace(/\s*['’]s$/u, '');
      if (/^\p{Lu}/u.test(name) && !isDate(name) && !names.some((n) => n.name === name)) names.push({ name, opensSentence: i === 0 });
      i += run.split(' ').length - 1;
    }
  }
  return names;
}

/**
 * The relatives the facts name ("User's sister is Ana."), each with a pattern of the phrases that
 * tell them by what they are to their subject, lower-cased: "maya's sister", "user's sis".
 */
function relativesOf(facts: readonly Fact[], nameOf: (subject: string) => string): { fact: Fact; name: string; told: RegExp }[] {
  return facts.flatMap((fact) => {
    const words = RELATION_WORDS_BY_SLOT.get(fact.predicate);
    if (words === undefined || fact.validTo !== undefined || !/^\p{Lu}/u.test(fact.object)) return [];
    const owners = [...new Set([nameOf(fact.subject), fact.subject === 'user' ? 'User' : fact.subject])].map((owner) => owner.toLowerCase());
    const phrases = owners.flatMap((owner) => words.map((word) => `${owner}'s ${word}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    return [{ fact, name: fact.object, told: new RegExp(`\\b(?:${phrases.join('|')})\\b`, 'u') }];
  });
}

/** The name of a subject: an unnamed user by their current `name` fact, else as the facts' texts write it. */
function subjectName(subject: string, facts: readonly Fact[]): string {
  if (subject === 'user') return userNameIn(facts.filter((f) => f.validTo === undefined)) ?? 'User';
  for (const fact of facts) {
    const at = fact.text.toLowerCase().indexOf(subject);
    if (at >= 0) return fact.text.slice(at, at + subject.length);
  }
  return subject.charAt(0).toUpperCase() + subject.slice(1);
}

/**
 * The entities of a set of facts, for a reader: each subject (a speaker, a named relative)
 * with the facts about it, and every person, place or thing a fact names (by the tagger's
 * proper nouns) with the facts that name it. Mentions are linked: a name is the entity whose
 * name it equals, or whose full name it is the first word of when exactly one entity has that
 * first name ("Mia" after "Mia Lopez"; with "Mia Lopez" and "Mia Chen" both known, a bare
 * "Mia" stays an entity of its own); a relative a current fact names ("User's sister is Ana.")
 * is also what the facts call them by ("Maya's sister wants to go hiking" names Ana); an
 * unnamed user is named by their name fact. Subjects first, most facts first; then the names,
 * most facts first. An entity is only what the given facts say: once its last fact is
 * forgotten, it is gone.
 * @example
 * factEntities(facts).map((e) => e.name); // ['Maya', 'Ana', 'Porto', 'Lisbon']
 */
export function factEntities(facts: readonly Fact[]): FactEntity[] {
  const subjectNames = new Map<string, string>();
  const nameOf = (subject: string): string => {
    const known = subjectNames.get(subject);
    if (known !== undefined) return known;
    const name = subjectName(subject, facts);
    subjectNames.set(subject, name);
    return name;
  };
  const found = facts.map((fact) => ({ fact, subject: nameOf(fact.subject), names: namesIn(fact.text) }));
  const userName = nameOf('user');
  // a word that opens a sentence counts as a name only when it is one elsewhere too, or the first of a full name ("Work has been hectic" names nothing)
  const asNames = [...found.map((m) => m.subject), ...found.flatMap((m) => m.names.filter((n) => !n.opensSentence || n.name.includes(' ')).map((n) => n.name))];
  const known = new Set([...asNames, ...asNames.map((n) => n.split(' ')[0] as string)].map((n) => n.toLowerCase()));
  const mentions = found.map((m) => ({ ...m, names: m.names.filter((n) => !n.opensSentence || n.name.includes(' ') || known.has(n.name.toLowerCase())).map((n) => n.name) }));
  const fullNames = [...new Set(mentions.flatMap((m) => [m.subject, ...m.names]))].filter((name) => name.includes(' '));
  // the entity a name is: the user's placeholder is the user; a first name, the one full name it starts
  const canonical = (name: string): string => {
    if (name.toLowerCase() === 'user') return userName;
    if (name.includes(' ')) return name;
    const longer = fullNames.filter((full) => full.split(' ')[0] === name);
    return longer.length === 1 ? (longer[0] as string) : name;
  };
  const byKey = new Map<string, FactEntity>();
  const entityOf = (name: string, list: FactEntity[]): FactEntity => {
    const key = canonical(name).toLowerCase();
    let entity = byKey.get(key);
    if (entity === undefined) {
      entity = { name: canonical(name), about: [], namedIn: [] };
      byKey.set(key, entity);
      list.push(entity);
    }
    return entity;
  };
  const subjects: FactEntity[] = [];
  const named: FactEntity[] = [];
  for (const { fact, subject } of mentions) {
    const entity = entityOf(subject, subjects);
    entity.about.push(fact);
    entity.kind = 'person';
  }
  const relatives = relativesOf(facts, nameOf);
  for (const { fact, subject, names } of mentions) {
    const own = entityOf(subject, subjects);
    const text = fact.text.toLowerCase();
    // a relative told by what they are to someone ("Maya's sister"), once a fact names them
    const told = relatives.filter((r) => r.fact !== fact && r.told.test(text)).map((r) => r.name);
    for (const name of [...names, ...told]) {
      const entity = entityOf(name, named);
      if (entity !== own && !entity.namedIn.includes(fact)) entity.namedIn.push(fact);
    }
    // the slot's object is what the slot says it is ("Noor lives in Tarvik": a place)
    const kind = objectKind(fact.predicate);
    const object = kind === undefined ? undefined : byKey.get(canonical(fact.object).toLowerCase());
    if (object !== undefined && object.kind === undefined) object.kind = kind;
  }
  const size = (e: FactEntity): number => e.about.length + e.namedIn.length;
  const order = (list: FactEntity[]): FactEntity[] => [...list].sort((a, b) => size(b) - size(a));
  return [...order(subjects), ...order(named)];
}

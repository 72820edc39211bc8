/**
 * Words a question uses for a fact slot, by predicate kind (the part before `:`). A fact is
 * searchable by its slot's words as well as its own, so "What is my job?" and "What do I do for
 * a living?" find "User works as a glassblower." General English for common profile slots; a
 * kind not listed is searched by its text alone.
 */
const SLOT_WORDS: Readonly<Record<string, string>> = {
  job_title: 'job occupation profession work career living employment position role',
  employer: 'employer company workplace work job firm organisation organization',
  lives_in: 'lives live home city town place location residence address where',
  hometown: 'hometown home town grew up origin born from',
  name: 'name called',
  age: 'age old years',
  birthday: 'birthday birth born date',
  nationality: 'nationality citizen citizenship country from',
  email: 'email address contact',
  diet: 'diet eat eats food meals',
  allergy: 'allergy allergies allergic',
  pet: 'pet pets animal',
  speaks: 'language languages speak speaks',
  favorite: 'favorite favourite like likes love loves',
  opinion_of: 'opinion think thinks feel feels view',
  plan: 'plan plans planning going trip upcoming',
  partner: 'partner spouse married relationship',
};

/** Slots searchable by their words that are not a profile: an opinion or a plan is one remark, often about a passing thing. */
const NOT_PROFILE = new Set(['opinion_of', 'plan']);

/** Predicate kinds whose facts make up a person's profile (see {@link isProfilePredicate}). */
export const PROFILE_PREDICATE_KINDS: readonly string[] = Object.keys(SLOT_WORDS).filter((kind) => !NOT_PROFILE.has(kind));

/** The predicate's kind, as stores filter on it: `opinion_of:jazz` -> `opinion_of`. */
export function predicateKind(predicate: string): string {
  const colon = predicate.indexOf(':');
  return colon < 0 ? predicate : predicate.slice(0, colon);
}

function kindOf(predicate: string): string {
  return predicateKind(predicate).trim().toLowerCase();
}

/** Whether facts of this predicate describe the person (a profile slot), rather than an event or remark. */
export function isProfilePredicate(predicate: string): boolean {
  return PROFILE_PREDICATE_KINDS.includes(kindOf(predicate));
}

/** The text a fact is searchable by: its sentence and the words of its slot. */
export function factLexicalText(fact: { text: string; predicate: string }): string {
  const words = SLOT_WORDS[kindOf(fact.predicate)];
  return words === undefined ? fact.text : `${fact.text} ${words}`;
}

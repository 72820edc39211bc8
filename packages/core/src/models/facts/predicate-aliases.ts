// Predicates another extractor (or an LLM) may have used for the same single-valued slot.
export const PREDICATE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  lives_in: ['location', 'city', 'residence', 'current_city', 'home_city', 'lives', 'place_of_residence', 'current_location'],
  hometown: ['from', 'origin', 'birthplace', 'home_town', 'grew_up_in', 'place_of_birth'],
  job_title: ['occupation', 'job', 'profession', 'role', 'works_as', 'title'],
  employer: ['company', 'works_at', 'works_for', 'workplace', 'organization'],
  name: ['full_name', 'first_name', 'called'],
  partner: ['spouse', 'wife', 'husband', 'girlfriend', 'boyfriend'],
  mother: ['mom', 'mum'],
  father: ['dad'],
  email: ['email_address', 'e-mail'],
};

/**
 * The canonical spelling of a predicate, so that extractors name one slot one way:
 * lower-case snake_case kind (`Current City` -> `current_city` -> `lives_in`), an item after
 * `:` kept as given (`opinion_of:jazz music`).
 */
export function canonicalPredicate(predicate: string): string {
  const trimmed = predicate.trim().toLowerCase();
  const colon = trimmed.indexOf(':');
  const kind = (colon < 0 ? trimmed : trimmed.slice(0, colon)).trim().replace(/[\s-]+/g, '_');
  const item = colon < 0 ? undefined : trimmed.slice(colon + 1).trim();
  const canonical = Object.entries(PREDICATE_ALIASES).find(([name, aliases]) => name === kind || aliases.includes(kind))?.[0] ?? kind;
  return item === undefined ? canonical : `${canonical}:${item}`;
}

import type { ParsedToken } from './parse-sentences.js';

// Verb forms that follow "I" (or "you") but take another form after a name.
const AFTER_I: Readonly<Record<string, string>> = {
  am: 'is',
  "'m": 'is',
  are: 'is',
  "'re": 'is',
  were: 'was',
  have: 'has',
  "'ve": 'has',
  do: 'does',
  "'ll": 'will',
};
const PLURAL_CLITICS: Readonly<Record<string, string>> = { "'re": 'are', "'ve": 'have', "'ll": 'will' };
// Verbs that do not take an -s (modals) and words that may sit between "I" and its verb.
const MODALS: ReadonlySet<string> = new Set(['can', 'could', 'will', 'would', 'shall', 'should', 'may', 'might', 'must', 'ca', 'wo', 'gotta', 'gonna', 'wanna']);
const BETWEEN: ReadonlySet<string> = new Set(['ADV', 'PART']);

function inflect(verb: string): string {
  if (verb === 'have') return 'has';
  if (/(?:s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/** The form of the word that follows "I" when a name stands in its place ("love" -> "loves"). */
function agree(token: ParsedToken): string {
  const lower = token.text.toLowerCase();
  const fixed = AFTER_I[lower];
  if (fixed !== undefined) return fixed;
  const isBareVerb = (token.pos === 'VERB' || token.pos === 'AUX') && lower === token.lemma && /^[a-z]+$/.test(lower);
  return isBareVerb && !MODALS.has(lower) ? inflect(lower) : token.text;
}

/** Who a first-person sentence is retold about, and who else its pronouns can name. */
export interface Teller {
  /** The speaker as the retelling names them ("Ana"). */
  name: string;
  /** Who "you" is, when known. */
  listener?: string;
  /** The one person the turn puts beside the speaker ("with Mia", "Mia and I"): who "we" is besides them. */
  companion?: string;
}

function pronounFor(lower: string, { name: speaker, listener, companion }: Teller): string | undefined {
  if (listener !== undefined) {
    if (lower === 'you' || lower === 'u' || lower === 'ya') return listener;
    if (lower === 'your' || lower === 'yours') return `${listener}'s`;
    if (lower === 'yourself') return 'themselves';
  }
  switch (lower) {
    case 'i':
    case 'me':
      return speaker;
    case 'my':
    case 'mine':
      return `${speaker}'s`;
    case 'our':
    case 'ours':
      return companion === undefined ? `${speaker}'s` : `${speaker} and ${companion}'s`;
    case 'we':
    case 'us':
      return `${speaker} and ${companion ?? 'others'}`;
    case 'myself':
    case 'ourselves':
      return 'themselves';
    default:
      return undefined;
  }
}

// "For me, I ..." and "Me, I ..." put the speaker first twice; retold, once is enough.
const SPEAKER_FIRST = [['for', 'me'], ['as', 'for', 'me'], ['me']];

/** The tokens after a fronted "For me," or "Me," that the subject "I" repeats. */
function withoutFrontedSpeaker(tokens: readonly ParsedToken[]): readonly ParsedToken[] {
  const words = tokens.map((token) => token.text.toLowerCase());
  for (const phrase of SPEAKER_FIRST) {
    if (!phrase.every((word, i) => words[i] === word)) continue;
    const next = words[phrase.length] === ',' ? phrase.length + 1 : phrase.length;
    if (words[next] === 'i' || words[next] === "i'm") return tokens.slice(next);
  }
  return tokens;
}

/**
 * A first-person sentence retold about its speaker: "I love my garden" -> "Ana loves Ana's
 * garden". The verb after "I" is made to agree ("I'm" -> "is", "I've" -> "has", "I go" ->
 * "goes"); "we" becomes "<speaker> and <companion>" when the turn named the one person with
 * them, else "<speaker> and others" (plural, so its verb stays); "myself" becomes "themselves",
 * and a fronted "For me, I ..." is told once ("Ana ..."). Given the `listener`, "you" is
 * retold as them: "your advice helped me" -> "Ben's advice helped Ana".
 */
export function retellInThirdPerson(tokens: readonly ParsedToken[], teller: Teller): string {
  const { name: speaker, listener } = teller;
  const out: string[] = [];
  let after: 'i' | 'we' | undefined;
  for (const token of withoutFrontedSpeaker(tokens)) {
    const lower = token.text.toLowerCase();
    const space = out.length === 0 ? '' : token.space;
    const pronoun = lower === "i'm" ? `${speaker} is` : pronounFor(lower, teller);
    if (pronoun !== undefined) {
      out.push(`${space}${pronoun}`);
      // "you" retold as a name takes a singular verb, as "I" does ("you are" -> "Ben is").
      after = lower === 'i' || (lower === 'you' && listener !== undefined) ? 'i' : lower === 'we' ? 'we' : undefined;
    } else if (after === 'i' && BETWEEN.has(token.pos) && lower !== "n't") {
      out.push(`${space}${token.text}`);
    } else if (after !== undefined) {
      // A clitic ("'m", "'re") becomes a word of its own: "Ana is", "Ana and others are".
      const word = after === 'i' ? agree(token) : (PLURAL_CLITICS[lower] ?? token.text);
      out.push(`${lower.startsWith("'") ? ' ' : space}${word}`);
      after = undefined;
    } else {
      out.push(`${space}${token.text}`);
    }
  }
  return out.join('');
}

// Words that put a person beside the speaker: "with Mia", "my sister Mia", "Mia and I".
const WITH = 'with';
const FIRST_PERSON: ReadonlySet<string> = new Set(['i', 'me']);
const OWN: ReadonlySet<string> = new Set(['my', 'our']);

/** The proper name that starts at `at` (consecutive PROPN tokens, "Mia" or "Mia Lopez"), or undefined. */
export function nameAt(tokens: readonly ParsedToken[], at: number): string | undefined {
  let end = at;
  while (tokens[end]?.pos === 'PROPN') end++;
  return end === at
    ? undefined
    : tokens
        .slice(at, end)
        .map((token) => token.text)
        .join(' ');
}

/** The name a token starts beside the speaker: "with Mia", "my sister Mia" (a relation, then the name), "Mia and I" (at the "and"). */
function companionAt(tokens: readonly ParsedToken[], i: number): string | undefined {
  const lower = tokens[i]?.text.toLowerCase() ?? '';
  if (lower === WITH) return nameAt(tokens, i + 1);
  if (OWN.has(lower) && tokens[i + 1]?.pos === 'NOUN') return nameAt(tokens, i + 2);
  if (lower === 'and' && i > 0 && FIRST_PERSON.has(tokens[i + 1]?.text.toLowerCase() ?? '')) {
    let start = i;
    while (start > 0 && tokens[start - 1]?.pos === 'PROPN') start--;
    return start < i ? nameAt(tokens, start) : undefined;
  }
  return undefined;
}

/**
 * The one person a turn names beside its speaker, as "we" includes them: "I went climbing
 * with Mia", "my sister Mia is visiting", "Mia and I" (by the tagger's proper nouns).
 * Undefined when it names none, or more than one (then "we" is not theirs to guess), and never
 * the speaker or the listener themselves.
 */
export function companionOf(sentences: readonly { tokens: readonly ParsedToken[] }[], speaker: string, listener?: string): string | undefined {
  const names = new Set<string>();
  for (const { tokens } of sentences) {
    for (let i = 0; i < tokens.length; i++) {
      const name = companionAt(tokens, i);
      if (name !== undefined) names.add(name);
    }
  }
  names.delete(speaker);
  if (listener !== undefined) names.delete(listener);
  return names.size === 1 ? [...names][0] : undefined;
}

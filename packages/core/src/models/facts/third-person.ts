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

function pronounFor(lower: string, speaker: string, listener: string | undefined): string | undefined {
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
    case 'our':
    case 'ours':
      return `${speaker}'s`;
    case 'we':
    case 'us':
      return `${speaker} and others`;
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
 * "goes"); "we" becomes "<speaker> and others" (plural, so its verb stays), "myself"
 * "themselves", and a fronted "For me, I ..." is told once ("Ana ..."). Given the `listener`,
 * "you" is retold as them: "your advice helped me" -> "Ben's advice helped Ana".
 */
export function retellInThirdPerson(tokens: readonly ParsedToken[], speaker: string, listener?: string): string {
  const out: string[] = [];
  let after: 'i' | 'we' | undefined;
  for (const token of withoutFrontedSpeaker(tokens)) {
    const lower = token.text.toLowerCase();
    const space = out.length === 0 ? '' : token.space;
    const pronoun = lower === "i'm" ? `${speaker} is` : pronounFor(lower, speaker, listener);
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

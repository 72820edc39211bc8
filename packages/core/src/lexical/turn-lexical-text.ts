import { preloadDateParser, resolveRelativeDate } from '../shared/resolve-relative-date.js';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * Words that start the date expressions worth resolving in a turn (relative ones, weekdays,
 * months); a turn without any skips the date parser (about 0.1 ms a text).
 */
const DATE_WORD =
  /\b(?:yesterday|today|tonight|tomorrow|ago|last|next|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan(?:uary)?|feb(?:ruary)?|march|april|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d{4})\b/i;

/** What a turn is indexed under besides its words. */
export interface TurnLexicalFields {
  content: string;
  /** The speaker's name, when the app gave one. */
  name?: string | undefined;
  createdAt: number;
}

function monthYear(ms: number): string {
  const date = new Date(ms);
  return Number.isFinite(date.getTime()) ? `${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}` : '';
}

/** The month (or year) a date expression in the turn points at ("last month" said in April 2023 -> "march 2023"). */
function mentionedWhen(content: string, createdAt: number): string {
  if (!DATE_WORD.test(content)) return '';
  const resolved = resolveRelativeDate(content, createdAt);
  if (resolved === undefined) return '';
  return resolved.precision === 'year' ? String(resolved.year) : `${MONTHS[resolved.month - 1] ?? ''} ${resolved.year}`;
}

/**
 * The text a turn is searchable by: who said it, what was said, when (month and year), and
 * the month a date expression in it points at, resolved against the turn's time. "What did
 * Ana paint?" then reaches Ana's own turns, which never say "Ana", and "in March
 * 2023" reaches "last month" said in April. Every lexical index (in-memory and SQLite) builds
 * turn text with this function, so their rankings agree.
 */
export function turnLexicalText(turn: TurnLexicalFields): string {
  const mentioned = mentionedWhen(turn.content, turn.createdAt);
  return [turn.name ?? '', turn.content, monthYear(turn.createdAt), mentioned].filter((part) => part.length > 0).join(' ');
}

/**
 * Loads what {@link turnLexicalText} needs (the date parser) ahead of a batch of turns to
 * index, spread over turns of the event loop: its first use in one call held the loop for
 * about 700 ms. A lexical index about to load or index many turns awaits this first.
 */
export async function preloadTurnLexicalText(): Promise<void> {
  await preloadDateParser();
}

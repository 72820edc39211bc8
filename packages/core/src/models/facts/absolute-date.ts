import { MONTHS } from './patterns/fact-phrases.js';
import { resolveRelativeDate, type ResolvedDate } from '../../shared/resolve-relative-date.js';

// Only expressions that mean nothing once the day has passed are rewritten; "March 3" or a bare
// "Tuesday" stay as said (a bare weekday does not say whether it is past or coming).
const RELATIVE = /\b(?:yesterday|today|tonight|tomorrow|last|next|ago|this|coming|past|in (?:a|an|one|two|three|four|five|six|a few|several|\d+) (?:days?|weeks?|months?|years?))\b/i;
const PREPOSITION_BEFORE = /\b(?:on|in|at|by|since|until|from|before|after|during|of)\s*$/i;

function spoken(date: ResolvedDate, matched: string): string {
  if (date.precision === 'year') return `in ${date.year}`;
  if (date.precision === 'month') return `in ${MONTHS[date.month - 1] ?? ''} ${date.year}`;
  const day = `${date.day} ${MONTHS[date.month - 1] ?? ''} ${date.year}`;
  return /\bweek(?:end)?s?\b/i.test(matched) ? `in the week of ${day}` : `on ${day}`;
}

/**
 * Rewrites the first relative date expression of `text` as the calendar date it meant when
 * said at `createdAt`: "I went there yesterday" said on 8 May 2023 -> "I went there on 7 May
 * 2023". A fact keeps meaning the same day however long after it is read.
 */
export function withAbsoluteDate(text: string, createdAt: number): string {
  const date = resolveRelativeDate(text, createdAt);
  if (date === undefined || /\b\d{4}\b/.test(date.matched) || !RELATIVE.test(date.matched)) return text;
  const before = text.slice(0, date.index);
  const words = spoken(date, date.matched);
  const rendered = PREPOSITION_BEFORE.test(before) ? words.replace(/^(?:on|in) /, '') : words;
  return `${before}${rendered}${text.slice(date.index + date.matched.length)}`;
}

import { resolveRelativeDate } from '../../shared/resolve-relative-date.js';

/** A calendar day a query asks about, as month and day (the year is rarely said and often wrong). */
export interface QueryDay {
  /** `MM-DD`: also the text added to the query, which the analyzer splits into two terms. */
  key: string;
}

const CALENDAR_WORD =
  /\d|\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)day|yesterday|weekend)\b/i;

const keyOf = (month: number, day: number): string => `${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/**
 * The day a query names ("on Tuesday, March 4", "last Friday", "on 2025-03-04"), resolved
 * against `now`; undefined when it names none. "now" or "today" alone are not a day asked
 * about: the expression must name a weekday, a month or a number.
 */
export function queryDayOf(query: string, now: number): QueryDay | undefined {
  // Most queries name no day: skip the date parser for them.
  if (!CALENDAR_WORD.test(query)) return undefined;
  const resolved = resolveRelativeDate(query, now);
  if (resolved === undefined || resolved.precision !== 'day' || !CALENDAR_WORD.test(resolved.matched)) return undefined;
  return { key: keyOf(resolved.month, resolved.day) };
}

/**
 * Every word the date parser could start a date expression from (a superset: digits, month
 * and weekday stems, casual days, time units); a text with none of them names no date, and
 * the parser (about 0.1 ms a text) is skipped.
 */
const DATE_HINT =
  /\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|\b(?:now|today|tonight|tomorrow|tmrw?|yesterday|morning|afternoon|evening|night|noon|midnight|sec|second|min|minute|hour|hr|day|week|weekend|wk|fortnight|month|mo|quarter|year|yr|decade)s?\b/i;

/** Mentioned days by written time and text: ranking asks about the same candidates again and again. */
const MENTIONED_LIMIT = 20_000;
const mentionedDays = new Map<string, string | null>();

/** The `MM-DD` of the first day-precise date the text mentions, resolved against `at`; null if none. */
function mentionedDay(text: string, at: number): string | null {
  if (!DATE_HINT.test(text)) return null;
  const key = `${at}\u0000${text}`;
  const cached = mentionedDays.get(key);
  if (cached !== undefined) return cached;
  const mentioned = resolveRelativeDate(text, at);
  const day = mentioned !== undefined && mentioned.precision === 'day' ? keyOf(mentioned.month, mentioned.day) : null;
  if (mentionedDays.size >= MENTIONED_LIMIT) mentionedDays.delete(mentionedDays.keys().next().value as string);
  mentionedDays.set(key, day);
  return day;
}

/**
 * Whether a text written at `at` is about `day`: it was written that day, it names the day
 * (`MM-DD`, as facts do), or a date it mentions resolves to it ("last Saturday", "in two weeks").
 */
export function isAboutDay(text: string, at: number, day: QueryDay): boolean {
  const written = new Date(at);
  if (keyOf(written.getUTCMonth() + 1, written.getUTCDate()) === day.key) return true;
  if (text.includes(day.key)) return true;
  return mentionedDay(text, at) === day.key;
}

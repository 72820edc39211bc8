import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type * as Chrono from 'chrono-node';
import { loadOnFirstUse } from './load-on-first-use.js';

// its ESM build's namespace is the module (no default export)
const chronoNode = loadOnFirstUse<typeof Chrono>('chrono-node', (namespace) => namespace);

/**
 * Loads the date parser ahead of a batch of turns to index, without holding the event loop for
 * long (see {@link LoadOnFirstUse.preload}), then warms it one parser per turn of the event
 * loop: a parse runs each of chrono's parsers (18 in English), and each compiles its patterns
 * on its first runs, so the first parses held the loop for about 200 ms. Warmed alone (a Chrono
 * of that one parser, which shares the parser object and its compiled patterns with the default
 * one), most take a few milliseconds; the two largest (durations: "three days ago", "in two
 * weeks") about 80 ms each, V8 compiling one pattern, which cannot be split. Calls after the
 * first return at once.
 */
export async function preloadDateParser(): Promise<void> {
  if (warmed) return;
  await chronoNode.preload();
  const chrono = chronoNode();
  for (const parser of chrono.casual.parsers) {
    await nextMacrotask();
    const alone = new chrono.Chrono({ parsers: [parser], refiners: [] });
    for (const text of WARM_UP) for (const forwardDate of [true, false]) alone.parse(text, WARM_UP_AT, { forwardDate });
  }
  await nextMacrotask();
  warmed = true;
}
let warmed = false;
const WARM_UP_AT = new Date(Date.UTC(2024, 0, 1));
const WARM_UP = ['we met last weekend', 'next Saturday at noon', 'three days ago', 'on March 5th 2023', 'tomorrow evening'];

/** A calendar day found in text, resolved against the time the text was written. */
export interface ResolvedDate {
  /** YYYY-MM-DD (UTC calendar). */
  iso: string;
  year: number;
  month: number;
  day: number;
  weekday: string;
  /** Whether the text named the year, rather than it being inferred. */
  hasYear: boolean;
  /** How precise the expression is: "next month" resolves to a day but means a month. */
  precision: 'day' | 'month' | 'year';
  /** The date expression as it appears in the text, and where. */
  matched: string;
  index: number;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
// chrono's forwardDate pushes "last Tuesday" into the future too; these mark a past reference.
const PAST_MARKER = /\b(?:last|ago|yesterday|previous|past|earlier)\b/i;
const DAY_OF_MONTH = /\b(?:on )?the (\d{1,2})(?:st|nd|rd|th)\b/i;
const MONTH_ONLY = /\b(?:(?:next|this|coming|last) month|in (?:a|one|two|three|four|five|six|\d+|a few|several) months?)\b/i;
const YEAR_ONLY = /\b(?:(?:next|this|coming|last) year|in (?:a|one|two|three|\d+|a few|several) years?)\b/i;

function precisionOf(matched: string): ResolvedDate['precision'] {
  if (YEAR_ONLY.test(matched)) return 'year';
  return MONTH_ONLY.test(matched) ? 'month' : 'day';
}

function toResolved(year: number, month: number, day: number, hasYear: boolean, matched: string, index: number): ResolvedDate {
  const date = new Date(Date.UTC(year, month - 1, day));
  return {
    iso: date.toISOString().slice(0, 10),
    year,
    month,
    day,
    weekday: WEEKDAYS[date.getUTCDay()] ?? '',
    hasYear,
    precision: precisionOf(matched),
    matched,
    index,
  };
}

function parseWithChrono(text: string, reference: Chrono.ParsingReference): ResolvedDate | undefined {
  const chrono = chronoNode();
  let result = chrono.parse(text, reference, { forwardDate: true })[0];
  if (result !== undefined && PAST_MARKER.test(result.text)) {
    result = chrono.parse(text, reference, { forwardDate: false })[0];
  }
  if (result === undefined) return undefined;
  const { start } = result;
  const year = start.get('year');
  const month = start.get('month');
  const day = start.get('day');
  if (year === null || month === null || day === null) return undefined;
  return toResolved(year, month, day, start.isCertain('year'), result.text, result.index);
}

/** "on the 5th": chrono does not read a bare day of month; take its next occurrence. */
function parseDayOfMonth(text: string, createdAt: number): ResolvedDate | undefined {
  const match = DAY_OF_MONTH.exec(text);
  const day = Number(match?.[1]);
  if (match === null || !(day >= 1 && day <= 31)) return undefined;
  const now = new Date(createdAt);
  let year = now.getUTCFullYear();
  let month = now.getUTCMonth() + (day < now.getUTCDate() ? 1 : 0);
  // Skip months too short for the day (the 31st said in November means December 31).
  while (new Date(Date.UTC(year, month, day)).getUTCDate() !== day) month += 1;
  const date = new Date(Date.UTC(year, month, day));
  year = date.getUTCFullYear();
  return toResolved(year, date.getUTCMonth() + 1, day, false, match[0], match.index);
}

/**
 * Finds the first date expression in `text` ("next Friday", "in two weeks", "March 3", "last
 * Tuesday", "on the 5th") and resolves it against `createdAt`, on the UTC calendar so the
 * result does not depend on the machine's time zone. Ambiguous expressions ("Tuesday") are
 * read forward, unless they say they are past ("last Tuesday", "two days ago").
 */
export function resolveRelativeDate(text: string, createdAt: number): ResolvedDate | undefined {
  const reference = { instant: new Date(createdAt), timezone: 'UTC' };
  return parseWithChrono(text, reference) ?? parseDayOfMonth(text, createdAt);
}

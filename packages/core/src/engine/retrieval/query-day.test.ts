import { describe, expect, it } from 'vitest';
import { isAboutDay, queryDayOf } from './query-day.js';
import { resolveRelativeDate } from '../../shared/resolve-relative-date.js';

// Friday 2025-03-14, 09:00 UTC
const NOW = Date.UTC(2025, 2, 14, 9);
const day = (key: string) => ({ key });

describe('queryDayOf', () => {
  it.each([
    ['What do I have on Tuesday, March 4?', '03-04'],
    ['Where did I go hiking on Saturday, March 1?', '03-01'],
    ['What happened last Friday?', '03-07'],
    ['What is planned for 2025-04-02?', '04-02'],
    ['Which city do I live in now?', undefined],
    ['What did I say today?', undefined],
    ['Where does my sister live?', undefined],
  ])('%s -> %s', (query, key) => {
    expect(queryDayOf(query, NOW)?.key).toBe(key);
  });
});

describe('isAboutDay', () => {
  it.each([
    // written that day
    ['Nice weather.', Date.UTC(2025, 2, 4, 10), '03-04', true],
    // a date it mentions, resolved against when it was written (Sunday March 2 -> last Saturday = March 1)
    ['Last Saturday I went hiking near Lisbon.', Date.UTC(2025, 2, 2, 10), '03-01', true],
    ['Last Saturday I went hiking near Lisbon.', Date.UTC(2025, 2, 9, 10), '03-01', false],
    ['My dentist appointment is in two weeks.', Date.UTC(2025, 1, 18, 10), '03-04', true],
    // facts name the day
    ['User has a dentist appointment on 2025-03-04 (Tuesday).', Date.UTC(2025, 1, 18, 10), '03-04', true],
    ['I like ramen.', Date.UTC(2025, 1, 18, 10), '03-04', false],
  ])('%s written %i is about %s: %s', (text, at, key, expected) => {
    expect(isAboutDay(text, at, day(key))).toBe(expected);
  });
});

describe('isAboutDay skips the date parser only for texts that name no date', () => {
  const at = Date.UTC(2025, 2, 2, 10);
  it.each([
    'See you tomorrow.',
    'It was yesterday.',
    'Tonight we cook.',
    'this morning at the market',
    'in two weeks',
    'three days ago',
    'a fortnight from now',
    'next month',
    'over the weekend',
    'on the 5th',
    '2025-03-04',
    '3/4/2025',
    'March 3rd',
    'Mar 3',
    'on Tue',
    'next Wednesday',
    'last Thursday evening',
    'at noon',
    'in an hour',
    'in 5 minutes',
    'Sept 9',
    'in a year',
    'next quarter',
  ])('%s: same answer as the parser for every day it could name', (text) => {
    const resolved = resolveRelativeDate(text, at);
    const key = resolved !== undefined && resolved.precision === 'day' ? `${String(resolved.month).padStart(2, '0')}-${String(resolved.day).padStart(2, '0')}` : undefined;
    if (key !== undefined) expect(isAboutDay(text, at, day(key))).toBe(true);
    expect(isAboutDay(text, at, day('12-31'))).toBe(key === '12-31');
  });
});

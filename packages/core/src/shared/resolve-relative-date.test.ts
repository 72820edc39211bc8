import { describe, expect, it } from 'vitest';
import { resolveRelativeDate } from './resolve-relative-date.js';

// A Friday, late in the UTC day: a local-time slip would move dates by one.
const FRIDAY = Date.parse('2026-11-20T10:00:00Z');
const FRIDAY_LATE = Date.parse('2026-11-20T23:30:00Z');

describe('resolveRelativeDate', () => {
  it.each([
    ["I'm flying to Tokyo next Friday", FRIDAY, '2026-11-27', 'Friday', 'next Friday'],
    ['tomorrow', FRIDAY, '2026-11-21', 'Saturday', 'tomorrow'],
    ['tomorrow', FRIDAY_LATE, '2026-11-21', 'Saturday', 'tomorrow'],
    ['I will visit my mom in two weeks', FRIDAY, '2026-12-04', 'Friday', 'in two weeks'],
    ['my dentist appointment is on Tuesday', FRIDAY, '2026-11-24', 'Tuesday', 'on Tuesday'],
    ['I saw her last Tuesday', FRIDAY, '2026-11-17', 'Tuesday', 'last Tuesday'],
    ['two days ago', FRIDAY, '2026-11-18', 'Wednesday', 'two days ago'],
    ['my birthday is March 3', FRIDAY, '2027-03-03', 'Wednesday', 'March 3'],
    ['the exam is on the 5th', FRIDAY, '2026-12-05', 'Saturday', 'on the 5th'],
    ['the party is on the 25th', FRIDAY, '2026-11-25', 'Wednesday', 'on the 25th'],
    ['rent is due on the 31st', FRIDAY, '2026-12-31', 'Thursday', 'on the 31st'],
  ])('%j at %i -> %s', (text, createdAt, iso, weekday, matched) => {
    const resolved = resolveRelativeDate(text, createdAt);
    expect(resolved).toMatchObject({ iso, weekday, matched });
  });

  it('says whether the year was written', () => {
    expect(resolveRelativeDate('born on March 3, 1990', FRIDAY)).toMatchObject({ iso: '1990-03-03', hasYear: true });
    expect(resolveRelativeDate('March 3', FRIDAY)?.hasYear).toBe(false);
  });

  it.each([
    ['next Friday', 'day'],
    ["I'm moving to Berlin next month", 'month'],
    ['in two months', 'month'],
    ['next year', 'year'],
  ])('%j has %s precision', (text, precision) => {
    expect(resolveRelativeDate(text, FRIDAY)?.precision).toBe(precision);
  });

  it.each(['I am 34', 'I live in Berlin', ''])('%j -> no date', (text) => {
    expect(resolveRelativeDate(text, FRIDAY)).toBeUndefined();
  });
});

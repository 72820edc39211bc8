import { describe, expect, it } from 'vitest';
import { adaptShares, bestCoverage, RECENT_FLOOR } from './adapt-shares.js';

const shares = { working: 0.15, profile: 0.05, facts: 0.1, recall: 0.2, recent: 0.5 };

describe('adaptShares', () => {
  it.each([
    { name: 'an older turn holds more of the query than any recent one', query: ['ana', 'paint', 'sunris'], recent: [['ana', 'lunch']], recall: [['paint', 'sunris']], adapted: true },
    { name: 'a recent turn holds as much', query: ['ana', 'paint'], recent: [['ana', 'paint', 'lunch']], recall: [['paint', 'ana']], adapted: false },
    { name: 'nothing older was recalled', query: ['paint'], recent: [['lunch']], recall: [], adapted: false },
    { name: 'a query of stop words only', query: [], recent: [['lunch']], recall: [['lunch']], adapted: false },
  ])('$name -> adapted: $adapted', ({ query, recent, recall, adapted }) => {
    const out = adaptShares(shares, { queryTerms: query, recentTerms: recent, recallTerms: recall });
    expect(out.isAdapted).toBe(adapted);
    expect(out.shares).toEqual(adapted ? { ...shares, recent: RECENT_FLOOR, recall: 0.2 + 0.5 - RECENT_FLOOR } : shares);
  });

  it('never raises the recent share of a split that gives it less than the floor', () => {
    const low = { ...shares, recent: 0.1, recall: 0.6 };
    expect(adaptShares(low, { queryTerms: ['x'], recentTerms: [['y']], recallTerms: [['x']] })).toEqual({ shares: low, isAdapted: false });
  });

  it('bestCoverage counts distinct query terms held by the best text', () => {
    expect(
      bestCoverage(
        ['a', 'b', 'b', 'c', 'd'],
        [
          ['a', 'a'],
          ['b', 'c', 'x'],
        ],
      ),
    ).toBe(0.5);
    expect(bestCoverage([], [['a']])).toBe(0);
  });
});

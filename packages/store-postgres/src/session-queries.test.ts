import { describe, expect, it } from 'vitest';
import { mergedRanges } from './session-queries.js';

describe('mergedRanges', () => {
  it('merges overlapping and touching ranges of a session, keeps other sessions apart, and drops empty ones', () => {
    expect(
      mergedRanges([
        { sessionId: 'b', fromSeq: 5, toSeq: 9 },
        { sessionId: 'a', fromSeq: 7, toSeq: 8 },
        { sessionId: 'b', fromSeq: 1, toSeq: 2 },
        { sessionId: 'b', fromSeq: 3, toSeq: 4 },
        { sessionId: 'a', fromSeq: 1, toSeq: 3 },
        { sessionId: 'b', fromSeq: 8, toSeq: 12 },
        { sessionId: 'a', fromSeq: 6, toSeq: 2 },
      ]),
    ).toEqual([
      { sessionId: 'a', fromSeq: 1, toSeq: 3 },
      { sessionId: 'a', fromSeq: 7, toSeq: 8 },
      { sessionId: 'b', fromSeq: 1, toSeq: 12 },
    ]);
  });

  it('leaves the ranges it was given unchanged', () => {
    const ranges = [
      { sessionId: 'a', fromSeq: 1, toSeq: 3 },
      { sessionId: 'a', fromSeq: 2, toSeq: 6 },
    ];
    mergedRanges(ranges);
    expect(ranges).toEqual([
      { sessionId: 'a', fromSeq: 1, toSeq: 3 },
      { sessionId: 'a', fromSeq: 2, toSeq: 6 },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { boundedMemo } from './bounded-memo.js';

describe('boundedMemo', () => {
  it('computes a key once while it is kept, and evicts the oldest key past the limit', () => {
    const calls: number[] = [];
    const square = boundedMemo(2, (n: number) => {
      calls.push(n);
      return n * n;
    });
    expect([square(2), square(2), square(3), square(2)]).toEqual([4, 4, 9, 4]);
    expect(calls).toEqual([2, 3]);
    square(4); // evicts 2, the oldest
    expect([square(3), square(2)]).toEqual([9, 4]);
    expect(calls).toEqual([2, 3, 4, 2]);
  });

  it('keeps undefined results too', () => {
    let calls = 0;
    const nothing = boundedMemo(4, () => {
      calls += 1;
      return undefined;
    });
    nothing('a');
    nothing('a');
    expect(calls).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { ScoreFloor } from './score-floor.js';

describe('ScoreFloor', () => {
  it('answers from the kept documents current scores, and leaves no mark behind', () => {
    const held = new Uint8Array(8);
    const scores = new Float64Array(8);
    const floor = new ScoreFloor(2, held);
    const feed = (num: number, score: number): void => {
      scores[num] = score;
      if (floor.wouldTake(num, score)) floor.take(num, score);
    };
    feed(0, 1);
    expect(floor.isAbove(0.5)).toBe(false); // one kept, two needed
    feed(1, 3);
    feed(2, 2); // replaces 0, the lowest
    expect(held[0]).toBe(0);
    expect(floor.isAbove(1.5)).toBe(true);
    expect(floor.isAbove(2)).toBe(false);
    // a kept document's score grows in the accumulator: seen after a refresh, not offered twice
    scores[2] = 5;
    expect(floor.wouldTake(2, 5)).toBe(false);
    floor.refresh(scores);
    expect(floor.isAbove(2.5)).toBe(true);
    floor.release();
    expect([...held]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(floor.isAbove(0)).toBe(false);
  });
});

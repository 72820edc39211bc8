import { describe, expect, it } from 'vitest';
import { fuseRankings } from './fuse-rankings.js';

describe('fuseRankings', () => {
  it('ranks an id found by both lists above ids found by one', () => {
    const fused = fuseRankings([
      ['a', 'b', 'c'],
      ['c', 'd'],
    ]);
    expect(fused[0]?.id).toBe('c');
    expect(fused.map((f) => f.id).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('scores 1/(k+rank) summed over lists', () => {
    const fused = fuseRankings([['a'], ['a']], 60);
    expect(fused[0]?.score).toBeCloseTo(2 / 61, 10);
  });

  it('weights each list; a list of weight 0 adds nothing', () => {
    const fused = fuseRankings(
      [
        ['a', 'b'],
        ['c', 'b'],
      ],
      60,
      [1, 0.5],
    );
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0]?.score).toBeCloseTo(1 / 62 + 0.5 / 62, 10);
    expect(fused[2]?.score).toBeCloseTo(0.5 / 61, 10);
    expect(fuseRankings([['a'], ['z']], 60, [1, 0]).map((f) => f.id)).toEqual(['a']);
  });

  it('handles empty lists', () => {
    expect(fuseRankings([[], []])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { planConsolidation, planIngest, planSummaries, type TurnCost } from './plan-derivation.js';

const policy = { maxMessages: 6, maxTokens: 1000, minMessages: 2, batchMessages: 3 };
const turns = (from: number, to: number, tokens = 10): TurnCost[] => Array.from({ length: to - from + 1 }, (_, i) => ({ seq: from + i, tokens }));

describe('planSummaries', () => {
  it.each([
    { name: 'window not full', uncovered: turns(1, 6), covered: [], expected: [] },
    { name: 'one over -> one full batch', uncovered: turns(1, 7), covered: [], expected: [{ fromSeq: 1, toSeq: 3 }] },
    {
      name: 'far over -> consecutive batches',
      uncovered: turns(1, 13),
      covered: [],
      expected: [
        { fromSeq: 1, toSeq: 3 },
        { fromSeq: 4, toSeq: 6 },
        { fromSeq: 7, toSeq: 9 },
      ],
    },
    { name: 'tail after coverage', uncovered: turns(11, 17), covered: [{ fromSeq: 1, toSeq: 10 }], expected: [{ fromSeq: 11, toSeq: 13 }] },
    {
      name: 'holes are re-summarized; a deleted seq does not split them, a covered range does',
      uncovered: [{ seq: 2, tokens: 1 }, { seq: 4, tokens: 1 }, { seq: 7, tokens: 1 }, ...turns(21, 22)],
      covered: [
        { fromSeq: 5, toSeq: 6 },
        { fromSeq: 8, toSeq: 20 },
      ],
      expected: [
        { fromSeq: 2, toSeq: 4 },
        { fromSeq: 7, toSeq: 7 },
      ],
    },
  ])('$name', ({ uncovered, covered, expected }) => {
    expect(planSummaries(uncovered, covered, policy)).toEqual(expected);
  });

  it('promotes by tokens and keeps minMessages even when they alone exceed the budget', () => {
    const heavy = turns(1, 4, 600);
    expect(planSummaries(heavy, [], policy)).toEqual([{ fromSeq: 1, toSeq: 2 }]);
  });

  it('plans the same boundaries whether turns arrive one by one or at once', () => {
    const all = planSummaries(turns(1, 20), [], policy);
    const incremental: { fromSeq: number; toSeq: number }[] = [];
    let covered = 0;
    for (let n = 1; n <= 20; n++) {
      const planned = planSummaries(turns(covered + 1, n), covered ? [{ fromSeq: 1, toSeq: covered }] : [], policy);
      incremental.push(...planned);
      covered = planned.length ? planned[planned.length - 1]!.toSeq : covered;
    }
    expect(incremental).toEqual(all);
  });

  it.each([7, 10, 31])('plans the same boundaries over a long backlog read in slices of %i turns (tail open) as in one pass', (slice) => {
    const backlog = turns(1, 200, 600);
    const all = planSummaries(backlog, [], policy);
    const sliced: { fromSeq: number; toSeq: number }[] = [];
    let covered = 0;
    for (let round = 0; round < 200; round++) {
      const window = backlog.filter((t) => t.seq > covered && t.seq <= covered + slice + policy.maxMessages);
      const isTailOpen = (window[window.length - 1]?.seq ?? 0) < 200;
      const planned = planSummaries(window, covered ? [{ fromSeq: 1, toSeq: covered }] : [], policy, isTailOpen);
      if (planned.length === 0) break;
      sliced.push(...planned);
      covered = planned[planned.length - 1]!.toSeq;
    }
    expect(sliced).toEqual(all);
    // every turn is heavy (600 tokens of 1,000): a slice planned as closed would cut short batches at its end
    expect(all.length).toBeGreaterThan(60);
  });
});

describe('planIngest', () => {
  it.each([
    { last: 0, through: 0, max: 50, expected: [] },
    { last: 3, through: 0, max: 50, expected: [{ fromSeq: 1, toSeq: 3 }] },
    { last: 3, through: 3, max: 50, expected: [] },
    {
      last: 120,
      through: 10,
      max: 50,
      expected: [
        { fromSeq: 11, toSeq: 60 },
        { fromSeq: 61, toSeq: 110 },
        { fromSeq: 111, toSeq: 120 },
      ],
    },
  ])('last=$last through=$through', ({ last, through, max, expected }) => {
    expect(planIngest(last, through, max)).toEqual(expected);
  });
});

describe('planConsolidation', () => {
  const summaries = (n: number, start = 1) => Array.from({ length: n }, (_, i) => ({ id: `s${i}`, fromSeq: start + i * 10, toSeq: start + i * 10 + 9 }));

  it('does nothing at or under maxSummaries', () => {
    expect(planConsolidation(0, summaries(4), [], 4)).toEqual([]);
  });

  it('folds the oldest, keeping the newest half', () => {
    expect(planConsolidation(0, summaries(5), [], 4).map((s) => s.id)).toEqual(['s0', 's1', 's2']);
  });

  it('only folds summaries after the synopsis', () => {
    const after = summaries(5, 31);
    expect(planConsolidation(30, [...summaries(3), ...after], [], 4).map((s) => s.fromSeq)).toEqual([31, 41, 51]);
  });

  it('stops at a hole (an uncovered turn) so the synopsis never skips a turn', () => {
    const withHole = summaries(6).filter((s) => s.id !== 's1'); // turns 11-20 not summarized yet
    expect(planConsolidation(0, withHole, [15], 4).map((s) => s.id)).toEqual(['s0']);
  });
});

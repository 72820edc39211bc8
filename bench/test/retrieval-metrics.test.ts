import { describe, expect, it } from 'vitest';
import { evidenceRecall, mean, ndcgAtK, recallAtK } from '../lib/retrieval-metrics.js';

const log2 = Math.log2;

describe('recallAtK', () => {
  it.each([
    // evidence, ranked (turn ids covered per item), k -> recall
    [['a'], [['a'], ['b']], 1, 1],
    [['a'], [['b'], ['a']], 1, 0],
    [['a'], [['b'], ['a']], 2, 1],
    [['a', 'b'], [['a'], ['c'], ['b']], 2, 0.5],
    [['a', 'b'], [['a'], ['c'], ['b']], 3, 1],
    // a fact or summary covers several turns at once
    [['a', 'b'], [['x', 'a', 'b']], 1, 1],
    [['a', 'b', 'c', 'd'], [['a'], ['a'], ['d']], 10, 0.5],
    [['a'], [], 5, 0],
  ] as const)('evidence %j in %j at k=%i -> %f', (evidence, ranked, k, expected) => {
    expect(recallAtK(evidence, ranked, k)).toBeCloseTo(expected, 12);
  });
});

describe('ndcgAtK', () => {
  it.each([
    [['a'], [['a']], 10, 1],
    [['a'], [['b'], ['a']], 10, 1 / log2(3)],
    [['a'], [['b'], ['c'], ['a']], 2, 0],
    // two pieces of evidence at ranks 1 and 3; ideal ranks 1 and 2
    [['a', 'b'], [['a'], ['c'], ['b']], 10, (1 + 1 / log2(4)) / (1 + 1 / log2(3))],
    // repeating a piece of evidence earns nothing the second time
    [['a', 'b'], [['a'], ['a'], ['b']], 10, (1 + 1 / log2(4)) / (1 + 1 / log2(3))],
    // one item covering both pieces: one gain, ideal still two ranks
    [['a', 'b'], [['a', 'b']], 10, 1 / (1 + 1 / log2(3))],
    [['a', 'b'], [], 10, 0],
    // the ideal is cut at k
    [['a', 'b', 'c'], [['a']], 1, 1],
  ] as const)('evidence %j in %j at k=%i -> %f', (evidence, ranked, k, expected) => {
    expect(ndcgAtK(evidence, ranked, k)).toBeCloseTo(expected, 12);
  });
});

describe('evidenceRecall', () => {
  it.each([
    [['a', 'b'], [['a']], 0.5],
    [['a', 'b'], [['b'], ['a']], 1],
    [['a', 'b'], [['c']], 0],
    [['a'], [], 0],
  ] as const)('evidence %j covered by %j -> %f', (evidence, covered, expected) => {
    expect(evidenceRecall(evidence, covered)).toBe(expected);
  });

  it('refuses a question without evidence', () => {
    expect(() => evidenceRecall([], [['a']])).toThrow(RangeError);
    expect(() => ndcgAtK([], [['a']], 3)).toThrow(RangeError);
  });
});

describe('mean', () => {
  it.each([
    [[], 0],
    [[1], 1],
    [[0, 1, 0.5], 0.5],
  ] as const)('%j -> %f', (values, expected) => {
    expect(mean(values)).toBe(expected);
  });
});

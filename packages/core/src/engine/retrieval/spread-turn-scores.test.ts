import { describe, expect, it } from 'vitest';
import { spreadTurnScores, type PlacedTurn } from './spread-turn-scores.js';

const turn = (id: string, seq: number, name?: string, sessionId = 's1'): PlacedTurn => ({ id, sessionId, seq, name });
const words = (text: string) => new Set(text.toLowerCase().split(/\W+/).filter(Boolean));

describe('spreadTurnScores', () => {
  it('gives the next and previous turns a share of a hit, half of it two turns away', () => {
    const turns = [turn('a', 1), turn('b', 2), turn('c', 3), turn('d', 4), turn('e', 5)];
    const out = spreadTurnScores(turns, new Map([['c', 10]]), { neighbourShare: 0.6, speakerBoost: 0, queryWords: new Set() });
    expect(Object.fromEntries(out.map((o) => [o.id, o.score]))).toEqual({ c: 10, b: 6, d: 6, a: 3, e: 3 });
  });

  it('adds up what a turn receives: a reply between two hits outranks each hit', () => {
    const turns = [turn('q1', 1), turn('answer', 2), turn('q2', 3)];
    const out = spreadTurnScores(
      turns,
      new Map([
        ['q1', 5],
        ['q2', 5],
      ]),
      { neighbourShare: 0.7, speakerBoost: 0, queryWords: new Set() },
    );
    expect(out[0]).toEqual({ id: 'answer', score: 7 });
  });

  it('never spreads across sessions', () => {
    const turns = [turn('a', 1, undefined, 's1'), turn('b', 2, undefined, 's2')];
    const out = spreadTurnScores(turns, new Map([['a', 4]]), { neighbourShare: 0.5, speakerBoost: 0, queryWords: new Set() });
    expect(out).toEqual([{ id: 'a', score: 4 }]);
  });

  it('boosts the turns of a speaker the query names, whole names only', () => {
    const turns = [turn('ana', 1, 'Ana Silva'), turn('bo', 5, 'Bo')];
    const scores = new Map([
      ['ana', 1],
      ['bo', 1.5],
    ]);
    const boosted = spreadTurnScores(turns, scores, { neighbourShare: 0, speakerBoost: 1, queryWords: words('What did Ana paint?') });
    expect(boosted.map((o) => o.id)).toEqual(['ana', 'bo']);
    expect(boosted[0]?.score).toBe(2);
    const none = spreadTurnScores(turns, scores, { neighbourShare: 0, speakerBoost: 1, queryWords: words('What did Anastasia paint?') });
    expect(none.map((o) => o.id)).toEqual(['bo', 'ana']);
  });

  it('with no share and no boost keeps the lexical order', () => {
    const turns = [turn('x', 1), turn('y', 2), turn('z', 3)];
    const out = spreadTurnScores(
      turns,
      new Map([
        ['x', 1],
        ['y', 3],
        ['z', 2],
      ]),
      { neighbourShare: 0, speakerBoost: 0, queryWords: new Set() },
    );
    expect(out.map((o) => o.id)).toEqual(['y', 'z', 'x']);
  });
});

import { describe, expect, it } from 'vitest';
import { formatDay } from './text-format.js';

/** The day as a Date writes it, computed afresh (what formatDay caches). */
const dayOf = (epochMs: number): string => {
  const date = new Date(epochMs);
  return (Number.isNaN(date.getTime()) ? `invalid time (${String(epochMs)})` : date.toISOString()).slice(0, 10);
};

describe('formatDay', () => {
  it('writes the UTC day of any time, the same when it is asked again (cached)', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const times = Array.from({ length: 20_000 }, () => Math.round((random() - 0.5) * 2 * 8.64e15));
    // the edges: midnights, a millisecond either side, before 1970, and the ends of Date's range
    times.push(0, -1, 86_399_999, 86_400_000, -86_400_000, -86_400_001, 1_732_665_600_000, 8.64e15, -8.64e15, 8.64e15 + 1, -8.64e15 - 1, Number.NaN);
    for (const pass of [1, 2]) for (const t of times) expect(formatDay(t), `${t} (pass ${pass})`).toBe(dayOf(t));
  });
});

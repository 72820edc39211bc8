import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../domain/message.js';
import { lowerBound } from './in-memory-tables.js';

const at = (seqs: number[]): StoredMessage[] => seqs.map((seq) => ({ seq }) as StoredMessage);

/** The first index whose seq is >= seq, by a scan. */
function scan(list: readonly StoredMessage[], seq: number): number {
  const index = list.findIndex((m) => m.seq >= seq);
  return index < 0 ? list.length : index;
}

describe('lowerBound', () => {
  it('finds the first seq at or above, in dense seqs and with holes', () => {
    const lists = [at([]), at([1, 2, 3, 4, 5, 6, 7, 8]), at([3, 4, 5, 9, 10, 11, 20]), at([1, 2, 4, 5, 6, 7, 8, 9]), at([5])];
    for (const list of lists) {
      for (let seq = -1; seq <= 22; seq++) expect(lowerBound(list, seq), `seq ${seq} in [${list.map((m) => m.seq).join()}]`).toBe(scan(list, seq));
    }
  });
});

import type { KnowledgePartition } from './knowledge-partition.js';
import { isMatch } from './knowledge-row.js';
import type { Row, RowFilter } from './knowledge-row.js';

/**
 * The best `k` rows seen so far, best first, in one total order: higher score first, equal
 * scores by id (code-unit order), so the result does not depend on the order rows are offered.
 * Most rows are rejected by one comparison against `floor`, the k-th score.
 */
export class TopK {
  readonly scores: Float64Array;
  readonly rows: Row[] = [];
  size = 0;
  /** The score to reach to enter (-Infinity until full); a tie enters only with a smaller id. */
  floor = Number.NEGATIVE_INFINITY;
  private floorId = '';

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
  }

  /** Offers a row, which enters if it beats the k-th. */
  offer(score: number, row: Row): void {
    const { scores, rows, k } = this;
    if (score < this.floor) return;
    if (score === this.floor && !(row.id < this.floorId)) return;
    let at = this.size < k ? this.size++ : k - 1;
    for (; at > 0; at--) {
      const above = scores[at - 1] as number;
      if (above > score || (above === score && (rows[at - 1] as Row).id < row.id)) break;
      scores[at] = above;
      rows[at] = rows[at - 1] as Row;
    }
    scores[at] = score;
    rows[at] = row;
    if (this.size === k) {
      this.floor = scores[k - 1] as number;
      this.floorId = (rows[k - 1] as Row).id;
    }
  }
}

/** Rows scored per block: the block's partial sums stay in L1 while columns or posting lists stream by. */
const BLOCK = 4096;
const block = new Float64Array(BLOCK);

/**
 * Offers every live matching row of the partition, a block of slots at a time: the block's
 * scores come from the posting lists when they do less work (sparse vectors; rows sharing
 * no dimension with the query stay at exactly 0) or else from one column per non-zero query
 * coordinate. Both add in float64, dimensions ascending: the same sums, bit for bit.
 * Scores are clamped to [-1, 1] before ranking (rounding can overshoot), so ranks and
 * reported scores agree.
 */
export function offerPartition(partition: KnowledgePartition, indices: Int32Array, values: Float32Array, filter: RowFilter, top: TopK): void {
  const { rows } = partition;
  const postings = partition.prefersPostings(indices) ? partition.postings : null;
  const cursors = new Int32Array(indices.length);
  const scores = block;
  let floor = top.floor;
  for (let start = 0; start < rows.length; start += BLOCK) {
    const count = Math.min(BLOCK, rows.length - start);
    scores.fill(0, 0, count);
    if (postings !== null) postings.accumulate(indices, values, cursors, start, start + count, scores);
    else addColumns(partition, indices, values, start, count);
    for (let i = 0; i < count; i++) {
      const dot = scores[i] as number;
      // below the floor after clamping too, unless the floor is -1 itself
      if (dot < floor && floor > -1) continue;
      const row = rows[start + i] as Row | null;
      if (row === null || !isMatch(row, filter)) continue;
      top.offer(Math.min(Math.max(dot, -1), 1), row);
      floor = top.floor;
    }
  }
}

function addColumns(partition: KnowledgePartition, indices: Int32Array, values: Float32Array, start: number, count: number): void {
  const { vectors, capacity } = partition;
  // four columns per pass: the block is read and written a quarter as often (dense queries)
  let j = 0;
  for (; j + 4 <= indices.length; j += 4) {
    const b0 = (indices[j] as number) * capacity + start;
    const b1 = (indices[j + 1] as number) * capacity + start;
    const b2 = (indices[j + 2] as number) * capacity + start;
    const b3 = (indices[j + 3] as number) * capacity + start;
    const q0 = values[j] as number;
    const q1 = values[j + 1] as number;
    const q2 = values[j + 2] as number;
    const q3 = values[j + 3] as number;
    for (let i = 0; i < count; i++) {
      block[i] = (block[i] as number) + q0 * (vectors[b0 + i] as number) + q1 * (vectors[b1 + i] as number) + q2 * (vectors[b2 + i] as number) + q3 * (vectors[b3 + i] as number);
    }
  }
  for (; j < indices.length; j++) {
    const base = (indices[j] as number) * capacity + start;
    const q = values[j] as number;
    for (let i = 0; i < count; i++) block[i] = (block[i] as number) + q * (vectors[base + i] as number);
  }
}

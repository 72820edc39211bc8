/** A closed seq range [fromSeq, toSeq]. */
export interface SeqRange {
  fromSeq: number;
  toSeq: number;
}

/** Whether `seq` lies in any of the ranges. */
export function isCovered(seq: number, ranges: readonly SeqRange[]): boolean {
  return ranges.some((r) => seq >= r.fromSeq && seq <= r.toSeq);
}

/**
 * The watermark: the highest seq such that every existing seq up to it is covered.
 * `seqs` are the existing message seqs, ascending. 0 when the first message is uncovered.
 */
export function coveredThrough(seqs: readonly number[], ranges: readonly SeqRange[]): number {
  let mark = 0;
  for (const seq of seqs) {
    if (!isCovered(seq, ranges)) return mark;
    mark = seq;
  }
  return Math.max(mark, ...ranges.map((r) => r.toSeq), 0);
}

/** Whether two ranges share at least one seq. */
export function overlaps(a: SeqRange, b: SeqRange): boolean {
  return a.fromSeq <= b.toSeq && b.fromSeq <= a.toSeq;
}

/**
 * Per-dimension posting lists of a partition's vectors: for each dimension, the slots whose
 * stored value there is non-zero, in ascending slot order, with that value. A sparse query
 * (hashed embeddings: a handful of the 256 dimensions set) then touches only the rows that
 * share a dimension with it instead of streaming a whole column per dimension.
 *
 * Entries of removed slots stay until {@link KnowledgePostings.remap} (the partition skips
 * dead slots), so removal costs nothing here.
 */
export class KnowledgePostings {
  private readonly slots: Int32Array[];
  private readonly values: Float32Array[];
  private readonly lengths: Int32Array;
  /** Entries over all lists, removed slots included. */
  size = 0;

  constructor(dimensions: number) {
    this.slots = Array.from({ length: dimensions }, () => new Int32Array(4));
    this.values = Array.from({ length: dimensions }, () => new Float32Array(4));
    this.lengths = new Int32Array(dimensions);
  }

  /** Appends `slot` with its non-zero `value` to the list of dimension `d`; slots arrive ascending. */
  push(d: number, slot: number, value: number): void {
    const length = this.lengths[d] as number;
    if (length === (this.slots[d] as Int32Array).length) this.grow(d, length * 2);
    (this.slots[d] as Int32Array)[length] = slot;
    (this.values[d] as Float32Array)[length] = value;
    this.lengths[d] = length + 1;
    this.size++;
  }

  private grow(d: number, capacity: number): void {
    const slots = new Int32Array(capacity);
    slots.set(this.slots[d] as Int32Array);
    const values = new Float32Array(capacity);
    values.set(this.values[d] as Float32Array);
    this.slots[d] = slots;
    this.values[d] = values;
  }

  /** Entries the lists of `indices` hold: the work {@link accumulate} would do. */
  sizeOf(indices: Int32Array): number {
    let size = 0;
    for (let j = 0; j < indices.length; j++) size += this.lengths[indices[j] as number] as number;
    return size;
  }

  /**
   * Adds `values[j]` times the stored value to `block[slot - start]` for the entries of the
   * list of `indices[j]` with a slot below `end`, dimensions in the order given (ascending,
   * like the column scan, so both perform the same float64 additions and yield bit-identical
   * scores). Lists are ascending by slot: `cursors[j]` resumes where the previous block stopped.
   */
  accumulate(indices: Int32Array, values: Float32Array, cursors: Int32Array, start: number, end: number, block: Float64Array): void {
    for (let j = 0; j < indices.length; j++) {
      const d = indices[j] as number;
      const q = values[j] as number;
      const slots = this.slots[d] as Int32Array;
      const stored = this.values[d] as Float32Array;
      const length = this.lengths[d] as number;
      let e = cursors[j] as number;
      for (; e < length; e++) {
        const at = (slots[e] as number) - start;
        if (at >= end - start) break;
        block[at] = (block[at] as number) + q * (stored[e] as number);
      }
      cursors[j] = e;
    }
  }

  /** Renumbers slots after a compaction: `slotAfter[old]` is the new slot, or -1 to drop the entry. */
  remap(slotAfter: Int32Array): void {
    this.size = 0;
    for (let d = 0; d < this.lengths.length; d++) {
      const slots = this.slots[d] as Int32Array;
      const values = this.values[d] as Float32Array;
      const length = this.lengths[d] as number;
      let kept = 0;
      for (let e = 0; e < length; e++) {
        const slot = slotAfter[slots[e] as number] as number;
        if (slot === -1) continue;
        slots[kept] = slot;
        values[kept++] = values[e] as number;
      }
      this.lengths[d] = kept;
      this.size += kept;
    }
  }
}

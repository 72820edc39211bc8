import { KnowledgePostings } from './knowledge-postings.js';
import type { Row } from './knowledge-row.js';

/** Above this share of non-zero coordinates, posting lists would cost more than the columns they index. */
const DENSE_SHARE = 0.5;
/** A posting entry (scattered add plus first-touch check) costs about this many column reads. */
const POSTING_COST = 3;
/** Removed slots kept before a compaction: at least this many, and more than live ones. */
const MIN_DEAD = 64;

/**
 * The entries of one namespace and kind. Vectors sit column-major (dimension d of every slot
 * contiguous, `capacity` apart), so that a query reads only the dimensions it has non-zero,
 * each as one sequential run. While the stored vectors are sparse, posting lists index them
 * too. Removal leaves a dead slot (`null`) and compaction reclaims them once they outnumber
 * the live ones: posting lists are never searched for an entry to drop.
 */
export class KnowledgePartition {
  /** By slot, ascending in order of (latest) upsert; `null` is a removed entry. */
  readonly rows: (Row | null)[] = [];
  live = 0;
  vectors: Float32Array;
  capacity = 64;
  /** Null once the vectors proved dense (model embeddings): then every query scans columns. */
  postings: KnowledgePostings | null;

  constructor(readonly dimensions: number) {
    this.vectors = new Float32Array(dimensions * this.capacity);
    this.postings = new KnowledgePostings(dimensions);
  }

  add(row: Row, vector: number[]): void {
    if (this.rows.length === this.capacity) this.grow(this.capacity * 2);
    row.slot = this.rows.length;
    this.rows.push(row);
    this.live++;
    this.write(row.slot, vector);
  }

  /** Leaves a dead slot; the caller drops the partition when no live entry is left. */
  remove(row: Row): void {
    this.rows[row.slot] = null;
    this.live--;
    const dead = this.rows.length - this.live;
    if (dead >= MIN_DEAD && dead > this.live) this.compact();
  }

  /** Whether posting lists do less work than the column scan for a query with these non-zero dimensions. */
  prefersPostings(indices: Int32Array): boolean {
    return this.postings !== null && this.postings.sizeOf(indices) * POSTING_COST < this.rows.length * indices.length;
  }

  /** Stores the vector divided by its norm once, so a query is a plain dot product. */
  private write(slot: number, vector: number[]): void {
    let sum = 0;
    for (const value of vector) sum += value * value;
    const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    const { vectors, capacity, postings } = this;
    for (let d = 0; d < this.dimensions; d++) {
      const value = Math.fround((vector[d] ?? 0) * scale);
      vectors[d * capacity + slot] = value;
      if (value !== 0) postings?.push(d, slot, value);
    }
    if (postings !== null && postings.size > DENSE_SHARE * this.rows.length * this.dimensions) this.postings = null;
  }

  private grow(capacity: number): void {
    const grown = new Float32Array(this.dimensions * capacity);
    for (let d = 0; d < this.dimensions; d++) {
      grown.set(this.vectors.subarray(d * this.capacity, d * this.capacity + this.rows.length), d * capacity);
    }
    this.vectors = grown;
    this.capacity = capacity;
  }

  /** Moves live slots down, keeping their order (posting lists stay ascending), and renumbers the posting lists. */
  private compact(): void {
    const { rows, vectors, capacity } = this;
    const slotAfter = new Int32Array(rows.length);
    let next = 0;
    for (let slot = 0; slot < rows.length; slot++) {
      const row = rows[slot] as Row | null;
      if (row === null) {
        slotAfter[slot] = -1;
        continue;
      }
      slotAfter[slot] = next;
      row.slot = next;
      rows[next++] = row;
    }
    for (let d = 0; d < this.dimensions; d++) {
      const base = d * capacity;
      for (let slot = 0; slot < rows.length; slot++) {
        const to = slotAfter[slot] as number;
        if (to !== -1 && to !== slot) vectors[base + to] = vectors[base + slot] as number;
      }
    }
    rows.length = next;
    this.postings?.remap(slotAfter);
  }
}

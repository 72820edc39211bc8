import { siftDown, siftUp } from './score-heap.js';

/**
 * Up to `k` accepted documents of a term-at-a-time search, kept to answer in O(1) whether `k`
 * of them already score above a bound. Scores only grow as terms are added: the scores kept
 * here may lag behind the accumulator (a kept document is not updated on every term) but
 * never exceed it, so a yes is always true. {@link refresh} reads the kept documents' current
 * scores, which costs O(k), not O(documents touched).
 *
 * `held` marks kept documents by number; it belongs to the index (sized with its documents)
 * and is left all zero by {@link release}.
 */
export class ScoreFloor {
  readonly nums: Int32Array;
  readonly scores: Float64Array;
  private size = 0;

  constructor(
    private readonly k: number,
    private readonly held: Uint8Array,
  ) {
    this.nums = new Int32Array(k);
    this.scores = new Float64Array(k);
  }

  /** Whether a document not kept, scoring this much, would be kept (cheap check before its filter). */
  wouldTake(num: number, score: number): boolean {
    if (this.held[num] !== 0) return false;
    return this.size < this.k || score > (this.scores[0] as number);
  }

  /** Keeps the document in place of the lowest kept one (when full); call after {@link wouldTake}. */
  take(num: number, score: number): void {
    if (this.size < this.k) {
      this.nums[this.size] = num;
      this.scores[this.size] = score;
      this.held[num] = 1;
      this.siftUp(this.size++);
      return;
    }
    this.held[this.nums[0] as number] = 0;
    this.nums[0] = num;
    this.scores[0] = score;
    this.held[num] = 1;
    this.siftDown(0);
  }

  /** Reads the kept documents' current scores from the accumulator. */
  refresh(accumulated: Float64Array): void {
    for (let i = 0; i < this.size; i++) this.scores[i] = accumulated[this.nums[i] as number] as number;
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** Whether `k` kept documents score more than `bound` (as of the last {@link refresh}). */
  isAbove(bound: number): boolean {
    return this.size >= this.k && (this.scores[0] as number) > bound;
  }

  /** Unmarks the kept documents. */
  release(): void {
    for (let i = 0; i < this.size; i++) this.held[this.nums[i] as number] = 0;
    this.size = 0;
  }

  private readonly lower = (i: number, j: number): boolean => (this.scores[i] as number) < (this.scores[j] as number);

  private siftUp(index: number): void {
    siftUp(this, index, this.lower);
  }

  private siftDown(index: number): void {
    siftDown(this, index, this.size, this.lower);
  }
}

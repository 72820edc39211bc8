import { siftDown, siftUp } from './score-heap.js';

/**
 * The `k` best documents by score, ties by document number (the one indexed first wins), in a
 * min-heap whose root is the worst kept one: selecting from n candidates costs O(n log k).
 * A search that visits documents in increasing number can then reject a later document that
 * only ties the worst kept one, which is what lets it prune a corpus of many equal scores.
 */
export class TopDocs {
  readonly nums: Int32Array;
  readonly scores: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.nums = new Int32Array(k);
    this.scores = new Float64Array(k);
  }

  /** How many documents it keeps at most. */
  get capacity(): number {
    return this.k;
  }

  /** Whether `k` documents are kept: from then on, only one scoring above the worst kept can enter. */
  get isFull(): boolean {
    return this.size >= this.k;
  }

  /** The worst kept score (meaningful once {@link isFull}). */
  get worstScore(): number {
    return this.scores[0] as number;
  }

  /** Whether a document with this score could enter (cheap pre-check before a filter). */
  wouldKeep(num: number, score: number): boolean {
    if (this.size < this.k) return this.k > 0;
    return this.below(this.nums[0] as number, this.scores[0] as number, num, score);
  }

  offer(num: number, score: number): void {
    if (!this.wouldKeep(num, score)) return;
    if (this.size < this.k) {
      this.nums[this.size] = num;
      this.scores[this.size] = score;
      this.siftUp(this.size++);
    } else {
      this.nums[0] = num;
      this.scores[0] = score;
      this.siftDown(0);
    }
  }

  /** The kept documents, best first. */
  sorted(): { num: number; score: number }[] {
    const out = Array.from({ length: this.size }, (_, i) => ({ num: this.nums[i] as number, score: this.scores[i] as number }));
    return out.sort((a, b) => (this.below(a.num, a.score, b.num, b.score) ? 1 : this.below(b.num, b.score, a.num, a.score) ? -1 : 0));
  }

  /** Whether document a ranks below document b: lower score, or the same score and a later number. */
  private below(aNum: number, aScore: number, bNum: number, bScore: number): boolean {
    return aScore < bScore || (aScore === bScore && aNum > bNum);
  }

  private readonly belowAt = (i: number, j: number): boolean => this.below(this.nums[i] as number, this.scores[i] as number, this.nums[j] as number, this.scores[j] as number);

  private siftUp(index: number): void {
    siftUp(this, index, this.belowAt);
  }

  private siftDown(index: number): void {
    siftDown(this, index, this.size, this.belowAt);
  }
}

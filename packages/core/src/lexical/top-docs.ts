/**
 * The `k` best documents by score, ties by id (smaller first), in a min-heap whose root is
 * the worst kept one: selecting from n candidates costs O(n log k), and ids are compared
 * only when two scores are equal.
 */
export class TopDocs {
  private readonly nums: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(
    private readonly k: number,
    private readonly idOf: (num: number) => string,
  ) {
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

  /** Whether document a ranks below document b: lower score, or the same score and a later id. */
  private below(aNum: number, aScore: number, bNum: number, bScore: number): boolean {
    return aScore < bScore || (aScore === bScore && this.idOf(aNum) > this.idOf(bNum));
  }

  private belowAt(i: number, j: number): boolean {
    return this.below(this.nums[i] as number, this.scores[i] as number, this.nums[j] as number, this.scores[j] as number);
  }

  private swap(i: number, j: number): void {
    const num = this.nums[i] as number;
    const score = this.scores[i] as number;
    this.nums[i] = this.nums[j] as number;
    this.scores[i] = this.scores[j] as number;
    this.nums[j] = num;
    this.scores[j] = score;
  }

  private siftUp(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.belowAt(child, parent)) return;
      this.swap(child, parent);
      child = parent;
    }
  }

  private siftDown(index: number): void {
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let worst = parent;
      if (left < this.size && this.belowAt(left, worst)) worst = left;
      if (right < this.size && this.belowAt(right, worst)) worst = right;
      if (worst === parent) return;
      this.swap(worst, parent);
      parent = worst;
    }
  }
}

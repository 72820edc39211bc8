/**
 * The documents holding one term: document numbers in increasing order (the index hands
 * them out in increasing order, so appending keeps the list sorted) and term frequencies,
 * in typed arrays, so a scan is a tight loop over plain numbers. A removed document stays
 * until half the list is dead, then the list is compacted.
 */
export class PostingList {
  nums: Int32Array = new Int32Array(4);
  tfs: Float32Array = new Float32Array(4);
  /** Entries in use, dead ones included. */
  size = 0;
  /** Entries whose document was removed. */
  dead = 0;
  /** Largest tf ever added: an upper bound of every live entry's tf. */
  maxTf = 0;

  /** A list over these sorted entries (taken over, not copied; a later push copies them). */
  static of(nums: Int32Array, tfs: Float32Array, maxTf?: number): PostingList {
    const list = new PostingList();
    list.nums = nums;
    list.tfs = tfs;
    list.size = nums.length;
    if (maxTf !== undefined) list.maxTf = maxTf;
    else for (let i = 0; i < tfs.length; i++) if ((tfs[i] as number) > list.maxTf) list.maxTf = tfs[i] as number;
    return list;
  }

  /** Documents holding the term. */
  get live(): number {
    return this.size - this.dead;
  }

  push(num: number, tf: number): void {
    if (this.size === this.nums.length) this.grow(this.size * 2);
    this.nums[this.size] = num;
    this.tfs[this.size] = tf;
    this.size++;
    if (tf > this.maxTf) this.maxTf = tf;
  }

  /** Counts one entry as dead; drops the dead entries once they are half the list. */
  markDead(isLive: (num: number) => boolean): void {
    this.dead++;
    if (this.dead * 2 > this.size) this.compact(isLive);
  }

  /** The position of `num`, or -1 (binary search: the list is sorted). */
  find(num: number): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const at = this.nums[mid] as number;
      if (at === num) return mid;
      if (at < num) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  private compact(isLive: (num: number) => boolean): void {
    let kept = 0;
    for (let i = 0; i < this.size; i++) {
      const num = this.nums[i] as number;
      if (!isLive(num)) continue;
      this.nums[kept] = num;
      this.tfs[kept] = this.tfs[i] as number;
      kept++;
    }
    this.size = kept;
    this.dead = 0;
  }

  private grow(capacity: number): void {
    const nums = new Int32Array(capacity);
    nums.set(this.nums);
    const tfs = new Float32Array(capacity);
    tfs.set(this.tfs);
    this.nums = nums;
    this.tfs = tfs;
  }
}

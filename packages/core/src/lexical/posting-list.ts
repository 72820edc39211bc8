/** Entries per block of a posting list's block maxima. */
export const BLOCK_SIZE = 64;

/**
 * The documents holding one term: document numbers in increasing order (the index hands
 * them out in increasing order, so appending keeps the list sorted) and term frequencies,
 * in typed arrays, so a scan is a tight loop over plain numbers. A removed document stays
 * until half the list is dead, then the list is compacted.
 *
 * For each block of {@link BLOCK_SIZE} entries the list knows the largest tf and the
 * shortest document, so a search can bound what any document of a block can score and skip
 * the block whole (block-max). Dead entries count in them: a bound may be loose, never low.
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
  /** By block: the largest tf and the shortest document length among its entries. */
  blockMaxTf: Float32Array = new Float32Array(0);
  blockMinLength: Float32Array = new Float32Array(0);
  /** Entries the block maxima cover: those pushed since are added by {@link updateBlocks}. */
  private blocked = 0;
  /** Shortest document length among the entries the block maxima cover. */
  minLength = Infinity;

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

  /**
   * Brings the block maxima up to the list's entries (O(entries added since the last call),
   * or the whole list after a compaction). `lengths` holds each document number's length.
   */
  updateBlocks(lengths: Float64Array): void {
    if (this.blocked === this.size) return;
    const blocks = Math.ceil(this.size / BLOCK_SIZE);
    if (this.blockMaxTf.length < blocks) {
      const capacity = Math.max(blocks, this.blockMaxTf.length * 2);
      this.blockMaxTf = withCapacity(this.blockMaxTf, capacity);
      this.blockMinLength = withCapacity(this.blockMinLength, capacity);
    }
    for (let b = Math.floor(this.blocked / BLOCK_SIZE); b < blocks; b++) {
      let maxTf = 0;
      let minLength = Infinity;
      const end = Math.min(this.size, (b + 1) * BLOCK_SIZE);
      for (let i = b * BLOCK_SIZE; i < end; i++) {
        const tf = this.tfs[i] as number;
        const length = lengths[this.nums[i] as number] as number;
        if (tf > maxTf) maxTf = tf;
        if (length < minLength) minLength = length;
      }
      this.blockMaxTf[b] = maxTf;
      this.blockMinLength[b] = minLength;
      if (minLength < this.minLength) this.minLength = minLength;
    }
    this.blocked = this.size;
  }

  /** The first position at or after `from` whose document number is >= `num` (galloping, then binary search). */
  seek(from: number, num: number): number {
    const { nums, size } = this;
    if (from >= size || (nums[from] as number) >= num) return from;
    let step = 1;
    let low = from;
    let high = from + 1;
    while (high < size && (nums[high] as number) < num) {
      low = high;
      step *= 2;
      high = low + step;
    }
    if (high > size) high = size;
    // nums[low] < num; the answer is in (low, high]
    while (low + 1 < high) {
      const mid = (low + high) >> 1;
      if ((nums[mid] as number) < num) low = mid;
      else high = mid;
    }
    return high;
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
    this.blocked = 0;
    this.minLength = Infinity;
  }

  private grow(capacity: number): void {
    this.nums = withCapacity(this.nums, capacity);
    this.tfs = withCapacity(this.tfs, capacity);
  }
}

/** A larger array of the same type holding `array`'s values first. */
function withCapacity<T extends Int32Array | Float32Array>(array: T, capacity: number): T {
  const grown = new (array.constructor as new (length: number) => T)(capacity);
  grown.set(array);
  return grown;
}

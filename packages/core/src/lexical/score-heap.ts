/**
 * Binary min-heap steps over parallel arrays of document numbers and scores, shared by
 * {@link TopDocs} and {@link ScoreFloor}: `below(i, j)` says whether entry i ranks below entry
 * j (the root is the lowest), `size` how many entries are in use.
 */
export interface ScoreHeap {
  readonly nums: Int32Array;
  readonly scores: Float64Array;
}

export function swapEntries(heap: ScoreHeap, i: number, j: number): void {
  const num = heap.nums[i] as number;
  const score = heap.scores[i] as number;
  heap.nums[i] = heap.nums[j] as number;
  heap.scores[i] = heap.scores[j] as number;
  heap.nums[j] = num;
  heap.scores[j] = score;
}

export function siftUp(heap: ScoreHeap, index: number, below: (i: number, j: number) => boolean): void {
  let child = index;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (!below(child, parent)) return;
    swapEntries(heap, child, parent);
    child = parent;
  }
}

export function siftDown(heap: ScoreHeap, index: number, size: number, below: (i: number, j: number) => boolean): void {
  let parent = index;
  for (;;) {
    const left = 2 * parent + 1;
    const right = left + 1;
    let lowest = parent;
    if (left < size && below(left, lowest)) lowest = left;
    if (right < size && below(right, lowest)) lowest = right;
    if (lowest === parent) return;
    swapEntries(heap, lowest, parent);
    parent = lowest;
  }
}

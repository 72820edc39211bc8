import { setImmediate as nextMacrotask } from 'node:timers/promises';

/**
 * `map` over `items` a slice of `size` at a time, yielding the event loop between slices, so
 * that work on thousands of items (counting a large append's tokens) does not hold it at once.
 * Up to `size` items are mapped without yielding. Results keep the items' order.
 */
export async function mapInSlices<T, R>(items: readonly T[], size: number, map: (slice: readonly T[]) => R[]): Promise<R[]> {
  // one slice (a chat turn's append): mapped as it is, no copy
  if (items.length <= size) return map(items);
  const out: R[] = [];
  for (let from = 0; from < items.length; from += size) {
    if (from > 0) await nextMacrotask();
    out.push(...map(items.slice(from, from + size)));
  }
  return out;
}

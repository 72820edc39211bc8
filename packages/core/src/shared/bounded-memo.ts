/**
 * `compute` with its results kept for the last `limit` distinct keys (the oldest key is
 * evicted first): for pure functions called again and again on a small working set, such as
 * token counts of the lines of a context, word stems, formatted days.
 */
export function boundedMemo<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    const known = kept.get(key);
    if (known !== undefined || kept.has(key)) return known as V;
    const value = compute(key);
    if (kept.size >= limit) kept.delete(kept.keys().next().value as K);
    kept.set(key, value);
    return value;
  };
}

import type { ListNamespacesOperation, MatchCondition } from '@langchain/langgraph';

/**
 * The answer to a `listNamespaces` operation over the namespaces that hold items, as
 * InMemoryStore computes it: every match condition holds (`*` matches any one label), then
 * each is cut to `maxDepth` labels and duplicates merged, sorted by their `:`-joined text
 * (localeCompare), and the page `offset`..`offset + limit` returned.
 */
export function matchNamespaces(namespaces: readonly (readonly string[])[], op: ListNamespacesOperation): string[][] {
  let found = namespaces.filter((ns) => (op.matchConditions ?? []).every((condition) => matchesCondition(condition, ns))).map((ns) => [...ns]);
  if (op.maxDepth !== undefined) {
    const cut = new Map(found.map((ns) => ns.slice(0, op.maxDepth)).map((ns) => [JSON.stringify(ns), ns]));
    found = [...cut.values()];
  }
  found.sort((a, b) => a.join(':').localeCompare(b.join(':')));
  const offset = op.offset ?? 0;
  return found.slice(offset, offset + (op.limit ?? found.length));
}

function matchesCondition({ matchType, path }: MatchCondition, ns: readonly string[]): boolean {
  if (path.length > ns.length) return false;
  const start = matchType === 'prefix' ? 0 : ns.length - path.length;
  return path.every((label, i) => label === '*' || ns[start + i] === label);
}

/** Whether `ns` lies under `prefix` (whole labels; the empty prefix holds everything). */
export function isUnder(ns: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= ns.length && prefix.every((label, i) => ns[i] === label);
}

import type { KnowledgeEntry, KnowledgeFilter, KnowledgeKind } from '../../ports/knowledge-base.js';

/** An entry's metadata; its unit vector lives in its partition at `slot`. */
export interface Row {
  id: string;
  namespace: string;
  kind: KnowledgeKind;
  /** The kind as a bit, so that a kinds filter is one AND per row. */
  kindBit: number;
  sessionId: string | null;
  current: boolean;
  createdAt: number;
  slot: number;
}

/** A filter resolved once per call into plain fields: checking a row allocates nothing. */
export interface RowFilter {
  namespace: string | undefined;
  kindMask: number;
  sessionId: string | undefined;
  currentOnly: boolean;
}

export const KIND_BITS: Readonly<Record<string, number>> = { turn: 1, summary: 2, fact: 4 };

/** One literal with a fixed field order: all rows share one hidden class, so the scan stays monomorphic. */
export function rowOf(entry: KnowledgeEntry): Row {
  return {
    id: entry.id,
    namespace: entry.namespace,
    kind: entry.kind,
    kindBit: KIND_BITS[entry.kind] ?? 0,
    sessionId: entry.sessionId,
    current: entry.current,
    createdAt: entry.createdAt,
    slot: -1,
  };
}

/** `kinds: []` matches nothing, like SQL's `IN ()`. */
export function toRowFilter(filter: KnowledgeFilter): RowFilter {
  const { namespace, kinds, sessionId, currentOnly } = filter;
  const kindMask = kinds === undefined ? 7 : kinds.reduce((mask, kind) => mask | (KIND_BITS[kind] ?? 0), 0);
  return { namespace, kindMask, sessionId, currentOnly: currentOnly === true };
}

// A plain function rather than a per-query closure: V8 inlines it into the scan loop.
export function isMatch(row: Row, filter: RowFilter): boolean {
  return (
    (filter.namespace === undefined || row.namespace === filter.namespace) &&
    (row.kindBit & filter.kindMask) !== 0 &&
    (filter.sessionId === undefined || row.sessionId === filter.sessionId) &&
    (!filter.currentOnly || row.current)
  );
}

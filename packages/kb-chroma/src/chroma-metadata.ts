import type { KnowledgeEntry, KnowledgeFilter, KnowledgeKind } from '@strata/core';
import { StrataError } from '@strata/core';

/** One entry's metadata as stored in Chroma: every key on every record (see {@link toMetadata}). */
export interface EntryMetadata {
  namespace: string;
  kind: KnowledgeKind;
  sessionId: string;
  current: boolean;
  createdAt: number;
  [key: string]: string | number | boolean;
}

/** A Chroma `where` clause, as far as strata builds them. */
export type WhereClause = { [key: string]: string | boolean | { $in: string[] } } | { $and: WhereClause[] };

/**
 * Chroma metadata cannot hold null, and a filter on `sessionId` must not match entries that
 * have none, so null is stored as this sentinel: no real session id contains a NUL character.
 */
export const NO_SESSION = '\u0000';

const KINDS: ReadonlySet<string> = new Set<KnowledgeKind>(['turn', 'summary', 'fact']);

/**
 * Every key, always: Chroma's upsert merges metadata into an existing record's, so a key left
 * out would keep its old value (an entry moving to `sessionId: null` would keep its session).
 */
export function toMetadata(entry: KnowledgeEntry): EntryMetadata {
  return {
    namespace: entry.namespace,
    kind: entry.kind,
    sessionId: entry.sessionId ?? NO_SESSION,
    current: entry.current,
    createdAt: entry.createdAt,
  };
}

/** The parts of a match that come from metadata; anything strata did not write is refused. */
export function matchFieldsOf(id: string, metadata: unknown): { kind: KnowledgeKind; sessionId: string | null } {
  const record = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
  const { kind, sessionId } = record;
  if (typeof kind !== 'string' || !KINDS.has(kind) || typeof sessionId !== 'string') {
    throw new StrataError('INTERNAL', `Chroma record "${id}" has no strata metadata (got ${JSON.stringify(metadata)}).`, {
      hint: 'The collection holds records written by something other than strata; point the knowledge base at its own collection.',
    });
  }
  return { kind: kind as KnowledgeKind, sessionId: sessionId === NO_SESSION ? null : sessionId };
}

/** Matches nothing: `kinds: []`, which Chroma cannot express (it refuses an empty `$in`). */
export const MATCHES_NOTHING = Symbol('matches nothing');

/**
 * The `where` of a filter: `undefined` matches everything (no namespace spans all namespaces).
 * Chroma refuses an `$and` of one clause, so a single clause goes alone.
 */
export function whereOf(filter: KnowledgeFilter): WhereClause | undefined | typeof MATCHES_NOTHING {
  const clauses: WhereClause[] = [];
  if (filter.namespace !== undefined) clauses.push({ namespace: filter.namespace });
  if (filter.kinds !== undefined) {
    if (filter.kinds.length === 0) return MATCHES_NOTHING;
    clauses.push({ kind: { $in: [...new Set(filter.kinds)] } });
  }
  if (filter.sessionId !== undefined) clauses.push({ sessionId: filter.sessionId });
  if (filter.currentOnly === true) clauses.push({ current: true });
  if (clauses.length <= 1) return clauses[0];
  return { $and: clauses };
}

import type { KnowledgeEntry, KnowledgeFilter, KnowledgeKind } from '@strata/core';

/** A row of the `knowledge` table as better-sqlite3 returns it (the namespace is the query's). */
export interface KnowledgeRow {
  id: string;
  kind: string;
  session_id: string | null;
  current: number;
  created_at: number;
  vector: Buffer;
}

/** Parameters of the upsert statement, in column order: id, namespace, kind, session_id, current, created_at, vector. */
export type KnowledgeRowValues = [string, string, string, string | null, number, number, Buffer];

/** A WHERE clause and its parameters; an empty filter selects every row. */
export interface WhereClause {
  sql: string;
  params: (string | number)[];
}

/** float32 in host byte order (little-endian wherever Node runs), 4 bytes per dimension. */
export function toBlob(vector: number[]): Buffer {
  const floats = new Float32Array(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}

/** The inverse of {@link toBlob}, as the plain array the KnowledgeBase port carries. */
export function fromBlob(blob: Buffer): number[] {
  // A view needs 4-byte alignment; better-sqlite3 gives each blob its own buffer, but copy if not.
  const bytes = blob.byteOffset % 4 === 0 ? blob : Buffer.from(blob);
  return toNumbers(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
}

/** A plain loop: about 3x faster than Array.from on a typed array, which matters when loading 100k vectors. */
function toNumbers(floats: Float32Array): number[] {
  const numbers: number[] = [];
  for (let i = 0; i < floats.length; i++) numbers.push(floats[i] as number);
  return numbers;
}

/**
 * The entry with its vector rounded to float32, as a reload from the file would give it: a
 * query answers the same before and after the cache is rebuilt.
 */
export function roundedEntry(entry: KnowledgeEntry): KnowledgeEntry {
  return { ...entry, vector: toNumbers(new Float32Array(entry.vector)) };
}

/** The upsert statement's parameters for an entry. */
export function valuesOf(entry: KnowledgeEntry): KnowledgeRowValues {
  const { id, namespace, kind, sessionId, current, createdAt, vector } = entry;
  return [id, namespace, kind, sessionId, current ? 1 : 0, createdAt, toBlob(vector)];
}

/** The entry a row stores; the namespace is the one the rows were selected by. */
export function entryOf(row: KnowledgeRow, namespace: string): KnowledgeEntry {
  return {
    id: row.id,
    namespace,
    // Every row was validated on its way in.
    kind: row.kind as KnowledgeKind,
    sessionId: row.session_id,
    vector: fromBlob(row.vector),
    current: row.current === 1,
    createdAt: row.created_at,
  };
}

/** The same filter semantics as the in-memory KB: `kinds: []` matches nothing (`IN ()` is valid SQLite). */
export function whereClause(filter: KnowledgeFilter): WhereClause {
  const conditions: string[] = [];
  const params: (string | number)[] = [];
  if (filter.namespace !== undefined) {
    conditions.push('namespace = ?');
    params.push(filter.namespace);
  }
  if (filter.kinds !== undefined) {
    const kinds = [...new Set(filter.kinds)];
    conditions.push(`kind IN (${kinds.map(() => '?').join(', ')})`);
    params.push(...kinds);
  }
  if (filter.sessionId !== undefined) {
    conditions.push('session_id = ?');
    params.push(filter.sessionId);
  }
  if (filter.currentOnly === true) conditions.push('current = 1');
  return { sql: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, params };
}

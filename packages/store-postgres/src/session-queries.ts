import type { Fact, FactFilter, JobFilter, JobRecord, MessageFilter, Session, SessionFilter, StoredMessage, Summary, SummaryFilter } from '@strata/core';
import type { Queryable } from './database.js';
import { Conditions, countOf } from './sql-conditions.js';
import { storedText, toFact, toJob, toMessage, toSession, toSummary } from './rows.js';
import type { FactRow, JobRow, MessageRow, SessionRow, SummaryRow } from './rows.js';

/*
 * The read side: filters and orderings exactly as the SessionStore port documents them (and
 * the in-memory store implements them). Id lists are bound as one text[] parameter, so a
 * statement's SQL depends only on which filters are set.
 */

const SESSION_COLUMNS = 'id, namespace, title, metadata, created_at, updated_at, last_seq';
const MESSAGE_COLUMNS = 'id, session_id, namespace, seq, role, content, name, tool_calls, tool_call_id, metadata, created_at, content_z, tokens, token_counter';
const SUMMARY_COLUMNS = 's.id, s.session_id, s.namespace, s.level, s.from_seq, s.to_seq, s.text, s.created_at, s.degraded';
const FACT_COLUMNS = 'f.id, f.namespace, f.subject, f.predicate, f.object, f.text, f.valid_from, f.valid_to, f.superseded_by, f.confidence, f.created_at, f.degraded';

/** `sourceMessageIds` of each row, in their stored order, from the provenance table. */
const sourcesOf = (kind: 'summary' | 'fact', alias: string): string =>
  `ARRAY(SELECT p.message_id FROM provenance p WHERE p.item_kind = '${kind}' AND p.item_id = ${alias}.id ORDER BY p.position) AS source_ids`;

export async function selectSessions(db: Queryable, filter: SessionFilter): Promise<Session[]> {
  const conditions = new Conditions().add('id = ANY(?::text[])', filter.ids).add('namespace = ?', filter.namespace).add('updated_at < ?', filter.updatedBefore);
  const limit = countOf(filter.limit);
  const sql = `SELECT ${SESSION_COLUMNS} FROM sessions${conditions.where()} ORDER BY updated_at DESC, id${limit === undefined ? '' : ` LIMIT ${conditions.next(limit)}`}`;
  return (await db.query<SessionRow>(sql, conditions.params)).map(toSession);
}

/**
 * With `last`, reads the newest N backwards through the (session_id, seq) index, not the whole
 * session. With `seqRanges`, the rows come from one index range scan per range, whatever the
 * planner's statistics say (a semi-join form was planned as two scans of the whole table on a
 * freshly imported schema: 38 ms against 0.4 ms over 100k turns).
 */
export async function selectMessages(db: Queryable, filter: MessageFilter): Promise<StoredMessage[]> {
  const conditions = new Conditions();
  const source = filter.seqRanges === undefined ? 'messages' : rangeScans(conditions.next(JSON.stringify(mergedRanges(filter.seqRanges))));
  conditions.add('session_id = ?', filter.sessionId).add('id = ANY(?::text[])', filter.ids).add('namespace = ?', filter.namespace).add('seq >= ?', filter.fromSeq).add('seq <= ?', filter.toSeq);
  const base = `SELECT ${MESSAGE_COLUMNS} FROM ${source}${conditions.where()}`;
  return (await newestLast<MessageRow>(db, base, ['session_id', 'seq'], conditions, filter.last)).map(toMessage);
}

type SeqRange = NonNullable<MessageFilter['seqRanges']>[number];

/** The messages of the ranges in `param` (a JSON array of disjoint ranges), as a table named messages. */
function rangeScans(param: string): string {
  // OFFSET 0 keeps the lateral subquery a per-range index scan instead of being flattened into a join
  return `(SELECT m.* FROM jsonb_to_recordset(${param}::jsonb) AS r ("sessionId" text, "fromSeq" bigint, "toSeq" bigint)
    CROSS JOIN LATERAL (SELECT * FROM messages x WHERE x.session_id = r."sessionId" AND x.seq BETWEEN r."fromSeq" AND r."toSeq" OFFSET 0) AS m) AS messages`;
}

/** Ranges merged where they overlap or touch in a session, so that no message is read twice. */
export function mergedRanges(ranges: readonly SeqRange[]): SeqRange[] {
  const sorted = ranges
    .filter((r) => r.fromSeq <= r.toSeq)
    .map((r) => ({ sessionId: r.sessionId, fromSeq: r.fromSeq, toSeq: r.toSeq }))
    .sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : a.fromSeq - b.fromSeq));
  const merged: SeqRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last.sessionId === range.sessionId && range.fromSeq <= last.toSeq + 1) last.toSeq = Math.max(last.toSeq, range.toSeq);
    else merged.push(range);
  }
  return merged;
}

export async function selectSummaries(db: Queryable, filter: SummaryFilter): Promise<Summary[]> {
  const conditions = new Conditions()
    .add('s.session_id = ?', filter.sessionId)
    .add('s.id = ANY(?::text[])', filter.ids)
    .add('s.namespace = ?', filter.namespace)
    .add('s.level = ?', filter.level)
    .add('s.to_seq >= ?', filter.minToSeq)
    .add("s.id IN (SELECT p.item_id FROM provenance p WHERE p.message_id = ANY(?::text[]) AND p.item_kind = 'summary')", filter.sourceMessageIds);
  const sql = `SELECT ${SUMMARY_COLUMNS}, ${sourcesOf('summary', 's')} FROM summaries s${conditions.where()} ORDER BY s.session_id, s.from_seq, s.to_seq, s.id`;
  return (await db.query<SummaryRow>(sql, conditions.params)).map(toSummary);
}

/**
 * With `predicateKinds` in a namespace, the rows come from one scan of the (namespace, kind,
 * valid_to) index per kind, whatever the planner's statistics say: as one filter, it was
 * planned as a scan of every current fact of the namespace (observations by the thousand)
 * that kept the few profile facts (1.3 ms over 8k facts, growing with the namespace).
 */
export async function selectFacts(db: Queryable, filter: FactFilter): Promise<Fact[]> {
  const current = filter.includeSuperseded !== true;
  const conditions = new Conditions();
  // one subject's facts are few: its (namespace, subject) index prefix finds them, the kinds filter them
  const byKind = filter.predicateKinds !== undefined && filter.namespace !== undefined && filter.subject === undefined;
  const source = byKind ? kindScans(conditions.next(filter.predicateKinds), conditions.next(filter.namespace), current) : 'facts f';
  conditions
    .add('f.id = ANY(?::text[])', filter.ids)
    .add('f.namespace = ?', filter.namespace)
    .add('f.subject = ?', filter.subject === undefined ? undefined : storedText(filter.subject))
    .add('f.predicate = ?', filter.predicate === undefined ? undefined : storedText(filter.predicate))
    .add("split_part(f.predicate, ':', 1) = ANY(?::text[])", byKind ? undefined : filter.predicateKinds)
    .add("f.id IN (SELECT p.item_id FROM provenance p WHERE p.message_id = ANY(?::text[]) AND p.item_kind = 'fact')", filter.sourceMessageIds);
  if (current) conditions.addClause('f.valid_to IS NULL');
  const count = countOf(filter.last);
  const columns = `SELECT ${FACT_COLUMNS}, ${sourcesOf('fact', 'f')} FROM`;
  if (count === undefined) return (await db.query<FactRow>(`${columns} ${source}${conditions.where()} ORDER BY f.valid_from, f.id`, conditions.params)).map(toFact);
  // the newest N rows are chosen first, so provenance is read for those alone
  const newest = `SELECT f.* FROM ${source}${conditions.where()} ORDER BY f.valid_from DESC, f.id DESC LIMIT ${conditions.next(count)}`;
  return (await db.query<FactRow>(`${columns} (${newest}) AS f ORDER BY f.valid_from, f.id`, conditions.params)).map(toFact);
}

/** The facts of the kinds in `kinds` (a text[] parameter) in one namespace, as a table named f. */
function kindScans(kinds: string, namespace: string, current: boolean): string {
  // OFFSET 0 keeps the lateral subquery a per-kind index scan instead of being flattened into a join
  return `(SELECT x.* FROM (SELECT DISTINCT unnest(${kinds}::text[]) AS kind) AS k
    CROSS JOIN LATERAL (SELECT * FROM facts y WHERE y.namespace = ${namespace} AND split_part(y.predicate, ':', 1) = k.kind${current ? ' AND y.valid_to IS NULL' : ''} OFFSET 0) AS x) AS f`;
}

/** Messages per session, counted on the (session_id, seq) index; every id given is a key (0 when it has none). */
export async function countMessages(db: Queryable, sessionIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(sessionIds.map((id) => [id, 0]));
  if (sessionIds.length === 0) return counts;
  const rows = await db.query<{ id: string; n: string }>('SELECT session_id AS id, count(*) AS n FROM messages WHERE session_id = ANY($1::text[]) GROUP BY session_id', [[...new Set(sessionIds)]]);
  for (const row of rows) counts.set(row.id, Number(row.n));
  return counts;
}

export async function selectJobs(db: Queryable, filter: JobFilter): Promise<JobRecord[]> {
  const conditions = new Conditions().add('session_id = ?', filter.sessionId).add('type = ?', filter.type);
  const base = `SELECT key, type, session_id, from_seq, to_seq, applied_at, usage FROM jobs${conditions.where()}`;
  return (await newestLast<JobRow>(db, base, ['to_seq', 'key'], conditions, filter.last)).map(toJob);
}

/**
 * Rows of `base` in `order` (ascending columns); with `last`, only the final N of them, read
 * in descending order with a LIMIT and turned around, still oldest first.
 */
async function newestLast<R>(db: Queryable, base: string, order: readonly string[], conditions: Conditions, last: number | undefined): Promise<R[]> {
  const count = countOf(last);
  const ascending = order.join(', ');
  if (count === undefined) return db.query<R>(`${base} ORDER BY ${ascending}`, conditions.params);
  const descending = order.map((column) => `${column} DESC`).join(', ');
  return db.query<R>(`SELECT * FROM (${base} ORDER BY ${descending} LIMIT ${conditions.next(count)}) AS newest ORDER BY ${ascending}`, conditions.params);
}

import type { Fact, FactFilter, JobFilter, JobRecord, MessageFilter, Session, SessionFilter, StoredMessage, Summary, SummaryFilter } from '@strata/core';
import { predicateKindSql } from './migrations.js';
import { toFact, toJob, toMessage, toSession, toSummary } from './session-rows.js';
import type { FactRow, JobRow, MessageRow, SessionRow, SummaryRow, WithSources } from './session-rows.js';
import type { StatementCache } from './session-statement-cache.js';

/*
 * The read side: filters and orderings exactly as the SessionStore port documents them
 * (and the in-memory store implements them). Id lists are bound as one JSON array and
 * expanded with json_each, so a statement's SQL depends only on which filters are set.
 */

const SESSION_COLUMNS = 'id, namespace, title, metadata, created_at, updated_at, last_seq';
const MESSAGE_COLUMNS = 'id, session_id, namespace, seq, role, content, name, tool_calls, tool_call_id, metadata, created_at, content_z, tokens, token_counter';
const SUMMARY_COLUMNS = 's.id, s.session_id, s.namespace, s.level, s.from_seq, s.to_seq, s.text, s.created_at, s.degraded';
const FACT_COLUMNS = 'f.id, f.namespace, f.subject, f.predicate, f.object, f.text, f.valid_from, f.valid_to, f.superseded_by, f.confidence, f.created_at, f.degraded';
const IN_LIST = 'IN (SELECT value FROM json_each(?))';

/** Rows in any of the bound JSON array's seq ranges: each range is a seek on the (session_id, seq) index. */
const IN_SEQ_RANGES = `rowid IN (SELECT m.rowid FROM json_each(?) r JOIN messages m
  ON m.session_id = json_extract(r.value, '$.sessionId') AND m.seq BETWEEN json_extract(r.value, '$.fromSeq') AND json_extract(r.value, '$.toSeq'))`;

/** `sourceMessageIds` of each row, in their stored order, from the provenance table. */
const sourcesOf = (kind: 'summary' | 'fact', alias: string): string =>
  `(SELECT json_group_array(p.message_id ORDER BY p.position) FROM provenance p WHERE p.item_kind = '${kind}' AND p.item_id = ${alias}.id) AS source_ids`;

/** Items whose provenance names any of the bound message ids (via provenance_by_message). */
const derivedFrom = (kind: 'summary' | 'fact', alias: string): string => `${alias}.id IN (SELECT p.item_id FROM provenance p WHERE p.message_id ${IN_LIST} AND p.item_kind = '${kind}')`;

/** WHERE conditions and their parameters, added only for the filter fields that are set. */
class Conditions {
  readonly params: unknown[] = [];
  private readonly clauses: string[] = [];

  add(clause: string, value: unknown): this {
    if (value === undefined) return this;
    this.clauses.push(clause);
    this.params.push(Array.isArray(value) ? JSON.stringify(value) : value);
    return this;
  }

  /** A condition that takes no parameter. */
  addClause(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  where(): string {
    return this.clauses.length === 0 ? '' : ` WHERE ${this.clauses.join(' AND ')}`;
  }
}

export function selectSessions(cache: StatementCache, filter: SessionFilter): Session[] {
  const conditions = new Conditions().add(`id ${IN_LIST}`, filter.ids).add(byIds(filter.ids, 'namespace = ?'), filter.namespace).add('updated_at < ?', filter.updatedBefore);
  const limit = countOf(filter.limit);
  const sql = `SELECT ${SESSION_COLUMNS} FROM sessions${conditions.where()} ORDER BY updated_at DESC, id${limit === undefined ? '' : ' LIMIT ?'}`;
  const params = limit === undefined ? conditions.params : [...conditions.params, limit];
  return (cache.get(sql).all(...params) as SessionRow[]).map(toSession);
}

/** With `last`, reads the newest N backwards through the (session_id, seq) index, not the whole session. */
export function selectMessages(cache: StatementCache, filter: MessageFilter): StoredMessage[] {
  const conditions = new Conditions()
    .add('session_id = ?', filter.sessionId)
    .add(`id ${IN_LIST}`, filter.ids)
    .add('namespace = ?', filter.namespace)
    .add('seq >= ?', filter.fromSeq)
    .add('seq <= ?', filter.toSeq)
    .add(IN_SEQ_RANGES, filter.seqRanges);
  const base = `SELECT ${MESSAGE_COLUMNS} FROM messages${conditions.where()}`;
  const rows = newestLast(cache, base, 'session_id, seq', conditions.params, filter.last) as MessageRow[];
  return rows.map(toMessage);
}

export function selectSummaries(cache: StatementCache, filter: SummaryFilter): Summary[] {
  const conditions = new Conditions()
    .add('s.session_id = ?', filter.sessionId)
    .add(`s.id ${IN_LIST}`, filter.ids)
    .add(byIds(filter.ids, 's.namespace = ?'), filter.namespace)
    .add('s.level = ?', filter.level)
    .add('s.to_seq >= ?', filter.minToSeq)
    .add(derivedFrom('summary', 's'), filter.sourceMessageIds);
  const sql = `SELECT ${SUMMARY_COLUMNS}, ${sourcesOf('summary', 's')} FROM summaries s${conditions.where()}
    ORDER BY s.session_id, s.from_seq, s.to_seq, s.id`;
  return (cache.get(sql).all(...conditions.params) as WithSources<SummaryRow>[]).map(toSummary);
}

/**
 * With ids, the namespace term gets a unary `+` so the planner cannot use it for an index: it
 * chose the namespace index and walked every row of the namespace to find 20 ids (the cost
 * grew with the namespace), instead of looking the ids up by primary key.
 */
function byIds(ids: readonly string[] | undefined, clause: string): string {
  return ids === undefined ? clause : `+${clause}`;
}

export function selectFacts(cache: StatementCache, filter: FactFilter): Fact[] {
  const conditions = new Conditions()
    .add(`f.id ${IN_LIST}`, filter.ids)
    .add(byIds(filter.ids, 'f.namespace = ?'), filter.namespace)
    .add('f.subject = ?', filter.subject)
    .add('f.predicate = ?', filter.predicate)
    .add(`${predicateKindSql('f.predicate')} ${IN_LIST}`, filter.predicateKinds)
    .add(derivedFrom('fact', 'f'), filter.sourceMessageIds);
  if (filter.includeSuperseded !== true) conditions.addClause('f.valid_to IS NULL');
  // `+f.valid_from`: sorting the few rows of a slot is cheap, but letting the planner walk
  // facts_by_time for the order would make it scan the whole namespace instead of one slot.
  const count = countOf(filter.last);
  const columns = `SELECT ${FACT_COLUMNS}, ${sourcesOf('fact', 'f')} FROM facts f`;
  if (count === undefined) {
    const sql = `${columns}${conditions.where()} ORDER BY +f.valid_from, f.id`;
    return (cache.get(sql).all(...conditions.params) as WithSources<FactRow>[]).map(toFact);
  }
  // the newest N rows are chosen first, so provenance is read for those alone
  const newest = `SELECT f.rowid FROM facts f${conditions.where()} ORDER BY +f.valid_from DESC, f.id DESC LIMIT ?`;
  const sql = `${columns} WHERE f.rowid IN (${newest}) ORDER BY f.valid_from, f.id`;
  return (cache.get(sql).all(...conditions.params, count) as WithSources<FactRow>[]).map(toFact);
}

/** Messages per session, counted on the (session_id, seq) index; every id given is a key (0 when it has none). */
export function countMessages(cache: StatementCache, sessionIds: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>(sessionIds.map((id) => [id, 0]));
  if (sessionIds.length === 0) return counts;
  const rows = cache
    .get('SELECT session_id AS id, count(*) AS n FROM messages WHERE session_id IN (SELECT value FROM json_each(?)) GROUP BY session_id')
    .all(JSON.stringify([...new Set(sessionIds)])) as { id: string; n: number }[];
  for (const row of rows) counts.set(row.id, row.n);
  return counts;
}

export function selectJobs(cache: StatementCache, filter: JobFilter): JobRecord[] {
  const conditions = new Conditions().add('session_id = ?', filter.sessionId).add('type = ?', filter.type);
  const base = `SELECT key, type, session_id, from_seq, to_seq, applied_at, usage FROM jobs${conditions.where()}`;
  return (newestLast(cache, base, 'to_seq, key', conditions.params, filter.last) as JobRow[]).map(toJob);
}

/**
 * Rows of `base` in `order` (ascending columns); with `last`, only the final N of them, read
 * in descending order with a LIMIT and turned around, still oldest first.
 */
function newestLast(cache: StatementCache, base: string, order: string, params: unknown[], last: number | undefined): unknown[] {
  const count = countOf(last);
  if (count === undefined) return cache.get(`${base} ORDER BY ${order}`).all(...params);
  const descending = order
    .split(', ')
    .map((column) => `${column} DESC`)
    .join(', ');
  return cache.get(`SELECT * FROM (${base} ORDER BY ${descending} LIMIT ?) ORDER BY ${order}`).all(...params, count);
}

/** A LIMIT like `Array.slice` reads it: truncated, at least 0; none for an infinite one. */
function countOf(value: number | undefined): number | undefined {
  if (value === undefined || value === Infinity) return undefined;
  const count = Math.trunc(value);
  return Number.isNaN(count) || count < 0 ? 0 : count;
}

import type { Fact, JobRecord, Summary } from '../../domain/derived.js';
import type { StoredMessage } from '../../domain/message.js';
import type { Session } from '../../domain/session.js';
import type { FactFilter, JobFilter, MessageFilter, SessionFilter, SummaryFilter } from '../../ports/session-store.js';
import { isCurrentFact, lowerBound, type InMemoryTables } from './in-memory-tables.js';
import { predicateKind } from '../../lexical/fact-lexical-text.js';

/*
 * The read side of the in-memory store: filters and orderings exactly as the SessionStore
 * port documents them. Results are the stored rows themselves; the store copies them.
 * Ids compare by code unit (like SQLite's BINARY collation) so adapters order ties alike.
 */

export function selectSessions(tables: InMemoryTables, filter: SessionFilter): Session[] {
  const { namespace, updatedBefore } = filter;
  const rows = (filter.ids === undefined ? [...tables.sessions.values()] : lookup(tables.sessions, filter.ids))
    .filter((session) => namespace === undefined || session.namespace === namespace)
    .filter((session) => updatedBefore === undefined || session.updatedAt < updatedBefore)
    .sort((a, b) => b.updatedAt - a.updatedAt || compareIds(a.id, b.id));
  return filter.limit === undefined ? rows : rows.slice(0, Math.max(0, filter.limit));
}

export function selectMessages(tables: InMemoryTables, filter: MessageFilter): StoredMessage[] {
  const { namespace, fromSeq, toSeq } = filter;
  const ids = filter.ids === undefined ? undefined : new Set(filter.ids);
  const rows = messageCandidates(tables, filter)
    .filter((message) => ids === undefined || ids.has(message.id))
    .filter((message) => namespace === undefined || message.namespace === namespace)
    .filter((message) => (fromSeq === undefined || message.seq >= fromSeq) && (toSeq === undefined || message.seq <= toSeq))
    .sort((a, b) => compareIds(a.sessionId, b.sessionId) || a.seq - b.seq);
  return filter.last === undefined ? rows : takeLast(rows, filter.last);
}

/** Narrows the scan: a seq window of one session, a set of ids, or everything. */
function messageCandidates(tables: InMemoryTables, filter: MessageFilter): StoredMessage[] {
  if (filter.seqRanges !== undefined) {
    const found = new Map<string, StoredMessage>();
    for (const range of filter.seqRanges) {
      if (filter.sessionId !== undefined && range.sessionId !== filter.sessionId) continue;
      const list = tables.sessionMessages(range.sessionId);
      for (const m of list.slice(lowerBound(list, range.fromSeq), lowerBound(list, range.toSeq + 1))) found.set(m.id, m);
    }
    return [...found.values()];
  }
  if (filter.sessionId !== undefined) {
    const list = tables.sessionMessages(filter.sessionId);
    const start = filter.fromSeq === undefined ? 0 : lowerBound(list, filter.fromSeq);
    const end = filter.toSeq === undefined ? list.length : lowerBound(list, filter.toSeq + 1);
    // one session's rows are in seq order and share a namespace: `last` alone narrows them (ids may not)
    const from = filter.last !== undefined && filter.ids === undefined ? Math.max(start, end - Math.max(0, filter.last)) : start;
    return list.slice(from, end);
  }
  if (filter.ids !== undefined) return lookup(tables.messages, filter.ids);
  return [...tables.messages.values()];
}

export function selectSummaries(tables: InMemoryTables, filter: SummaryFilter): Summary[] {
  const { sessionId, namespace, level, minToSeq } = filter;
  const ids = filter.ids === undefined ? undefined : new Set(filter.ids);
  const sources = filter.sourceMessageIds === undefined ? undefined : new Set(filter.sourceMessageIds);
  let rows: Summary[];
  if (sessionId !== undefined && level !== undefined) rows = tables.sessionSummariesAtLevel(sessionId, level, minToSeq ?? -Infinity);
  else if (sessionId !== undefined) rows = tables.sessionSummaries(sessionId);
  else if (filter.ids !== undefined) rows = lookup(tables.summaries, filter.ids);
  else rows = [...tables.summaries.values()];
  return rows
    .filter((summary) => ids === undefined || ids.has(summary.id))
    .filter((summary) => namespace === undefined || summary.namespace === namespace)
    .filter((summary) => level === undefined || summary.level === level)
    .filter((summary) => minToSeq === undefined || summary.toSeq >= minToSeq)
    .filter((summary) => sources === undefined || summary.sourceMessageIds.some((id) => sources.has(id)))
    .sort((a, b) => compareIds(a.sessionId, b.sessionId) || a.fromSeq - b.fromSeq || a.toSeq - b.toSeq || compareIds(a.id, b.id));
}

export function selectFacts(tables: InMemoryTables, filter: FactFilter): Fact[] {
  const { namespace, subject, predicate } = filter;
  const ids = filter.ids === undefined ? undefined : new Set(filter.ids);
  const sources = filter.sourceMessageIds === undefined ? undefined : new Set(filter.sourceMessageIds);
  const kinds = filter.predicateKinds === undefined ? undefined : new Set(filter.predicateKinds);
  let candidates: Fact[];
  if (filter.ids !== undefined) candidates = lookup(tables.facts, filter.ids);
  else if (namespace !== undefined && subject !== undefined && predicate !== undefined) candidates = tables.slotFacts(namespace, subject, predicate);
  else if (namespace !== undefined && filter.predicateKinds !== undefined && filter.includeSuperseded !== true) candidates = tables.currentKindFacts(namespace, filter.predicateKinds);
  else if (namespace !== undefined) candidates = tables.namespaceFacts(namespace);
  else candidates = [...tables.facts.values()];
  const rows = candidates
    .filter((fact) => ids === undefined || ids.has(fact.id))
    .filter((fact) => namespace === undefined || fact.namespace === namespace)
    .filter((fact) => subject === undefined || fact.subject === subject)
    .filter((fact) => predicate === undefined || fact.predicate === predicate)
    .filter((fact) => kinds === undefined || kinds.has(predicateKind(fact.predicate)))
    .filter((fact) => sources === undefined || fact.sourceMessageIds.some((id) => sources.has(id)))
    .filter((fact) => filter.includeSuperseded === true || isCurrentFact(fact))
    .sort((a, b) => a.validFrom - b.validFrom || compareIds(a.id, b.id));
  return filter.last === undefined ? rows : takeLast(rows, filter.last);
}

export function selectJobs(tables: InMemoryTables, filter: JobFilter): JobRecord[] {
  const rows = tables
    .sessionJobs(filter.sessionId)
    .filter((job) => filter.type === undefined || job.type === filter.type)
    .sort((a, b) => a.toSeq - b.toSeq || compareIds(a.key, b.key));
  return filter.last === undefined ? rows : takeLast(rows, filter.last);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function takeLast<T>(rows: T[], count: number): T[] {
  return count <= 0 ? [] : rows.slice(-count);
}

/** Rows for the given ids, each at most once, unknown ids skipped. */
function lookup<T>(table: { get(key: string): T | undefined }, ids: readonly string[]): T[] {
  const rows: T[] = [];
  for (const id of new Set(ids)) {
    const row = table.get(id);
    if (row !== undefined) rows.push(row);
  }
  return rows;
}

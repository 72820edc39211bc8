import { StrataError } from '../../errors/strata-error.js';
import type { StoreOp } from '../../ports/session-store.js';
import type { Summary } from '../../domain/derived.js';
import { isCurrentFact, type InMemoryTables } from './in-memory-tables.js';

/**
 * The store's integrity rules, checked after a batch and before it commits: a fact slot
 * has at most one current fact; batch summaries of a session never overlap. Only what the
 * batch touched is checked. Throws CONFLICT (the caller's undo log then reverts the batch).
 */
export function assertIntegrity(tables: InMemoryTables, ops: readonly StoreOp[]): void {
  const slots = new Map<string, Map<string, { subject: string; predicate: string }>>();
  for (const op of ops) {
    if (op.type === 'putFacts') for (const fact of op.facts) addSlot(slots, fact.namespace, fact.subject, fact.predicate);
    if (op.type === 'putSummaries') for (const summary of op.summaries) if (summary.level === 'batch') assertNoOverlap(tables, summary);
  }
  for (const [namespace, touched] of slots) assertOneCurrent(tables, namespace, touched);
}

function addSlot(slots: Map<string, Map<string, { subject: string; predicate: string }>>, namespace: string, subject: string, predicate: string): void {
  let touched = slots.get(namespace);
  if (touched === undefined) {
    touched = new Map();
    slots.set(namespace, touched);
  }
  touched.set(`${subject}\u0000${predicate}`, { subject, predicate });
}

/** Each slot the batch touched, read through the slot index (an import touches thousands; a namespace holds many more). */
function assertOneCurrent(tables: InMemoryTables, namespace: string, touched: ReadonlyMap<string, { subject: string; predicate: string }>): void {
  for (const { subject, predicate } of touched.values()) {
    const ids = tables
      .slotFacts(namespace, subject, predicate)
      .filter(isCurrentFact)
      .map((f) => f.id);
    if (ids.length <= 1) continue;
    throw new StrataError('CONFLICT', `fact slot ${namespace} / ${subject} / ${predicate} would have ${ids.length} current facts (${ids.join(', ')})`, {
      hint: 'Another writer changed this slot meanwhile: re-read the slot and reconcile again (the job queue retries this).',
    });
  }
}

/** The written summary against the session's batch summaries that end at or after its start (the only ones it can overlap). */
function assertNoOverlap(tables: InMemoryTables, summary: Summary): void {
  for (const other of tables.sessionSummariesAtLevel(summary.sessionId, 'batch', summary.fromSeq)) {
    if (other.id === summary.id || other.fromSeq > summary.toSeq) continue;
    const [previous, next] = other.fromSeq <= summary.fromSeq ? [other, summary] : [summary, other];
    throw new StrataError('CONFLICT', `summaries ${previous.id} (${previous.fromSeq}-${previous.toSeq}) and ${next.id} (${next.fromSeq}-${next.toSeq}) of session ${summary.sessionId} would overlap`, {
      hint: 'Another writer summarized these turns meanwhile: re-read the session (the job queue retries this).',
    });
  }
}

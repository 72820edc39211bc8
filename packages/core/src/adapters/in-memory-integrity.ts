import { StrataError } from '../errors/strata-error.js';
import type { StoreOp } from '../ports/session-store.js';
import { selectFacts, selectSummaries } from './in-memory-queries.js';
import type { InMemoryTables } from './in-memory-tables.js';

/**
 * The store's integrity rules, checked after a batch and before it commits: a fact slot
 * has at most one current fact; batch summaries of a session never overlap. Only what the
 * batch touched is checked. Throws CONFLICT (the caller's undo log then reverts the batch).
 */
export function assertIntegrity(tables: InMemoryTables, ops: readonly StoreOp[]): void {
  for (const op of ops) {
    if (op.type === 'putFacts') for (const fact of op.facts) assertOneCurrent(tables, fact.namespace, fact.subject, fact.predicate);
    if (op.type === 'putSummaries') for (const summary of op.summaries) if (summary.level === 'batch') assertNoOverlap(tables, summary.sessionId);
  }
}

function assertOneCurrent(tables: InMemoryTables, namespace: string, subject: string, predicate: string): void {
  const current = selectFacts(tables, { namespace, subject, predicate });
  if (current.length <= 1) return;
  throw new StrataError('CONFLICT', `fact slot ${namespace} / ${subject} / ${predicate} would have ${current.length} current facts (${current.map((f) => f.id).join(', ')})`, {
    hint: 'Another writer changed this slot meanwhile: re-read the slot and reconcile again (the job queue retries this).',
  });
}

function assertNoOverlap(tables: InMemoryTables, sessionId: string): void {
  const batches = selectSummaries(tables, { sessionId, level: 'batch' });
  for (let i = 1; i < batches.length; i++) {
    const previous = batches[i - 1];
    const next = batches[i];
    if (previous && next && next.fromSeq <= previous.toSeq) {
      throw new StrataError('CONFLICT', `summaries ${previous.id} (${previous.fromSeq}-${previous.toSeq}) and ${next.id} (${next.fromSeq}-${next.toSeq}) of session ${sessionId} would overlap`, {
        hint: 'Another writer summarized these turns meanwhile: re-read the session (the job queue retries this).',
      });
    }
  }
}

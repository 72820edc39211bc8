import { StrataError } from '@strata/core';
import type { Fact, StoreOp } from '@strata/core';
import type { OverlapRow, WriteStatements } from './session-statements.js';

/**
 * The store's integrity rules, checked after a batch's steps and before it commits (the
 * in-memory store's rules): a fact slot has at most one current fact; the batch summaries
 * of a session never overlap. Only what the batch touched is checked, through indexes.
 * Throws CONFLICT, which rolls the transaction back.
 */
export function assertIntegrity(statements: WriteStatements, ops: readonly StoreOp[]): void {
  for (const op of ops) {
    if (op.type === 'putFacts') for (const fact of op.facts) assertOneCurrent(statements, fact);
    if (op.type === 'putSummaries') {
      for (const summary of op.summaries) if (summary.level === 'batch') assertNoOverlap(statements, summary.id, summary.sessionId);
    }
  }
}

function assertOneCurrent(statements: WriteStatements, { namespace, subject, predicate }: Fact): void {
  const current = statements.currentFactsOfSlot.all(namespace, subject, predicate);
  if (current.length <= 1) return;
  throw new StrataError('CONFLICT', `fact slot ${namespace} / ${subject} / ${predicate} would have ${current.length} current facts (${current.join(', ')})`, {
    hint: 'Another writer changed this slot meanwhile: re-read the slot and reconcile again (the job queue retries this).',
  });
}

function assertNoOverlap(statements: WriteStatements, summaryId: string, sessionId: string): void {
  const overlap = statements.overlappingSummary.get(summaryId);
  if (overlap === undefined) return;
  const [first, second] = inOrder(overlap);
  throw new StrataError('CONFLICT', `summaries ${first.id} (${first.from}-${first.to}) and ${second.id} (${second.from}-${second.to}) of session ${sessionId} would overlap`, {
    hint: 'Another writer summarized these turns meanwhile: re-read the session (the job queue retries this).',
  });
}

interface Range {
  id: string;
  from: number;
  to: number;
}

/** The two summaries in the order the session lists them (fromSeq, toSeq, id). */
function inOrder(row: OverlapRow): [Range, Range] {
  const touched = { id: row.t_id, from: row.t_from, to: row.t_to };
  const other = { id: row.id, from: row.from_seq, to: row.to_seq };
  const otherFirst = other.from - touched.from || other.to - touched.to || (other.id < touched.id ? -1 : 1);
  return otherFirst < 0 ? [other, touched] : [touched, other];
}

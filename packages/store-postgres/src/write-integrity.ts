import { StrataError } from '@strata/core';
import type { StoreOp } from '@strata/core';
import type { Queryable } from './database.js';
import { storedText } from './rows.js';

/*
 * The store's integrity rules across writers: the locks a write takes before its steps, and
 * the checks it makes after them, before it commits. Part of session-write.ts's transaction.
 */

/**
 * Locks, in one fixed order, the fact slots and the sessions whose batch summaries this batch
 * writes: a second writer of the same slot or session waits for this one to commit, and its
 * integrity check then sees this one's rows.
 */
export async function lockSlotsAndSessions(tx: Queryable, ops: readonly StoreOp[]): Promise<void> {
  const keys = new Set<string>();
  for (const op of ops) {
    if (op.type === 'putFacts') for (const f of op.facts) keys.add(`strata.slot.${JSON.stringify([f.namespace, f.subject, f.predicate])}`);
    if (op.type === 'putSummaries') for (const s of op.summaries) if (s.level === 'batch') keys.add(`strata.summaries.${s.sessionId}`);
  }
  if (keys.size === 0) return;
  await tx.query('SELECT pg_advisory_xact_lock(hashtext(key)) FROM unnest($1::text[]) AS key ORDER BY key', [[...keys].sort()]);
}

/**
 * The store's integrity rules, checked after a batch's steps and before it commits (the
 * in-memory store's rules): a fact slot has at most one current fact; the batch summaries of a
 * session never overlap. Throws CONFLICT, which rolls the transaction back.
 */
export async function assertIntegrity(tx: Queryable, ops: readonly StoreOp[]): Promise<void> {
  for (const op of ops) {
    if (op.type === 'putFacts') {
      for (const fact of op.facts) {
        const current = await tx.query<{ id: string }>('SELECT id FROM facts WHERE namespace = $1 AND subject = $2 AND predicate = $3 AND valid_to IS NULL ORDER BY valid_from, id', [
          fact.namespace,
          storedText(fact.subject),
          storedText(fact.predicate),
        ]);
        if (current.length > 1) {
          throw new StrataError('CONFLICT', `fact slot ${fact.namespace} / ${fact.subject} / ${fact.predicate} would have ${current.length} current facts (${current.map((r) => r.id).join(', ')})`, {
            hint: 'Another writer changed this slot meanwhile: re-read the slot and reconcile again (the job queue retries this).',
          });
        }
      }
    }
    if (op.type === 'putSummaries') {
      for (const summary of op.summaries) if (summary.level === 'batch') await assertNoOverlap(tx, summary.id, summary.sessionId);
    }
  }
}

async function assertNoOverlap(tx: Queryable, summaryId: string, sessionId: string): Promise<void> {
  const overlap = (
    await tx.query<{ t_id: string; t_from: number; t_to: number; id: string; from_seq: number; to_seq: number }>(
      `SELECT t.id AS t_id, t.from_seq AS t_from, t.to_seq AS t_to, o.id, o.from_seq, o.to_seq
       FROM summaries t JOIN summaries o
         ON o.session_id = t.session_id AND o.level = 'batch' AND o.to_seq >= t.from_seq AND o.from_seq <= t.to_seq AND o.id <> t.id
       WHERE t.id = $1 AND t.level = 'batch'
       ORDER BY o.from_seq, o.to_seq, o.id LIMIT 1`,
      [summaryId],
    )
  )[0];
  if (overlap === undefined) return;
  const touched = { id: overlap.t_id, from: overlap.t_from, to: overlap.t_to };
  const other = { id: overlap.id, from: overlap.from_seq, to: overlap.to_seq };
  // the two in the order the session lists them (fromSeq, toSeq, id)
  const otherFirst = other.from - touched.from || other.to - touched.to || (other.id < touched.id ? -1 : 1);
  const [first, second] = otherFirst < 0 ? [other, touched] : [touched, other];
  throw new StrataError('CONFLICT', `summaries ${first.id} (${first.from}-${first.to}) and ${second.id} (${second.from}-${second.to}) of session ${sessionId} would overlap`, {
    hint: 'Another writer summarized these turns meanwhile: re-read the session (the job queue retries this).',
  });
}

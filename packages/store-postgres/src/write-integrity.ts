import { StrataError } from '@strata/core';
import type { Fact, StoreOp, Summary } from '@strata/core';
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
    if (op.type === 'putFacts') await assertOneCurrentPerSlot(tx, op.facts);
    if (op.type === 'putSummaries')
      await assertNoOverlap(
        tx,
        op.summaries.filter((s) => s.level === 'batch'),
      );
  }
}

/** CONFLICT naming the first fact (in step order) whose slot has more than one current fact; one query for the step. */
async function assertOneCurrentPerSlot(tx: Queryable, facts: readonly Fact[]): Promise<void> {
  if (facts.length === 0) return;
  const crowded = await tx.query<{ namespace: string; subject: string; predicate: string; ids: string[] }>(
    `SELECT f.namespace, f.subject, f.predicate, array_agg(f.id ORDER BY f.valid_from, f.id) AS ids
     FROM (SELECT DISTINCT namespace, subject, predicate FROM unnest($1::text[], $2::text[], $3::text[]) AS s (namespace, subject, predicate)) AS s
     JOIN facts f ON f.namespace = s.namespace AND f.subject = s.subject AND f.predicate = s.predicate AND f.valid_to IS NULL
     GROUP BY f.namespace, f.subject, f.predicate HAVING count(*) > 1`,
    [facts.map((f) => f.namespace), facts.map((f) => storedText(f.subject)), facts.map((f) => storedText(f.predicate))],
  );
  if (crowded.length === 0) return;
  const idsOf = new Map(crowded.map((row) => [JSON.stringify([row.namespace, row.subject, row.predicate]), row.ids]));
  for (const fact of facts) {
    const ids = idsOf.get(JSON.stringify([fact.namespace, storedText(fact.subject), storedText(fact.predicate)]));
    if (ids === undefined) continue;
    throw new StrataError('CONFLICT', `fact slot ${fact.namespace} / ${fact.subject} / ${fact.predicate} would have ${ids.length} current facts (${ids.join(', ')})`, {
      hint: 'Another writer changed this slot meanwhile: re-read the slot and reconcile again (the job queue retries this).',
    });
  }
}

/** CONFLICT naming the first batch summary (in step order) that overlaps another of its session; one query for the step. */
async function assertNoOverlap(tx: Queryable, summaries: readonly Summary[]): Promise<void> {
  if (summaries.length === 0) return;
  const overlaps = await tx.query<{ t_id: string; t_from: number; t_to: number; id: string; from_seq: number; to_seq: number }>(
    `SELECT DISTINCT ON (t.id) t.id AS t_id, t.from_seq AS t_from, t.to_seq AS t_to, o.id, o.from_seq, o.to_seq
     FROM summaries t JOIN summaries o
       ON o.session_id = t.session_id AND o.level = 'batch' AND o.to_seq >= t.from_seq AND o.from_seq <= t.to_seq AND o.id <> t.id
     WHERE t.id = ANY($1::text[]) AND t.level = 'batch'
     ORDER BY t.id, o.from_seq, o.to_seq, o.id`,
    [summaries.map((s) => s.id)],
  );
  if (overlaps.length === 0) return;
  const byId = new Map(overlaps.map((row) => [row.t_id, row]));
  const summary = summaries.find((s) => byId.has(s.id)) as Summary;
  const overlap = byId.get(summary.id) as (typeof overlaps)[number];
  const touched = { id: overlap.t_id, from: overlap.t_from, to: overlap.t_to };
  const other = { id: overlap.id, from: overlap.from_seq, to: overlap.to_seq };
  // the two in the order the session lists them (fromSeq, toSeq, id)
  const otherFirst = other.from - touched.from || other.to - touched.to || (other.id < touched.id ? -1 : 1);
  const [first, second] = otherFirst < 0 ? [other, touched] : [touched, other];
  throw new StrataError('CONFLICT', `summaries ${first.id} (${first.from}-${first.to}) and ${second.id} (${second.from}-${second.to}) of session ${summary.sessionId} would overlap`, {
    hint: 'Another writer summarized these turns meanwhile: re-read the session (the job queue retries this).',
  });
}

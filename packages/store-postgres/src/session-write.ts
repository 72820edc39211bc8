import type { JobRecord, Session, StoreOp, StoredMessage, WriteBatch, WriteReceipt } from '@strata/core';
import type { Queryable, Transaction } from './database.js';
import { removeDocuments, removeSessionDocuments } from './lexical.js';
import { storedOptional, storedUsage, toJson } from './rows.js';
import { putFacts, putSummaries } from './write-derived.js';
import { assertIntegrity, lockSlotsAndSessions } from './write-integrity.js';
import { appendMessages, insertMessages } from './write-messages.js';

/*
 * The body of one `write`: its steps in order inside one transaction, the records and their
 * lexical postings together. Concurrency rules (READ COMMITTED plus explicit locks):
 * - an append locks its session's row (FOR UPDATE), so seqs stay gap-free and unique across processes;
 * - a job key is locked (advisory, to the end of the transaction) before the ledger is read, so
 *   two processes applying one job apply it once;
 * - fact slots and sessions whose summaries change are locked before the integrity check, so two
 *   writers cannot both pass it.
 */

type DeleteOp = Extract<StoreOp, { type: 'delete' }>;

export async function applyBatch(tx: Transaction, batch: WriteBatch): Promise<WriteReceipt> {
  const key = batch.unlessJobApplied;
  if (key !== undefined) {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`strata.job.${key}`]);
    if ((await tx.query('SELECT 1 FROM jobs WHERE key = $1', [key])).length > 0) return { applied: false, messages: [] };
  }
  await lockSlotsAndSessions(tx, batch.ops);
  const messages: StoredMessage[] = [];
  for (let i = 0; i < batch.ops.length; i++) {
    const run = sessionRun(batch.ops, i);
    if (run.length > 1) {
      // an import's sessions: one statement, not a round trip each
      await putSessions(tx, run);
      i += run.length - 1;
      continue;
    }
    // one by one: an import's million turns spread into push() overflow the stack
    for (const message of await applyOp(tx, batch.ops[i] as StoreOp)) messages.push(message);
  }
  await assertIntegrity(tx, batch.ops);
  return { applied: true, messages };
}

async function applyOp(tx: Transaction, op: StoreOp): Promise<StoredMessage[]> {
  switch (op.type) {
    case 'putSession':
      await putSession(tx, op.session);
      return [];
    case 'appendMessages':
      return appendMessages(tx, op.sessionId, op.messages);
    case 'insertMessages':
      return insertMessages(tx, op.messages);
    case 'putSummaries':
      await putSummaries(tx, op.summaries);
      return [];
    case 'putFacts':
      await putFacts(tx, op.facts);
      return [];
    case 'recordJobs':
      await recordJobs(tx, op.jobs);
      return [];
    case 'delete':
      await deleteRecords(tx, op);
      return [];
  }
}

/**
 * The sessions of the `putSession` steps that start at `start` and follow one another, while
 * their ids differ (one upsert statement cannot touch a row twice; a repeated id is put by a
 * statement of its own, in order).
 */
function sessionRun(ops: readonly StoreOp[], start: number): Session[] {
  const run: Session[] = [];
  const ids = new Set<string>();
  for (let i = start; i < ops.length; i++) {
    const op = ops[i] as StoreOp;
    if (op.type !== 'putSession' || ids.has(op.session.id)) break;
    ids.add(op.session.id);
    run.push(op.session);
  }
  return run;
}

async function putSession(tx: Queryable, session: Session): Promise<void> {
  await putSessions(tx, [session]);
}

/** Inserts or replaces sessions by id (distinct ids) in one statement; a stored `last_seq` never goes down. */
async function putSessions(tx: Queryable, sessions: readonly Session[]): Promise<void> {
  await tx.query(
    `INSERT INTO sessions (id, namespace, title, metadata, created_at, updated_at, last_seq)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[])
     ON CONFLICT (id) DO UPDATE SET namespace = excluded.namespace, title = excluded.title, metadata = excluded.metadata,
       created_at = excluded.created_at, updated_at = excluded.updated_at, last_seq = greatest(sessions.last_seq, excluded.last_seq)`,
    [
      sessions.map((s) => s.id),
      sessions.map((s) => s.namespace),
      sessions.map((s) => storedOptional(s.title)),
      sessions.map((s) => toJson(s.metadata ?? {}, 'session metadata')),
      sessions.map((s) => s.createdAt),
      sessions.map((s) => s.updatedAt),
      sessions.map((s) => s.lastSeq),
    ],
  );
}

/** The ledger records when a job was first applied; recording it again changes nothing (one statement for the step). */
async function recordJobs(tx: Queryable, jobs: readonly JobRecord[]): Promise<void> {
  if (jobs.length === 0) return;
  await tx.query(
    `INSERT INTO jobs (key, type, session_id, from_seq, to_seq, applied_at, usage)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::jsonb[])
     ON CONFLICT (key) DO NOTHING`,
    [
      jobs.map((j) => j.key),
      jobs.map((j) => j.type),
      jobs.map((j) => j.sessionId),
      jobs.map((j) => j.fromSeq),
      jobs.map((j) => j.toSeq),
      jobs.map((j) => j.appliedAt),
      jobs.map((j) => storedUsage(j.usage)),
    ],
  );
}

/**
 * Deletes by id; unknown ids are ignored. A session takes its messages, summaries, topics and
 * links along (foreign keys), and its job records and the summaries' provenance here. Facts
 * are kept: they belong to the namespace, core trims them.
 */
async function deleteRecords(tx: Queryable, op: DeleteOp): Promise<void> {
  const sessions = op.sessions ?? [];
  if (sessions.length > 0) {
    await tx.query("DELETE FROM provenance WHERE item_kind = 'summary' AND item_id IN (SELECT id FROM summaries WHERE session_id = ANY($1::text[]))", [sessions]);
    await tx.query('DELETE FROM jobs WHERE session_id = ANY($1::text[])', [sessions]);
    await removeSessionDocuments(tx, sessions);
    await tx.query('DELETE FROM sessions WHERE id = ANY($1::text[])', [sessions]);
  }
  const messages = op.messages ?? [];
  if (messages.length > 0) {
    await tx.query('DELETE FROM messages WHERE id = ANY($1::text[])', [messages]);
    await removeDocuments(tx, 'turn', messages);
  }
  const summaries = op.summaries ?? [];
  if (summaries.length > 0) {
    await tx.query('DELETE FROM summaries WHERE id = ANY($1::text[])', [summaries]);
    await tx.query("DELETE FROM provenance WHERE item_kind = 'summary' AND item_id = ANY($1::text[])", [summaries]);
    await removeDocuments(tx, 'summary', summaries);
  }
  const facts = op.facts ?? [];
  if (facts.length > 0) {
    await tx.query('DELETE FROM facts WHERE id = ANY($1::text[])', [facts]);
    await tx.query("DELETE FROM provenance WHERE item_kind = 'fact' AND item_id = ANY($1::text[])", [facts]);
    await removeDocuments(tx, 'fact', facts);
  }
  if ((op.jobs ?? []).length > 0) await tx.query('DELETE FROM jobs WHERE key = ANY($1::text[])', [op.jobs]);
}

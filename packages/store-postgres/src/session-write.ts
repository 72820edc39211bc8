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
  for (const op of batch.ops) messages.push(...(await applyOp(tx, op)));
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

async function putSession(tx: Queryable, session: Session): Promise<void> {
  await tx.query(
    `INSERT INTO sessions (id, namespace, title, metadata, created_at, updated_at, last_seq) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (id) DO UPDATE SET namespace = excluded.namespace, title = excluded.title, metadata = excluded.metadata,
       created_at = excluded.created_at, updated_at = excluded.updated_at, last_seq = greatest(sessions.last_seq, excluded.last_seq)`,
    [session.id, session.namespace, storedOptional(session.title), toJson(session.metadata ?? {}, 'session metadata'), session.createdAt, session.updatedAt, session.lastSeq],
  );
}

/** The ledger records when a job was first applied; recording it again changes nothing. */
async function recordJobs(tx: Queryable, jobs: readonly JobRecord[]): Promise<void> {
  for (const job of jobs) {
    await tx.query('INSERT INTO jobs (key, type, session_id, from_seq, to_seq, applied_at, usage) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) ON CONFLICT (key) DO NOTHING', [
      job.key,
      job.type,
      job.sessionId,
      job.fromSeq,
      job.toSeq,
      job.appliedAt,
      storedUsage(job.usage),
    ]);
  }
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

import { factLexicalText, StrataError, turnLexicalText } from '@strata/core';
import type { Fact, JobRecord, NewMessage, Session, StoreOp, StoredMessage, Summary, WriteBatch, WriteReceipt } from '@strata/core';
import type { Queryable } from './database.js';
import { indexDocuments, removeDocuments, removeSessionDocuments } from './lexical.js';
import { messageRow, readText, storedOptional, storedText, toJson, toMessage } from './rows.js';
import type { MessageRow } from './rows.js';

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

export async function applyBatch(tx: Queryable, batch: WriteBatch): Promise<WriteReceipt> {
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

async function applyOp(tx: Queryable, op: StoreOp): Promise<StoredMessage[]> {
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

interface SessionState {
  namespace: string;
  last_seq: number;
  updated_at: number;
}

/** The session's row, locked until the transaction ends, or NOT_FOUND saying what could not be done. */
async function lockSession(tx: Queryable, sessionId: string, action: string): Promise<SessionState> {
  return (await tx.query<SessionState>('SELECT namespace, last_seq, updated_at FROM sessions WHERE id = $1 FOR UPDATE', [sessionId]))[0] ?? missingSession(sessionId, action);
}

async function appendMessages(tx: Queryable, sessionId: string, messages: readonly NewMessage[]): Promise<StoredMessage[]> {
  if (messages.length === 0) {
    await lockSession(tx, sessionId, 'append messages to it');
    return [];
  }
  // one read without a lock: the namespace the postings go to (the seqs come from the locked
  // row below), and whether an id is taken
  const ids = messages.map((m) => m.id);
  const state = (
    await tx.query<{ namespace: string | null; id: string | null; session_id: string | null; seq: number | null }>(
      `SELECT (SELECT namespace FROM sessions WHERE id = $1) AS namespace, m.id, m.session_id, m.seq
       FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT id, session_id, seq FROM messages WHERE id = ANY($2::text[]) LIMIT 1) AS m ON true`,
      [sessionId, ids],
    )
  )[0];
  const namespace = state?.namespace ?? missingSession(sessionId, 'append messages to it');
  assertDistinctIds(ids);
  if (state?.id != null) throw duplicateMessage(state.id, `session "${state.session_id}", seq ${state.seq}`);
  const unplaced = messages.map((message) => messageRow(message, sessionId, namespace, 0));
  await indexTurns(tx, unplaced);
  // the one statement that takes the session's row lock, held to the commit: concurrent appends
  // to a session queue for a single round trip, not for the whole write
  const column = <K extends keyof MessageRow>(key: K): MessageRow[K][] => unplaced.map((row) => row[key]);
  const locked =
    (
      await tx.query<{ namespace: string; last_seq: number }>(
        `WITH s AS (SELECT namespace, last_seq FROM sessions WHERE id = $1 FOR UPDATE),
       -- data-modifying parts of a WITH run once whether or not the final SELECT reads them
       inserted AS (
         INSERT INTO messages (id, session_id, namespace, seq, role, content, name, tool_calls, tool_call_id, metadata, created_at, tokens, token_counter)
         SELECT m.id, $1, s.namespace, s.last_seq + m.ord, m.role, m.content, m.name, m.tool_calls, m.tool_call_id, m.metadata, m.created_at, m.tokens, m.token_counter
         FROM s, unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::int[], $11::text[])
           WITH ORDINALITY AS m (id, role, content, name, tool_calls, tool_call_id, metadata, created_at, tokens, token_counter, ord)
         RETURNING 1
       ),
       advanced AS (
         UPDATE sessions SET last_seq = s.last_seq + $12, updated_at = greatest(sessions.updated_at, $13) FROM s WHERE sessions.id = $1 RETURNING 1
       )
       SELECT s.namespace, s.last_seq FROM s`,
        [
          sessionId,
          column('id'),
          column('role'),
          column('content'),
          column('name'),
          column('tool_calls'),
          column('tool_call_id'),
          column('metadata'),
          column('created_at'),
          column('tokens'),
          column('token_counter'),
          unplaced.length,
          Math.max(...unplaced.map((r) => r.created_at)),
        ],
      )
    )[0] ?? missingSession(sessionId, 'append messages to it');
  if (locked.namespace !== namespace) {
    throw new StrataError('CONFLICT', `Session "${sessionId}" moved from namespace "${namespace}" to "${locked.namespace}" during an append.`, {
      hint: 'Another process changed the session meanwhile; retry the append.',
      retryable: true,
    });
  }
  return unplaced.map((row, i) => toMessage({ ...row, seq: locked.last_seq + i + 1 }));
}

function missingSession(sessionId: string, action: string): never {
  throw new StrataError('NOT_FOUND', `Session "${sessionId}" does not exist, so strata cannot ${action}.`, {
    hint: 'Create the session first with memory.sessions.create() (or a putSession step earlier in the same batch).',
  });
}

/**
 * Imports: messages with the seqs they carry, in a few statements for the whole step (a bundle
 * of thousands of turns is not thousands of round trips). Their sessions are locked once each,
 * in id order, so concurrent imports lock alike.
 */
async function insertMessages(tx: Queryable, messages: readonly StoredMessage[]): Promise<StoredMessage[]> {
  if (messages.length === 0) return [];
  const sessionIds = [...new Set(messages.map((m) => m.sessionId))].sort();
  const namespaces = await namespacesOf(tx, sessionIds);
  const missing = messages.find((m) => !namespaces.has(m.sessionId));
  if (missing !== undefined) missingSession(missing.sessionId, 'insert messages into it');
  await assertNewMessageIds(
    tx,
    messages.map((m) => m.id),
  );
  await assertFreeSeqs(tx, messages);
  // a message lives in its session's namespace, whatever the input says, so isolation holds
  const rows = messages.map((message) => messageRow(message, message.sessionId, namespaces.get(message.sessionId) as string, message.seq));
  // postings before the session locks, as in an append: every write takes its locks in one order
  await indexTurns(tx, rows);
  const locked = await namespacesOf(tx, sessionIds, true);
  for (const [id, namespace] of namespaces) {
    if (locked.get(id) !== namespace) {
      throw new StrataError('CONFLICT', `Session "${id}" was changed or deleted by another process during an import.`, { hint: 'Retry the import.', retryable: true });
    }
  }
  await insertRows(tx, rows);
  await tx.query(
    `UPDATE sessions SET last_seq = greatest(sessions.last_seq, k.seq)
     FROM (SELECT session_id, max(seq) AS seq FROM unnest($1::text[], $2::bigint[]) AS m (session_id, seq) GROUP BY session_id) AS k
     WHERE sessions.id = k.session_id`,
    [rows.map((r) => r.session_id), rows.map((r) => r.seq)],
  );
  return rows.map(toMessage);
}

/** Each existing session's namespace, by id; `lock` takes their rows (in id order) to the commit. */
async function namespacesOf(tx: Queryable, sessionIds: readonly string[], lock = false): Promise<Map<string, string>> {
  const rows = await tx.query<{ id: string; namespace: string }>(`SELECT id, namespace FROM sessions WHERE id = ANY($1::text[]) ORDER BY id${lock ? ' FOR UPDATE' : ''}`, [sessionIds]);
  return new Map(rows.map((row) => [row.id, row.namespace]));
}

/** CONFLICT when a seq an import carries is taken, by a stored message or an earlier one of the step. */
async function assertFreeSeqs(tx: Queryable, messages: readonly StoredMessage[]): Promise<void> {
  const first = new Map<string, string>();
  let clash: { id: string; takenBy: string; sessionId: string; seq: number } | undefined;
  for (const message of messages) {
    const key = JSON.stringify([message.sessionId, message.seq]);
    const holder = first.get(key);
    if (holder !== undefined) {
      clash = { id: message.id, takenBy: holder, sessionId: message.sessionId, seq: message.seq };
      break;
    }
    first.set(key, message.id);
  }
  const stored = (
    await tx.query<{ id: string; session_id: string; seq: number; inserting: string }>(
      `SELECT m.id, m.session_id, m.seq, k.id AS inserting FROM unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS k (session_id, seq, id, ord)
       JOIN messages m ON m.session_id = k.session_id AND m.seq = k.seq ORDER BY k.ord LIMIT 1`,
      [messages.map((m) => m.sessionId), messages.map((m) => m.seq), messages.map((m) => m.id)],
    )
  )[0];
  if (stored !== undefined) clash = { id: stored.inserting, takenBy: stored.id, sessionId: stored.session_id, seq: stored.seq };
  if (clash === undefined) return;
  throw new StrataError('CONFLICT', `Seq ${clash.seq} of session "${clash.sessionId}" is already taken by message "${clash.takenBy}" (inserting "${clash.id}").`, {
    hint: 'insertMessages is for imports into free seqs; use appendMessages to add new turns.',
  });
}

/** Inserts message rows (one statement); their postings are written by {@link indexTurns}. */
async function insertRows(tx: Queryable, rows: readonly MessageRow[]): Promise<void> {
  const column = <K extends keyof MessageRow>(key: K): MessageRow[K][] => rows.map((row) => row[key]);
  await tx.query(
    `INSERT INTO messages (id, session_id, namespace, seq, role, content, name, tool_calls, tool_call_id, metadata, created_at, tokens, token_counter)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[], $12::int[], $13::text[])`,
    [
      column('id'),
      column('session_id'),
      column('namespace'),
      column('seq'),
      column('role'),
      column('content'),
      column('name'),
      column('tool_calls'),
      column('tool_call_id'),
      column('metadata'),
      column('created_at'),
      column('tokens'),
      column('token_counter'),
    ],
  );
}

/** The postings of new turns (their ids are checked new: nothing indexed to replace). */
async function indexTurns(tx: Queryable, rows: readonly MessageRow[]): Promise<void> {
  await indexDocuments(
    tx,
    rows.map((row) => ({
      namespace: row.namespace,
      kind: 'turn' as const,
      id: row.id,
      sessionId: row.session_id,
      text: turnLexicalText({ content: readText(row.content), name: row.name === null ? undefined : readText(row.name), createdAt: row.created_at }),
    })),
  );
}

async function assertNewMessageIds(tx: Queryable, ids: readonly string[]): Promise<void> {
  assertDistinctIds(ids);
  const existing = (await tx.query<{ id: string; session_id: string; seq: number }>('SELECT id, session_id, seq FROM messages WHERE id = ANY($1::text[]) LIMIT 1', [ids]))[0];
  if (existing !== undefined) throw duplicateMessage(existing.id, `session "${existing.session_id}", seq ${existing.seq}`);
}

function assertDistinctIds(ids: readonly string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw duplicateMessage(id, 'the same batch');
    seen.add(id);
  }
}

function duplicateMessage(id: string, where: string): StrataError {
  return new StrataError('CONFLICT', `Message id "${id}" already exists (${where}).`, {
    hint: 'Message ids are unique across the store: omit the id to let strata generate one, or skip messages already stored.',
  });
}

/** Inserts or replaces each summary by id, with its provenance and postings. */
async function putSummaries(tx: Queryable, summaries: readonly Summary[]): Promise<void> {
  for (const summary of summaries) {
    if ((await tx.query('SELECT 1 FROM sessions WHERE id = $1', [summary.sessionId])).length === 0) {
      throw new StrataError('NOT_FOUND', `Session "${summary.sessionId}" does not exist, so strata cannot store summary "${summary.id}" for it.`, {
        hint: 'Create the session first (or a putSession step earlier in the same batch); a forgotten session takes its summaries with it.',
      });
    }
    await tx.query('DELETE FROM summaries WHERE id = $1', [summary.id]);
    await tx.query('INSERT INTO summaries (id, session_id, namespace, level, from_seq, to_seq, text, created_at, degraded) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
      summary.id,
      summary.sessionId,
      summary.namespace,
      summary.level,
      summary.fromSeq,
      summary.toSeq,
      storedText(summary.text),
      summary.createdAt,
      summary.degraded,
    ]);
    await replaceSources(tx, 'summary', summary.id, summary.sourceMessageIds);
  }
  // a summary put again is replaced: its old postings go first
  await removeDocuments(
    tx,
    'summary',
    summaries.map((s) => s.id),
  );
  await indexDocuments(
    tx,
    summaries.map((s) => ({ namespace: s.namespace, kind: 'summary' as const, id: s.id, sessionId: s.sessionId, text: s.text })),
  );
}

/** Inserts or replaces each fact by id; superseded facts stay stored, searches skip them. */
async function putFacts(tx: Queryable, facts: readonly Fact[]): Promise<void> {
  for (const fact of facts) {
    await tx.query('DELETE FROM facts WHERE id = $1', [fact.id]);
    await tx.query(
      `INSERT INTO facts (id, namespace, subject, predicate, object, text, valid_from, valid_to, superseded_by, confidence, created_at, degraded)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        fact.id,
        fact.namespace,
        storedText(fact.subject),
        storedText(fact.predicate),
        storedText(fact.object),
        storedText(fact.text),
        fact.validFrom,
        isCurrent(fact) ? null : fact.validTo,
        fact.supersededBy ?? null,
        fact.confidence,
        fact.createdAt,
        fact.degraded,
      ],
    );
    await replaceSources(tx, 'fact', fact.id, fact.sourceMessageIds);
  }
  // a fact put again is replaced (a superseded one is not indexed again)
  await removeDocuments(
    tx,
    'fact',
    facts.map((f) => f.id),
  );
  await indexDocuments(
    tx,
    facts.filter(isCurrent).map((f) => ({ namespace: f.namespace, kind: 'fact' as const, id: f.id, sessionId: null, text: factLexicalText(f) })),
  );
}

/** Same test as the in-memory store: a fact is current unless validTo is a number. */
function isCurrent(fact: Fact): boolean {
  return typeof fact.validTo !== 'number';
}

async function replaceSources(tx: Queryable, kind: 'summary' | 'fact', item: string, messageIds: readonly string[]): Promise<void> {
  await tx.query('DELETE FROM provenance WHERE item_kind = $1 AND item_id = $2', [kind, item]);
  if (messageIds.length === 0) return;
  // a message listed twice keeps its first position
  await tx.query(
    `INSERT INTO provenance (item_kind, item_id, message_id, position)
     SELECT $1, $2, message_id, position FROM unnest($3::text[]) WITH ORDINALITY AS s (message_id, position)
     ON CONFLICT DO NOTHING`,
    [kind, item, messageIds],
  );
}

/** The ledger records when a job was first applied; recording it again changes nothing. */
async function recordJobs(tx: Queryable, jobs: readonly JobRecord[]): Promise<void> {
  for (const job of jobs) {
    await tx.query('INSERT INTO jobs (key, type, session_id, from_seq, to_seq, applied_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key) DO NOTHING', [
      job.key,
      job.type,
      job.sessionId,
      job.fromSeq,
      job.toSeq,
      job.appliedAt,
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

/**
 * Locks, in one fixed order, the fact slots and the sessions whose batch summaries this batch
 * writes: a second writer of the same slot or session waits for this one to commit, and its
 * integrity check then sees this one's rows.
 */
async function lockSlotsAndSessions(tx: Queryable, ops: readonly StoreOp[]): Promise<void> {
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
async function assertIntegrity(tx: Queryable, ops: readonly StoreOp[]): Promise<void> {
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

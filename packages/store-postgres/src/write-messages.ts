import { analyzeText, StrataError, turnLexicalText } from '@strata/core';
import type { NewMessage, StoredMessage } from '@strata/core';
import type { Queryable, Transaction } from './database.js';
import { indexDocuments, STAT_SHARDS } from './lexical.js';
import { messageRow, readText, toMessage } from './rows.js';
import type { MessageRow } from './rows.js';

/*
 * The message steps of a write: appends (seqs taken under the session's row lock, so they stay
 * gap-free and unique across processes) and imports (messages with the seqs they carry),
 * each with the postings of its turns. Part of session-write.ts's transaction.
 */

interface SessionState {
  namespace: string;
  last_seq: number;
  updated_at: number;
}

/** The session's row, locked until the transaction ends, or NOT_FOUND saying what could not be done. */
async function lockSession(tx: Queryable, sessionId: string, action: string): Promise<SessionState> {
  return (await tx.query<SessionState>('SELECT namespace, last_seq, updated_at FROM sessions WHERE id = $1 FOR UPDATE', [sessionId]))[0] ?? missingSession(sessionId, action);
}

export async function appendMessages(tx: Transaction, sessionId: string, messages: readonly NewMessage[]): Promise<StoredMessage[]> {
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
        [sessionId, unplaced.map((row) => row.id), ...turnColumns(unplaced), unplaced.length, newestCreatedAt(unplaced)],
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

/**
 * An append that is a whole write (the common case: a chat turn) as one statement, outside an
 * explicit transaction: one round trip to the server instead of eight. A single statement is
 * atomic, and it does what the transaction does: locks the session's row (seqs stay gap-free
 * across processes), inserts the messages with the next seqs, their lexical documents, postings
 * and counts, and advances the session. The texts are analyzed here first, without a lock.
 * @throws StrataError NOT_FOUND for an unknown session; CONFLICT for an id taken (nothing written).
 */
export async function appendInOneStatement(db: Queryable, sessionId: string, messages: readonly NewMessage[]): Promise<StoredMessage[]> {
  const ids = messages.map((m) => m.id);
  assertDistinctIds(ids);
  // the namespace is the locked row's: filled in from the statement's answer
  const unplaced = messages.map((message) => messageRow(message, sessionId, '', 0));
  const postings = { ords: [] as number[], terms: [] as string[], tfs: [] as number[], lengths: [] as number[] };
  const lengths = unplaced.map((row, i) => {
    const terms = analyzeText(turnLexicalText({ content: readText(row.content), name: row.name === null ? undefined : readText(row.name), createdAt: row.created_at }));
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      postings.ords.push(i + 1);
      postings.terms.push(term);
      postings.tfs.push(tf);
      postings.lengths.push(terms.length);
    }
    return terms.length;
  });
  let locked: { namespace: string; last_seq: number } | undefined;
  try {
    locked = (
      await db.query<{ namespace: string; last_seq: number }>(
        `WITH s AS (SELECT namespace, last_seq FROM sessions WHERE id = $1 FOR UPDATE),
         m AS (
           SELECT m.*, s.namespace, s.last_seq + m.ord AS seq FROM s,
             unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::int[], $11::text[], $12::int[])
             WITH ORDINALITY AS m (id, role, content, name, tool_calls, tool_call_id, metadata, created_at, tokens, token_counter, length, ord)
         ),
         -- data-modifying parts of a WITH run once whether or not the final SELECT reads them
         inserted AS (
           INSERT INTO messages (id, session_id, namespace, seq, role, content, name, tool_calls, tool_call_id, metadata, created_at, tokens, token_counter)
           SELECT id, $1, namespace, seq, role, content, name, tool_calls, tool_call_id, metadata, created_at, tokens, token_counter FROM m
           RETURNING 1
         ),
         -- doc numbers in the order given: the indexing order that breaks ties
         docs AS (
           INSERT INTO lexical_docs (namespace, kind, id, session_id, length)
           SELECT namespace, 'turn', id, $1, length FROM m ORDER BY ord
           RETURNING doc, id
         ),
         postings AS (
           INSERT INTO lexical_terms (namespace, kind, term, doc, tf, length, session_id)
           SELECT s.namespace, 'turn', p.term, d.doc, p.tf, p.length, $1
           FROM s, unnest($13::int[], $14::text[], $15::real[], $16::int[]) AS p (ord, term, tf, length)
           JOIN docs d ON d.id = ($2::text[])[p.ord]
           RETURNING 1
         ),
         counted AS (
           INSERT INTO lexical_stats (namespace, kind, shard, documents, total_length)
           SELECT s.namespace, 'turn', (txid_current() % ${STAT_SHARDS})::smallint, $17, $18 FROM s
           ON CONFLICT (namespace, kind, shard) DO UPDATE SET documents = lexical_stats.documents + excluded.documents, total_length = lexical_stats.total_length + excluded.total_length
           RETURNING 1
         ),
         advanced AS (
           UPDATE sessions SET last_seq = s.last_seq + $17, updated_at = greatest(sessions.updated_at, $19) FROM s WHERE sessions.id = $1 RETURNING 1
         )
         SELECT s.namespace, s.last_seq FROM s`,
        [
          sessionId,
          ids,
          ...turnColumns(unplaced),
          lengths,
          postings.ords,
          postings.terms,
          postings.tfs,
          postings.lengths,
          unplaced.length,
          lengths.reduce((sum, n) => sum + n, 0),
          newestCreatedAt(unplaced),
        ],
        'strata_append',
      )
    )[0];
  } catch (error) {
    // an id taken: say by whom, as the transaction's check does (the statement wrote nothing)
    if (StrataError.is(error) && error.code === 'CONFLICT') await assertNewMessageIds(db, ids);
    throw error;
  }
  if (locked === undefined) missingSession(sessionId, 'append messages to it');
  const { namespace, last_seq: lastSeq } = locked;
  return unplaced.map((row, i) => toMessage({ ...row, namespace, seq: lastSeq + i + 1 }));
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
export async function insertMessages(tx: Transaction, messages: readonly StoredMessage[]): Promise<StoredMessage[]> {
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
export async function namespacesOf(tx: Queryable, sessionIds: readonly string[], lock = false): Promise<Map<string, string>> {
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

/** Inserts imported message rows with COPY; their postings are written by {@link indexTurns}. */
async function insertRows(tx: Transaction, rows: readonly MessageRow[]): Promise<void> {
  const placed = (['id', 'session_id', 'namespace', 'seq'] as const).map((key) => rows.map((row) => row[key]));
  const columns = ['id', 'session_id', 'namespace', 'seq', 'role', 'content', 'name', 'tool_calls', 'tool_call_id', 'metadata', 'created_at', 'tokens', 'token_counter'];
  await tx.copy('messages', columns, [...placed, ...turnColumns(rows)]);
}

/** The turn columns of message rows as arrays for unnest, in the order both inserts list them (role to token_counter). */
function turnColumns(rows: readonly MessageRow[]): unknown[][] {
  return (['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'metadata', 'created_at', 'tokens', 'token_counter'] as const).map((key) => rows.map((row) => row[key]));
}

/** The postings of new turns (their ids are checked new: nothing indexed to replace). */
async function indexTurns(tx: Transaction, rows: readonly MessageRow[]): Promise<void> {
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

/** The newest created_at of the rows (a loop: spread into Math.max, 100k+ rows overflow the stack). */
function newestCreatedAt(rows: readonly { created_at: number }[]): number {
  let newest = Number.NEGATIVE_INFINITY;
  for (const row of rows) newest = Math.max(newest, row.created_at);
  return newest;
}

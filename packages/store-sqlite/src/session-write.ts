import { StrataError } from '@strata/core';
import type { NewMessage, StoreOp, StoredMessage } from '@strata/core';
import { deleteRecords, putFacts, putSummaries, recordJobs } from './session-write-derived.js';
import { messageRow, sessionRow, toMessage } from './session-rows.js';
import type { MessageRow } from './session-rows.js';
import type { WriteStatements } from './session-statements.js';

/**
 * Applies one write step and returns the messages it stored. It runs inside the batch's
 * transaction and may throw half-way: the transaction then rolls everything back. Domain
 * errors are raised before SQLite would raise a constraint error, with the same messages
 * as the in-memory store.
 */
export function applyStoreOp(statements: WriteStatements, op: StoreOp): StoredMessage[] {
  switch (op.type) {
    case 'putSession':
      statements.upsertSession.run(sessionRow(op.session));
      return [];
    case 'appendMessages':
      return appendMessages(statements, op.sessionId, op.messages);
    case 'insertMessages':
      return op.messages.map((message) => insertMessage(statements, message));
    case 'putSummaries':
      putSummaries(statements, op.summaries);
      return [];
    case 'putFacts':
      putFacts(statements, op.facts);
      return [];
    case 'recordJobs':
      recordJobs(statements, op.jobs);
      return [];
    case 'delete':
      deleteRecords(statements, op);
      return [];
  }
}

function appendMessages(statements: WriteStatements, sessionId: string, messages: NewMessage[]): StoredMessage[] {
  const session = requireSession(statements, sessionId, 'append messages to it');
  // Seqs come from the session row read inside this transaction, which holds the write
  // lock (BEGIN IMMEDIATE): no other writer can take the same seq.
  let lastSeq = session.last_seq;
  let updatedAt = session.updated_at;
  const stored = messages.map((message) => {
    assertNewMessageId(statements, message.id);
    lastSeq += 1;
    updatedAt = Math.max(updatedAt, message.createdAt);
    return storeMessage(statements, messageRow(message, sessionId, session.namespace, lastSeq));
  });
  if (stored.length > 0) statements.advanceSession.run({ id: sessionId, last_seq: lastSeq, updated_at: updatedAt });
  return stored;
}

function insertMessage(statements: WriteStatements, message: StoredMessage): StoredMessage {
  const session = requireSession(statements, message.sessionId, 'insert messages into it');
  assertNewMessageId(statements, message.id);
  const taken = statements.messageAtSeq.get(message.sessionId, message.seq);
  if (taken !== undefined) {
    throw new StrataError('CONFLICT', `Seq ${message.seq} of session "${message.sessionId}" is already taken by message "${taken.id}" (inserting "${message.id}").`, {
      hint: 'insertMessages is for imports into free seqs; use appendMessages to add new turns.',
    });
  }
  // A message lives in its session's namespace, whatever the input says, so isolation holds.
  const stored = storeMessage(statements, messageRow(message, message.sessionId, session.namespace, message.seq));
  statements.raiseLastSeq.run({ id: message.sessionId, seq: message.seq });
  return stored;
}

/** Inserts the row; returns the message as a read would. */
function storeMessage(statements: WriteStatements, row: MessageRow): StoredMessage {
  statements.insertMessage.run(row);
  return toMessage(row);
}

type SessionState = NonNullable<ReturnType<WriteStatements['sessionById']['get']>>;

/** The session's row, or NOT_FOUND saying what could not be done. */
function requireSession(statements: WriteStatements, sessionId: string, action: string): SessionState {
  const session = statements.sessionById.get(sessionId);
  if (session !== undefined) return session;
  throw new StrataError('NOT_FOUND', `Session "${sessionId}" does not exist, so strata cannot ${action}.`, {
    hint: 'Create the session first with memory.sessions.create() (or a putSession step earlier in the same batch).',
  });
}

function assertNewMessageId(statements: WriteStatements, id: string): void {
  const existing = statements.messageById.get(id);
  if (existing === undefined) return;
  throw new StrataError('CONFLICT', `Message id "${id}" already exists (session "${existing.session_id}", seq ${existing.seq}).`, {
    hint: 'Message ids are unique across the store: omit the id to let strata generate one, or skip messages already stored.',
  });
}

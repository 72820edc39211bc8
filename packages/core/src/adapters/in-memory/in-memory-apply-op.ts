import type { NewMessage, StoredMessage } from '../../domain/message.js';
import type { Session } from '../../domain/session.js';
import { StrataError } from '../../errors/strata-error.js';
import type { StoreOp } from '../../ports/session-store.js';
import type { InMemoryTables } from './in-memory-tables.js';
import { messageRecord } from './in-memory-copies.js';

type DeleteOp = Extract<StoreOp, { type: 'delete' }>;

/**
 * Applies one write step to the tables and returns the messages it stored. It may throw
 * half-way; the caller runs it inside `tables.undo.run` so that a throw reverts everything.
 * Inputs are copied so that callers cannot reach stored records.
 */
export function applyStoreOp(tables: InMemoryTables, op: StoreOp): StoredMessage[] {
  switch (op.type) {
    case 'putSession':
      putSession(tables, op.session);
      return [];
    case 'appendMessages':
      return appendMessages(tables, op.sessionId, op.messages);
    case 'insertMessages':
      return op.messages.map((message) => insertMessage(tables, message));
    case 'putSummaries':
      for (const summary of op.summaries) tables.summaries.put(copyInput(summary, 'summary'));
      return [];
    case 'putFacts':
      for (const fact of op.facts) tables.facts.put(copyInput(fact, 'fact'));
      return [];
    case 'recordJobs':
      // The ledger records when a job was first applied; recording it again changes nothing.
      for (const job of op.jobs) if (!tables.jobs.has(job.key)) tables.jobs.put(copyInput(job, 'job'));
      return [];
    case 'delete':
      deleteRecords(tables, op);
      return [];
  }
}

function putSession(tables: InMemoryTables, session: Session): void {
  const stored = tables.sessions.get(session.id);
  const next = copyInput(session, 'session');
  // lastSeq never decreases, so seqs are never reused even when an old copy is written back.
  if (stored !== undefined && stored.lastSeq > next.lastSeq) next.lastSeq = stored.lastSeq;
  tables.sessions.put(next);
}

function appendMessages(tables: InMemoryTables, sessionId: string, messages: NewMessage[]): StoredMessage[] {
  const session = requireSession(tables, sessionId, 'append messages to it');
  let { lastSeq, updatedAt } = session;
  const stored = messages.map((message) => {
    assertNewMessageId(tables, message.id);
    lastSeq += 1;
    updatedAt = Math.max(updatedAt, message.createdAt);
    const input = copyInput(message, 'message');
    const row = messageRecord(input, { sessionId, namespace: session.namespace, seq: lastSeq }, input.content, input.metadata);
    tables.messages.put(row);
    return row;
  });
  if (stored.length > 0) tables.sessions.put({ ...session, lastSeq, updatedAt });
  return stored;
}

function insertMessage(tables: InMemoryTables, message: StoredMessage): StoredMessage {
  const session = requireSession(tables, message.sessionId, 'insert messages into it');
  assertNewMessageId(tables, message.id);
  const taken = tables.messageAtSeq(session.id, message.seq);
  if (taken !== undefined) {
    throw new StrataError('CONFLICT', `Seq ${message.seq} of session "${session.id}" is already taken by message "${taken.id}" (inserting "${message.id}").`, {
      hint: 'insertMessages is for imports into free seqs; use appendMessages to add new turns.',
    });
  }
  // A message lives in its session's namespace, whatever the input says, so isolation holds.
  const input = copyInput(message, 'message');
  const row = messageRecord(input, { sessionId: input.sessionId, namespace: session.namespace, seq: input.seq }, input.content, input.metadata);
  tables.messages.put(row);
  if (row.seq > session.lastSeq) tables.sessions.put({ ...session, lastSeq: row.seq });
  return row;
}

function deleteRecords(tables: InMemoryTables, op: DeleteOp): void {
  for (const id of op.sessions ?? []) deleteSession(tables, id);
  for (const id of op.messages ?? []) {
    tables.messages.delete(id);
    tables.topic.dropMessage(id);
  }
  for (const id of op.summaries ?? []) tables.summaries.delete(id);
  for (const id of op.facts ?? []) tables.facts.delete(id);
  for (const key of op.jobs ?? []) tables.jobs.delete(key);
}

/** Facts are kept: they belong to the namespace, and core trims their provenance. */
function deleteSession(tables: InMemoryTables, sessionId: string): void {
  if (tables.sessions.delete(sessionId) === undefined) return;
  for (const message of [...tables.sessionMessages(sessionId)]) {
    tables.messages.delete(message.id);
    tables.topic.dropMessage(message.id);
  }
  tables.topic.dropSession(sessionId);
  for (const summary of tables.sessionSummaries(sessionId)) tables.summaries.delete(summary.id);
  for (const job of tables.sessionJobs(sessionId)) tables.jobs.delete(job.key);
}

function requireSession(tables: InMemoryTables, sessionId: string, action: string): Session {
  const session = tables.sessions.get(sessionId);
  if (session !== undefined) return session;
  throw new StrataError('NOT_FOUND', `Session "${sessionId}" does not exist, so strata cannot ${action}.`, {
    hint: 'Create the session first with memory.sessions.create() (or a putSession step earlier in the same batch).',
  });
}

function assertNewMessageId(tables: InMemoryTables, id: string): void {
  const existing = tables.messages.get(id);
  if (existing === undefined) return;
  throw new StrataError('CONFLICT', `Message id "${id}" already exists (session "${existing.sessionId}", seq ${existing.seq}).`, {
    hint: 'Message ids are unique across the store: omit the id to let strata generate one, or skip messages already stored.',
  });
}

/** A deep copy of a caller's record; values that cannot be copied are rejected as input. */
function copyInput<T>(value: T, what: string): T {
  try {
    return structuredClone(value);
  } catch (error) {
    throw new StrataError('INVALID_INPUT', `A ${what} contains a value that cannot be stored (${String(error)}).`, {
      hint: 'Records, metadata and tool-call args must be plain data: no functions, symbols or class instances with private state.',
      cause: error,
    });
  }
}

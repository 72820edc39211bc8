// Kept in one file: every session table's row shape beside its mapping both ways, so a column is changed for reads and writes at once.
import { restoreText, StrataError } from '@strata/core';
import type { Fact, JobRecord, JobType, JobUsage, NewMessage, Role, Session, StoredMessage, Summary, SummaryLevel, ToolCall } from '@strata/core';

/*
 * Rows as the session tables hold them, and their mapping to and from strata's domain
 * records. Optional fields are NULL in a row and absent (not `undefined`) in a record, so
 * that what a read returns equals what was written, as with the in-memory store.
 */

export interface SessionRow {
  id: string;
  namespace: string;
  title: string | null;
  metadata: string;
  created_at: number;
  updated_at: number;
  last_seq: number;
}

export interface MessageRow {
  id: string;
  session_id: string;
  namespace: string;
  seq: number;
  role: string;
  content: string;
  name: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  metadata: string;
  created_at: number;
  /** Prompt tokens counted when stored, and the counter's name (both null on older rows). */
  tokens: number | null;
  token_counter: string | null;
  /** Set when the text is cold: core's compressText of it (content is then empty). */
  content_z?: Buffer | null;
}

/** A summary row; `source_ids` (a JSON array from the provenance table) only when read. */
export interface SummaryRow {
  id: string;
  session_id: string;
  namespace: string;
  level: string;
  from_seq: number;
  to_seq: number;
  text: string;
  created_at: number;
  degraded: number;
}

export interface FactRow {
  id: string;
  namespace: string;
  subject: string;
  predicate: string;
  object: string;
  text: string;
  valid_from: number;
  valid_to: number | null;
  superseded_by: string | null;
  confidence: number;
  created_at: number;
  degraded: number;
}

export interface JobRow {
  key: string;
  type: string;
  session_id: string;
  from_seq: number;
  to_seq: number;
  applied_at: number;
  /** The job's JobUsage as JSON; null when the models reported none (and on rows older than schema version 9). */
  usage: string | null;
}

/** A summary or fact row as read, with its provenance in order. */
export type WithSources<T> = T & { source_ids: string };

export function sessionRow(session: Session): SessionRow {
  return {
    id: session.id,
    namespace: session.namespace,
    title: session.title ?? null,
    metadata: toJson(session.metadata ?? {}, 'session metadata'),
    created_at: session.createdAt,
    updated_at: session.updatedAt,
    last_seq: session.lastSeq,
  };
}

export function toSession(row: SessionRow): Session {
  const session: Session = {
    id: row.id,
    namespace: row.namespace,
    metadata: parseJson<Record<string, unknown>>(row.metadata),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastSeq: row.last_seq,
  };
  if (row.title !== null) session.title = row.title;
  return session;
}

/** The row of a message placed at `seq` of a session (the session decides the namespace). */
export function messageRow(message: NewMessage, sessionId: string, namespace: string, seq: number): MessageRow {
  return {
    id: message.id,
    session_id: sessionId,
    namespace,
    seq,
    role: message.role,
    content: message.content,
    name: message.name ?? null,
    tool_calls: message.toolCalls === undefined ? null : toJson(message.toolCalls, 'message tool call'),
    tool_call_id: message.toolCallId ?? null,
    metadata: toJson(message.metadata ?? {}, 'message metadata'),
    created_at: message.createdAt,
    ...tokenColumns(message.tokens),
  };
}

/** A count that is not a whole number of tokens (an imported bundle can carry anything) is not kept: core counts again. */
function tokenColumns(tokens: NewMessage['tokens']): Pick<MessageRow, 'tokens' | 'token_counter'> {
  const isCount = tokens !== undefined && Number.isSafeInteger(tokens.count) && tokens.count >= 0 && typeof tokens.counter === 'string';
  return isCount ? { tokens: tokens.count, token_counter: tokens.counter } : { tokens: null, token_counter: null };
}

export function toMessage(row: MessageRow): StoredMessage {
  const message: StoredMessage = {
    id: row.id,
    role: row.role as Role,
    content: row.content_z ? restoreText(row.content_z) : row.content,
    createdAt: row.created_at,
    metadata: parseJson<Record<string, unknown>>(row.metadata),
    sessionId: row.session_id,
    namespace: row.namespace,
    seq: row.seq,
  };
  if (row.name !== null) message.name = row.name;
  if (row.tool_calls !== null) message.toolCalls = parseJson<ToolCall[]>(row.tool_calls);
  if (row.tool_call_id !== null) message.toolCallId = row.tool_call_id;
  if (row.tokens !== null && row.token_counter !== null) message.tokens = { counter: row.token_counter, count: row.tokens };
  return message;
}

export function summaryRow(summary: Summary): SummaryRow {
  return {
    id: summary.id,
    session_id: summary.sessionId,
    namespace: summary.namespace,
    level: summary.level,
    from_seq: summary.fromSeq,
    to_seq: summary.toSeq,
    text: summary.text,
    created_at: summary.createdAt,
    degraded: summary.degraded ? 1 : 0,
  };
}

export function toSummary(row: WithSources<SummaryRow>): Summary {
  return {
    id: row.id,
    sessionId: row.session_id,
    namespace: row.namespace,
    level: row.level as SummaryLevel,
    fromSeq: row.from_seq,
    toSeq: row.to_seq,
    text: row.text,
    sourceMessageIds: parseJson<string[]>(row.source_ids),
    createdAt: row.created_at,
    degraded: row.degraded !== 0,
  };
}

export function factRow(fact: Fact): FactRow {
  return {
    id: fact.id,
    namespace: fact.namespace,
    subject: fact.subject,
    predicate: fact.predicate,
    object: fact.object,
    text: fact.text,
    valid_from: fact.validFrom,
    // Same test as the in-memory store: a fact is current unless validTo is a number.
    valid_to: typeof fact.validTo === 'number' ? fact.validTo : null,
    superseded_by: fact.supersededBy ?? null,
    confidence: fact.confidence,
    created_at: fact.createdAt,
    degraded: fact.degraded ? 1 : 0,
  };
}

export function toFact(row: WithSources<FactRow>): Fact {
  const fact: Fact = {
    id: row.id,
    namespace: row.namespace,
    subject: row.subject,
    predicate: row.predicate,
    object: row.object,
    text: row.text,
    sourceMessageIds: parseJson<string[]>(row.source_ids),
    validFrom: row.valid_from,
    confidence: row.confidence,
    createdAt: row.created_at,
    degraded: row.degraded !== 0,
  };
  if (row.valid_to !== null) fact.validTo = row.valid_to;
  if (row.superseded_by !== null) fact.supersededBy = row.superseded_by;
  return fact;
}

export function jobRow(job: JobRecord): JobRow {
  return {
    key: job.key,
    type: job.type,
    session_id: job.sessionId,
    from_seq: job.fromSeq,
    to_seq: job.toSeq,
    applied_at: job.appliedAt,
    usage: job.usage === undefined ? null : toJson(job.usage, 'job usage'),
  };
}

export function toJob(row: JobRow): JobRecord {
  const job: JobRecord = {
    key: row.key,
    type: row.type as JobType,
    sessionId: row.session_id,
    fromSeq: row.from_seq,
    toSeq: row.to_seq,
    appliedAt: row.applied_at,
  };
  if (row.usage !== null) job.usage = parseJson<JobUsage>(row.usage);
  return job;
}

/** JSON for a column; values JSON cannot hold (BigInt, cycles) are rejected as input. */
function toJson(value: unknown, what: string): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new StrataError('INVALID_INPUT', `A ${what} contains a value that cannot be stored (${String(error)}).`, {
      hint: 'Records, metadata and tool-call args must be plain JSON data: no BigInt, cycles, functions or class instances.',
      cause: error,
    });
  }
}

function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

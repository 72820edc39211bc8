// Kept in one file: every table's row shape beside its mapping both ways, so a column is changed for reads and writes at once.
import { restoreText, StrataError } from '@strata/core';
import type { Fact, JobRecord, JobType, JobUsage, NewMessage, Role, Session, StoredMessage, Summary, SummaryLevel, TokenUsage, ToolCall, Topic, TurnLink } from '@strata/core';

/*
 * Rows as the tables hold them (bigint columns read as numbers, see database.ts), and their
 * mapping to and from strata's records. Optional fields are NULL in a row and absent (not
 * `undefined`) in a record, so that what a read returns equals what was written.
 */

/**
 * PostgreSQL text cannot hold U+0000, which users may type and strata keeps exactly. Free text
 * is stored with U+0000 written as U+FFFF "0" and U+FFFF itself as U+FFFF "1" (a noncharacter,
 * so text rarely holds it): reversible, and the identity for text holding neither. JSON columns
 * need nothing: JSON escapes U+0000.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is the character PostgreSQL text cannot hold, found here to escape it
const TO_ESCAPE = /[\u0000\uFFFF]/;
export function storedText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is the character PostgreSQL text cannot hold, replaced here by its escape
  return TO_ESCAPE.test(text) ? text.replace(/[\u0000\uFFFF]/g, (c) => (c === '\u0000' ? '\uFFFF0' : '\uFFFF1')) : text;
}

/** The text {@link storedText} stored. */
export function readText(text: string): string {
  return text.includes('\uFFFF') ? text.replace(/\uFFFF([01])/g, (_, code: string) => (code === '0' ? '\u0000' : '\uFFFF')) : text;
}

/** {@link storedText} of an optional value. */
export function storedOptional(text: string | undefined): string | null {
  return text === undefined ? null : storedText(text);
}

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
  tokens: number | null;
  token_counter: string | null;
  /** Set when the text is cold: core's compressText of it (content is then empty). */
  content_z?: Buffer | null;
}

export interface SummaryRow {
  id: string;
  session_id: string;
  namespace: string;
  level: string;
  from_seq: number;
  to_seq: number;
  text: string;
  created_at: number;
  degraded: boolean;
  /** Provenance in order (read only). */
  source_ids?: string[];
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
  degraded: boolean;
  source_ids?: string[];
}

export interface JobRow {
  key: string;
  type: string;
  session_id: string;
  from_seq: number;
  to_seq: number;
  applied_at: number;
  /** The JSONB column as the driver parses it: {@link storedUsage}'s value, null when the models reported none. */
  usage: JobUsage | null;
}

export interface TopicRow {
  id: string;
  session_id: string;
  namespace: string;
  title: string;
  importance: number;
  access_count: number;
  last_active_at: number;
  created_at: number;
  centroid: Buffer;
  vector_count: number;
  cold_since: number | null;
}

export interface LinkRow {
  message_id: string;
  session_id: string;
  namespace: string;
  seq: number;
  role: string;
  parent_id: string | null;
  topic_id: string;
}

export function toSession(row: SessionRow): Session {
  const session: Session = {
    id: row.id,
    namespace: row.namespace,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastSeq: row.last_seq,
  };
  if (row.title !== null) session.title = readText(row.title);
  return session;
}

/** The row of a message placed at `seq` of a session (the session decides the namespace). */
export function messageRow(message: NewMessage, sessionId: string, namespace: string, seq: number): MessageRow {
  const tokens = message.tokens;
  // a count that is not a whole number of tokens (an imported bundle can carry anything) is not kept: core counts again
  const isCount = tokens !== undefined && Number.isSafeInteger(tokens.count) && tokens.count >= 0 && typeof tokens.counter === 'string';
  return {
    id: message.id,
    session_id: sessionId,
    namespace,
    seq,
    role: message.role,
    content: storedText(message.content),
    name: storedOptional(message.name),
    tool_calls: message.toolCalls === undefined ? null : toJson(message.toolCalls, 'message tool call'),
    tool_call_id: storedOptional(message.toolCallId),
    metadata: toJson(message.metadata ?? {}, 'message metadata'),
    created_at: message.createdAt,
    tokens: isCount ? tokens.count : null,
    token_counter: isCount ? tokens.counter : null,
  };
}

export function toMessage(row: MessageRow): StoredMessage {
  const message: StoredMessage = {
    id: row.id,
    role: row.role as Role,
    content: row.content_z ? restoreText(row.content_z) : readText(row.content),
    createdAt: row.created_at,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    sessionId: row.session_id,
    namespace: row.namespace,
    seq: row.seq,
  };
  if (row.name !== null) message.name = readText(row.name);
  if (row.tool_calls !== null) message.toolCalls = JSON.parse(row.tool_calls) as ToolCall[];
  if (row.tool_call_id !== null) message.toolCallId = readText(row.tool_call_id);
  if (row.tokens !== null && row.token_counter !== null) message.tokens = { counter: row.token_counter, count: row.tokens };
  return message;
}

export function toSummary(row: SummaryRow): Summary {
  return {
    id: row.id,
    sessionId: row.session_id,
    namespace: row.namespace,
    level: row.level as SummaryLevel,
    fromSeq: row.from_seq,
    toSeq: row.to_seq,
    text: readText(row.text),
    sourceMessageIds: row.source_ids ?? [],
    createdAt: row.created_at,
    degraded: row.degraded,
  };
}

export function toFact(row: FactRow): Fact {
  const fact: Fact = {
    id: row.id,
    namespace: row.namespace,
    subject: readText(row.subject),
    predicate: readText(row.predicate),
    object: readText(row.object),
    text: readText(row.text),
    sourceMessageIds: row.source_ids ?? [],
    validFrom: row.valid_from,
    confidence: row.confidence,
    createdAt: row.created_at,
    degraded: row.degraded,
  };
  if (row.valid_to !== null) fact.validTo = row.valid_to;
  if (row.superseded_by !== null) fact.supersededBy = row.superseded_by;
  return fact;
}

export function toJob(row: JobRow): JobRecord {
  const job: JobRecord = { key: row.key, type: row.type as JobType, sessionId: row.session_id, fromSeq: row.from_seq, toSeq: row.to_seq, appliedAt: row.applied_at };
  if (row.usage !== null) job.usage = readUsage(row.usage);
  return job;
}

/** A lone UTF-16 surrogate: the driver writes U+FFFD for one in a text column; JSONB refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A job's usage as JSONB input. JSONB, unlike the text columns, refuses U+0000 and lone
 * surrogates in its strings; model names (its only strings) are free text, so they are stored
 * as {@link storedText}, a lone surrogate as U+FFFD (what a text column would keep of it).
 */
export function storedUsage(usage: JobUsage | undefined): string | null {
  if (usage === undefined) return null;
  const byModel = usage.byModel;
  if (byModel === undefined) return toJson(usage, 'job usage');
  const names = Object.entries(byModel).map(([model, part]) => [storedText(model.replace(LONE_SURROGATE, '\uFFFD')), part]);
  // fromEntries defines each name as an own property, so a model named `__proto__` is kept as one
  return toJson({ ...usage, byModel: Object.fromEntries(names) }, 'job usage');
}

/** The usage {@link storedUsage} stored, its fields back in their domain order (JSONB orders keys by length). */
function readUsage(stored: JobUsage): JobUsage {
  const usage: JobUsage = tokenUsage(stored);
  if (stored.byModel !== undefined) usage.byModel = Object.fromEntries(Object.entries(stored.byModel).map(([model, part]) => [readText(model), tokenUsage(part)]));
  return usage;
}

function tokenUsage(stored: TokenUsage): TokenUsage {
  return { inputTokens: stored.inputTokens, outputTokens: stored.outputTokens, calls: stored.calls };
}

/** A centroid as float64 bytes: a read returns exactly the values written. */
export function centroidBytes(topic: Topic): Buffer {
  const floats = new Float64Array(topic.centroid);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}

export function toTopic(row: TopicRow): Topic {
  const copy = Uint8Array.from(row.centroid);
  const topic: Topic = {
    id: row.id,
    sessionId: row.session_id,
    namespace: row.namespace,
    title: readText(row.title),
    importance: row.importance,
    accessCount: row.access_count,
    lastActiveAt: row.last_active_at,
    createdAt: row.created_at,
    centroid: [...new Float64Array(copy.buffer, 0, copy.byteLength / 8)],
    vectorCount: row.vector_count,
  };
  if (row.cold_since !== null) topic.coldSince = row.cold_since;
  return topic;
}

export function toLink(row: LinkRow): TurnLink {
  return { messageId: row.message_id, sessionId: row.session_id, namespace: row.namespace, seq: row.seq, role: row.role as Role, parentId: row.parent_id, topicId: row.topic_id };
}

/** JSON for a column; values JSON cannot hold (BigInt, cycles) are rejected as input. */
export function toJson(value: unknown, what: string): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new StrataError('INVALID_INPUT', `A ${what} contains a value that cannot be stored (${String(error)}).`, {
      hint: 'Records, metadata and tool-call args must be plain JSON data: no BigInt, cycles, functions or class instances.',
      cause: error,
    });
  }
}

/** Of records given more than once by key, the last: what putting them one after another leaves. */
export function lastOfEach<T>(records: readonly T[], key: (record: T) => string): T[] {
  return [...new Map(records.map((record) => [key(record), record])).values()];
}

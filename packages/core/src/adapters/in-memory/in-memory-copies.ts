import type { Fact, JobRecord, JobUsage, Summary, TokenUsage } from '../../domain/derived.js';
import type { NewMessage, StoredMessage } from '../../domain/message.js';
import type { Session } from '../../domain/session.js';

/*
 * Copies of stored records for the in-memory store's reads, so callers never share objects
 * with it. Records have a known shape: their fields are spread and their arrays sliced, and
 * only the caller-defined parts (metadata, tool-call args) are walked. structuredClone did the
 * same job generically; it serializes every record through V8's clone format and was a third
 * of a getContext's time over a 100k-turn session (profiled: the facts and messages reads).
 */

/** Nesting past which a value is handed to structuredClone (which also copies cycles). */
const MAX_DEPTH = 64;
const TOO_DEEP = Symbol('too deep');

/**
 * A deep copy of caller-defined data. Stored values were structured-cloned on write, so
 * anything that is not a plain object or array (a Date, a Map, a typed array) is copied by
 * structuredClone, and so is the whole value when it nests deeper than {@link MAX_DEPTH}
 * (which is how a cycle shows).
 */
export function copyData<T>(value: T): T {
  try {
    return copyAt(value, 0) as T;
  } catch (error) {
    if (error === TOO_DEEP) return structuredClone(value);
    throw error;
  }
}

function copyAt(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) throw TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => copyAt(item, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyAt((value as Record<string, unknown>)[key], depth + 1);
  return out;
}

/** Metadata is `{}` on most records: no walk then. */
function copyMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  for (const _key in metadata) return copyData(metadata);
  return {};
}

/*
 * Records are built field by field, in one order, never by spreading a record and adding or
 * overriding fields: V8 reads and copies objects made that way far slower (measured on 100k
 * message rows: 1.7 µs per copy of a spread-made row, 71 ns of one built like this), and every
 * read of the store and everything downstream of it paid that. `*_FIELDS` name every field, so
 * the compiler says when a record type gains one that a builder leaves out.
 */

const MESSAGE_FIELDS = {
  id: true,
  sessionId: true,
  namespace: true,
  seq: true,
  role: true,
  content: true,
  name: true,
  toolCalls: true,
  toolCallId: true,
  createdAt: true,
  metadata: true,
  tokens: true,
} satisfies Record<keyof StoredMessage, true>;

/**
 * A message row built field by field (see above), placed `at` its session, namespace and seq,
 * with `content` and `metadata` as given and the tool calls and token count copied. Fields the record type does not have are left out.
 */
export function messageRecord(message: NewMessage, at: Pick<StoredMessage, 'sessionId' | 'namespace' | 'seq'>, content: string, metadata: Record<string, unknown>): StoredMessage {
  const row: StoredMessage = {
    id: message.id,
    sessionId: at.sessionId,
    namespace: at.namespace,
    seq: at.seq,
    role: message.role,
    content,
    createdAt: message.createdAt,
    metadata,
  };
  if (message.name !== undefined) row.name = message.name;
  if (message.toolCalls !== undefined) row.toolCalls = message.toolCalls.map((call) => ({ id: call.id, name: call.name, args: copyData(call.args) }));
  if (message.toolCallId !== undefined) row.toolCallId = message.toolCallId;
  if (message.tokens !== undefined) row.tokens = { counter: message.tokens.counter, count: message.tokens.count };
  return row;
}

/** The names of a stored message's fields, as {@link messageRecord} copies them. */
export const messageFields = Object.keys(MESSAGE_FIELDS) as (keyof StoredMessage)[];

export function copyMessage(message: StoredMessage, content: string = message.content): StoredMessage {
  return messageRecord(message, message, content, copyMetadata(message.metadata));
}

export function copySession(session: Session): Session {
  return { ...session, metadata: copyMetadata(session.metadata) };
}

const SUMMARY_FIELDS = {
  id: true,
  sessionId: true,
  namespace: true,
  level: true,
  fromSeq: true,
  toSeq: true,
  text: true,
  sourceMessageIds: true,
  createdAt: true,
  degraded: true,
} satisfies Record<keyof Summary, true>;

/** The names of a summary's fields, as {@link copySummary} copies them. */
export const summaryFields = Object.keys(SUMMARY_FIELDS) as (keyof Summary)[];

export function copySummary(summary: Summary): Summary {
  return {
    id: summary.id,
    sessionId: summary.sessionId,
    namespace: summary.namespace,
    level: summary.level,
    fromSeq: summary.fromSeq,
    toSeq: summary.toSeq,
    text: summary.text,
    sourceMessageIds: summary.sourceMessageIds.slice(),
    createdAt: summary.createdAt,
    degraded: summary.degraded,
  };
}

const FACT_FIELDS = {
  id: true,
  namespace: true,
  subject: true,
  predicate: true,
  object: true,
  text: true,
  sourceMessageIds: true,
  validFrom: true,
  validTo: true,
  supersededBy: true,
  confidence: true,
  createdAt: true,
  degraded: true,
} satisfies Record<keyof Fact, true>;

/** The names of a fact's fields, as {@link copyFact} copies them. */
export const factFields = Object.keys(FACT_FIELDS) as (keyof Fact)[];

export function copyFact(fact: Fact): Fact {
  const copy: Fact = {
    id: fact.id,
    namespace: fact.namespace,
    subject: fact.subject,
    predicate: fact.predicate,
    object: fact.object,
    text: fact.text,
    sourceMessageIds: fact.sourceMessageIds.slice(),
    validFrom: fact.validFrom,
    confidence: fact.confidence,
    createdAt: fact.createdAt,
    degraded: fact.degraded,
  };
  if (fact.validTo !== undefined) copy.validTo = fact.validTo;
  if (fact.supersededBy !== undefined) copy.supersededBy = fact.supersededBy;
  return copy;
}

const JOB_FIELDS = {
  key: true,
  type: true,
  sessionId: true,
  fromSeq: true,
  toSeq: true,
  appliedAt: true,
  usage: true,
} satisfies Record<keyof JobRecord, true>;

/** The names of a job record's fields, as {@link copyJob} copies them. */
export const jobFields = Object.keys(JOB_FIELDS) as (keyof JobRecord)[];

export function copyJob(job: JobRecord): JobRecord {
  const copy: JobRecord = { key: job.key, type: job.type, sessionId: job.sessionId, fromSeq: job.fromSeq, toSeq: job.toSeq, appliedAt: job.appliedAt };
  if (job.usage !== undefined) copy.usage = copyUsage(job.usage);
  return copy;
}

function copyUsage(usage: JobUsage): JobUsage {
  const copy: JobUsage = copyTokens(usage);
  // fromEntries defines each name as an own property, so a model named `__proto__` is copied as one
  if (usage.byModel !== undefined) copy.byModel = Object.fromEntries(Object.entries(usage.byModel).map(([model, part]) => [model, copyTokens(part)]));
  return copy;
}

function copyTokens(usage: TokenUsage): TokenUsage {
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, calls: usage.calls };
}

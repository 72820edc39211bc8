import type { Fact, JobRecord, Summary } from '../domain/derived.js';
import type { StoredMessage } from '../domain/message.js';
import type { Session } from '../domain/session.js';

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

export function copyMessage(message: StoredMessage, content: string = message.content): StoredMessage {
  const copy: StoredMessage = { ...message, content, metadata: copyMetadata(message.metadata) };
  if (message.toolCalls !== undefined) copy.toolCalls = message.toolCalls.map((call) => ({ ...call, args: copyData(call.args) }));
  if (message.tokens !== undefined) copy.tokens = { ...message.tokens };
  return copy;
}

export function copySession(session: Session): Session {
  return { ...session, metadata: copyMetadata(session.metadata) };
}

export function copySummary(summary: Summary): Summary {
  return { ...summary, sourceMessageIds: summary.sourceMessageIds.slice() };
}

export function copyFact(fact: Fact): Fact {
  return { ...fact, sourceMessageIds: fact.sourceMessageIds.slice() };
}

export function copyJob(job: JobRecord): JobRecord {
  return { ...job };
}

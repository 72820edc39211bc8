import { StrataError } from '@strata/core';
import type { Fact, JobRecord, LexicalIndex, NewMessage, Session, SessionStore, StoredMessage, StrataErrorCode, Summary } from '@strata/core';

/** Declares one contract test (or a skipped one, when the adapter lists it). */
export type Define = (title: string, body: () => Promise<void>) => void;

/** The store of the running test; a fresh, empty one for each test. */
export type CurrentStore = () => SessionStore;

/** The lexical index over the running test's store (for the bundled stores, the store itself). */
export type CurrentLexical = () => LexicalIndex;

/** A fixed epoch so that every timestamp in the suite is deterministic. */
export const T0 = Date.UTC(2024, 0, 1);

export function session(id: string, overrides: Partial<Session> = {}): Session {
  return { id, namespace: 'ns-a', metadata: {}, createdAt: T0, updatedAt: T0, lastSeq: 0, ...overrides };
}

export function message(id: string, content: string, overrides: Partial<NewMessage> = {}): NewMessage {
  return { id, role: 'user', content, createdAt: T0 + 1_000, metadata: {}, ...overrides };
}

export function storedMessage(id: string, sessionId: string, seq: number, content: string, overrides: Partial<StoredMessage> = {}): StoredMessage {
  return { ...message(id, content), sessionId, namespace: 'ns-a', seq, ...overrides };
}

export function summary(id: string, sessionId: string, range: [number, number], text: string, overrides: Partial<Summary> = {}): Summary {
  return {
    id,
    sessionId,
    namespace: 'ns-a',
    level: 'batch',
    fromSeq: range[0],
    toSeq: range[1],
    text,
    sourceMessageIds: [],
    createdAt: T0 + 5_000,
    degraded: false,
    ...overrides,
  };
}

export function fact(id: string, subject: string, predicate: string, object: string, overrides: Partial<Fact> = {}): Fact {
  return {
    id,
    namespace: 'ns-a',
    subject,
    predicate,
    object,
    text: `${subject} ${predicate} ${object}`,
    sourceMessageIds: [],
    validFrom: T0,
    confidence: 0.9,
    createdAt: T0,
    degraded: false,
    ...overrides,
  };
}

export function job(key: string, sessionId: string, range: [number, number], overrides: Partial<JobRecord> = {}): JobRecord {
  return { key, type: 'summarize', sessionId, fromSeq: range[0], toSeq: range[1], appliedAt: T0 + 9_000, ...overrides };
}

/** Creates a session and appends one message per content string (ids `<session>-m1`, ...). */
export async function seedSession(store: SessionStore, sessionId: string, contents: string[], namespace = 'ns-a'): Promise<StoredMessage[]> {
  const messages = contents.map((content, i) => message(`${sessionId}-m${i + 1}`, content));
  const receipt = await store.write({
    ops: [
      { type: 'putSession', session: session(sessionId, { namespace }) },
      { type: 'appendMessages', sessionId, messages },
    ],
  });
  return receipt.messages;
}

/** Awaits a call that must fail with a StrataError of `code`, and returns that error. */
export async function expectStrataError(call: Promise<unknown>, code: StrataErrorCode): Promise<StrataError> {
  try {
    await call;
  } catch (error) {
    if (StrataError.is(error, code)) return error;
    throw new Error(`expected StrataError ${code}, got ${String(error)}`, { cause: error });
  }
  throw new Error(`expected StrataError ${code}, but the call succeeded`);
}

export const idsOf = (rows: readonly { id: string }[]): string[] => rows.map((row) => row.id);

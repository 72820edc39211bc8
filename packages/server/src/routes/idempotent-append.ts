import { createHash } from 'node:crypto';
import { type MemoryApi, type MessageInput, type StoredMessage, StrataError } from '@strata/core';

/** What an append answered: the stored messages, and whether an earlier request with the same Idempotency-Key had stored them. */
export interface AppendOutcome {
  messages: StoredMessage[];
  replayed: boolean;
}

/**
 * The id of the `index`-th message of an append with this Idempotency-Key: the same in every
 * process and after a restart, so that a retry collides with what the first attempt stored
 * instead of storing it again. The key id keeps two callers' keys apart.
 */
export function idempotentMessageId(keyId: string, sessionId: string, idempotencyKey: string, index: number): string {
  return `msg_${createHash('sha256')
    .update(JSON.stringify([keyId, sessionId, idempotencyKey, index]))
    .digest('base64url')
    .slice(0, 22)}`;
}

/** The stored messages with the ids of `inputs`, in their order, when each has the same role and content; else null. */
async function storedAs(memory: MemoryApi, sessionId: string, inputs: MessageInput[]): Promise<StoredMessage[] | null> {
  const wanted = new Set(inputs.map((m) => m.id));
  const byId = new Map((await memory.messages(sessionId)).filter((m) => wanted.has(m.id)).map((m) => [m.id, m]));
  const stored = inputs.map((m) => byId.get(m.id as string));
  const same = stored.every((m, i) => m !== undefined && m.role === inputs[i]!.role && m.content === inputs[i]!.content);
  return same ? (stored as StoredMessage[]) : null;
}

/** The CONFLICT of an append, without the memory's words, which may name a session of another tenant holding the id. */
function idTaken(cause: unknown): StrataError {
  return new StrataError('CONFLICT', 'a message id of this append is stored already', {
    hint: 'Omit the ids to let strata generate them, or skip the messages stored already.',
    cause,
  });
}

/**
 * Appends `messages` to the session. With an Idempotency-Key, messages without an id get the
 * ids the key derives; when they are stored already (a retry, a duplicate in flight) with the
 * same role and content, the stored ones are answered as a replay, and with other content the
 * key was reused for another body: CONFLICT.
 */
export async function appendOnce(memory: MemoryApi, keyId: string, sessionId: string, messages: MessageInput[], idempotencyKey: string | undefined): Promise<AppendOutcome> {
  const inputs = idempotencyKey === undefined ? messages : messages.map((m, i) => (m.id === undefined ? { ...m, id: idempotentMessageId(keyId, sessionId, idempotencyKey, i) } : m));
  try {
    return { messages: await memory.append(sessionId, inputs), replayed: false };
  } catch (error) {
    if (!StrataError.is(error, 'CONFLICT')) throw error;
    if (idempotencyKey === undefined) throw idTaken(error);
    const stored = await storedAs(memory, sessionId, inputs);
    if (stored) return { messages: stored, replayed: true };
    throw new StrataError('CONFLICT', 'this Idempotency-Key was used for another body on this session (or a message id of this append is taken)', {
      hint: 'Send a new Idempotency-Key with each new append; repeat a key only to retry the very same request.',
      cause: error,
    });
  }
}

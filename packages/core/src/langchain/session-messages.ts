import { StrataError } from '../errors/strata-error.js';
import type { Memory } from '../services/memory.js';

/**
 * Creates the session when it does not exist yet and a namespace says where it belongs;
 * without a namespace an unknown session stays an error (NOT_FOUND on first use).
 */
export async function ensureSession(memory: Memory, sessionId: string, namespace: string | undefined): Promise<void> {
  if (namespace === undefined || (await memory.sessions.get(sessionId))) return;
  try {
    await memory.sessions.create({ namespace, id: sessionId });
  } catch (error) {
    // Two first uses racing: the other one created it, which is all we wanted.
    if (!StrataError.is(error, 'CONFLICT')) throw error;
  }
}

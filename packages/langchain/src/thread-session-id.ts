import { createHash } from 'node:crypto';
import { nameProblem } from '@strata/core';

/** Longest id strata takes for a session it creates. */
const MAX_ID_LENGTH = 256;

/**
 * The strata session id of a LangGraph thread: the thread id itself when strata accepts it as
 * an id (at most 256 characters, no surrounding or invisible whitespace, NFC), else `thread-`
 * and 32 hex digits of its SHA-256, so the same thread always maps to the same session.
 * @example
 * const session = await memory.sessions.get(sessionIdForThread(config.configurable.thread_id));
 */
export function sessionIdForThread(threadId: string): string {
  if (threadId.length > 0 && threadId.length <= MAX_ID_LENGTH && nameProblem(threadId) === undefined) return threadId;
  return `thread-${createHash('sha256').update(threadId, 'utf8').digest('hex').slice(0, 32)}`;
}

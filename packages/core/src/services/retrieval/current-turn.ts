import type { StoredMessage } from '../../domain/message.js';
import type { Session } from '../../domain/session.js';
import type { MemoryDeps } from '../deps.js';
import { readableOnly, type SkippedRecord } from './readable.js';

/** Turns read per step while looking back for the newest user turn. */
const CHUNK = 32;
/**
 * How far back the newest user turn is looked for. A turn in progress longer than this (an
 * agent looping on tools) keeps its newest turns; the rest stays reachable through search.
 */
const MAX_TURN_MESSAGES = 256;

/**
 * The current turn of a session: its newest user turn and every turn stored after it (the
 * tool calls and results of the turn in progress), oldest first. Read from the newest turns
 * that `recent` (the immediate tier, newest last) already holds when it reaches back that
 * far (those were checked readable already); else from the store, a chunk at a time, because a
 * summary may already cover the user turn, keeping the readable ones (the others go to `skipped`).
 * Empty when the session has no user turn within reach.
 */
export async function loadCurrentTurn(deps: MemoryDeps, session: Session, recent: readonly StoredMessage[], skipped: SkippedRecord[]): Promise<StoredMessage[]> {
  const fromRecent = suffixFromLastUser(recent);
  if (fromRecent && recent[recent.length - 1]?.seq === session.lastSeq && isContiguous(fromRecent)) return fromRecent;
  const read: StoredMessage[] = [];
  let toSeq = session.lastSeq;
  while (toSeq >= 1 && read.length < MAX_TURN_MESSAGES) {
    const chunk = await deps.store.messages({ sessionId: session.id, toSeq, last: CHUNK });
    if (!chunk.length) break;
    read.unshift(...chunk);
    const found = suffixFromLastUser(read);
    if (found) return readableOnly('turn', found, skipped);
    toSeq = (chunk[0]?.seq ?? 1) - 1;
  }
  return [];
}

function suffixFromLastUser(messages: readonly StoredMessage[]): StoredMessage[] | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return messages.slice(i);
  return undefined;
}

/** No summary-covered turn was left out in between (recent holds uncovered turns only). */
function isContiguous(messages: readonly StoredMessage[]): boolean {
  return messages.every((m, i) => i === 0 || m.seq === (messages[i - 1]?.seq ?? 0) + 1);
}

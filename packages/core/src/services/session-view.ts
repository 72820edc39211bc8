import type { Summary } from '../domain/derived.js';
import type { StoredMessage } from '../domain/message.js';
import type { Session } from '../domain/session.js';
import { isCovered, type SeqRange } from '../engine/coverage.js';
import type { MemoryDeps } from './deps.js';

/** What the working and immediate tiers of one session hold right now. */
export interface SessionView {
  session: Session;
  synopsis?: Summary;
  /** Batch summaries after the synopsis, oldest first. */
  summaries: Summary[];
  /** Turns not covered by an applied summary: the immediate tier, oldest first. */
  uncovered: StoredMessage[];
  /** Highest seq up to which every turn is covered by an applied summary. */
  watermark: number;
}

/** The highest seq reached by ranges chained without a gap from `start` (ranges in any order). */
function coveredThrough(start: number, ranges: readonly SeqRange[]): number {
  let reach = start;
  for (const range of [...ranges].sort((a, b) => a.fromSeq - b.fromSeq)) {
    if (range.fromSeq > reach + 1) break;
    reach = Math.max(reach, range.toSeq);
  }
  return reach;
}

/**
 * Reads the tiers of one session. Only summaries after the synopsis and turns after what they
 * cover are read, so the cost is bounded by the working tier's size, not by the session's length.
 */
export async function loadSessionView(deps: MemoryDeps, session: Session): Promise<SessionView> {
  const { store } = deps;
  const synopses = await store.summaries({ sessionId: session.id, level: 'synopsis' });
  const synopsis = synopses.reduce<Summary | undefined>((best, s) => (!best || s.toSeq > best.toSeq ? s : best), undefined);
  const from = synopsis ? synopsis.toSeq + 1 : 1;
  const summaries = await store.summaries({ sessionId: session.id, level: 'batch', minToSeq: from });
  const after = summaries.filter((s) => s.fromSeq >= from);
  const ranges: SeqRange[] = after.map((s) => ({ fromSeq: s.fromSeq, toSeq: s.toSeq }));
  // Turns up to the end of the summaries' contiguous run are covered: read only after it, so
  // the cost follows the immediate tier, not how far consolidation lags behind.
  const messages = await store.messages({ sessionId: session.id, fromSeq: coveredThrough(from - 1, ranges) + 1 });
  const uncovered = messages.filter((m) => !isCovered(m.seq, ranges));
  const first = uncovered[0];
  return {
    session,
    ...(synopsis ? { synopsis } : {}),
    summaries: after,
    uncovered,
    watermark: first ? first.seq - 1 : session.lastSeq,
  };
}

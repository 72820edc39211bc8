import type { Summary } from '../domain/derived.js';
import type { StoredMessage } from '../domain/message.js';
import type { Session } from '../domain/session.js';
import { isCovered, type SeqRange } from '../engine/derivation/coverage.js';
import type { MemoryDeps } from './deps.js';
import { turnTokens } from './turn-tokens.js';

/** Turns read per step when only the newest uncovered turns are wanted. */
const WINDOW_CHUNK = 32;

/** What the working and immediate tiers of one session hold right now. */
export interface SessionView {
  session: Session;
  synopsis?: Summary;
  /** Batch summaries after the synopsis, oldest first. */
  summaries: Summary[];
  /** Turns not covered by an applied summary (the immediate tier), oldest first: the newest ones a context of `recentTokens` can hold. */
  uncovered: StoredMessage[];
  /**
   * How many turns no applied summary covers. Exact when `uncovered` holds them all; past a
   * window, the unread part is counted by seq (a forgotten turn's seq still counts there).
   */
  uncoveredCount: number;
  /** Highest seq up to which every turn is covered by an applied summary. */
  watermark: number;
  /** Uncovered turns up to this seq were not read (0 when `uncovered` holds them all). */
  unreadThroughSeq: number;
}

/** The highest seq reached by ranges chained without a gap from `start` (ranges in any order). */
export function chainedThrough(start: number, ranges: readonly SeqRange[]): number {
  let reach = start;
  for (const range of [...ranges].sort((a, b) => a.fromSeq - b.fromSeq)) {
    if (range.fromSeq > reach + 1) break;
    reach = Math.max(reach, range.toSeq);
  }
  return reach;
}

/** The working tier of a session: its synopsis, the batch summaries after it, and how far they reach without a gap. */
export interface WorkingTier {
  synopsis?: Summary;
  /** Batch summaries after the synopsis, oldest first. */
  summaries: Summary[];
  /** Highest seq the synopsis and the summaries reach without a gap. */
  coveredThrough: number;
}

/** Reads the working tier of one session (two reads, bounded by the tier's size). */
export async function loadWorkingTier(deps: MemoryDeps, session: Session): Promise<WorkingTier> {
  const { store } = deps;
  const synopses = await store.summaries({ sessionId: session.id, level: 'synopsis' });
  const synopsis = synopses.reduce<Summary | undefined>((best, s) => (!best || s.toSeq > best.toSeq ? s : best), undefined);
  const from = synopsis ? synopsis.toSeq + 1 : 1;
  const summaries = (await store.summaries({ sessionId: session.id, level: 'batch', minToSeq: from })).filter((s) => s.fromSeq >= from);
  return { ...(synopsis ? { synopsis } : {}), summaries, coveredThrough: chainedThrough(from - 1, summaries) };
}

/**
 * Reads the tiers of one session for a context of `recentTokens`. Only summaries after the
 * synopsis are read, and uncovered turns newest first, a chunk at a time, only until they hold
 * that many tokens: recent turns stay contiguous in a context, so older ones could not be
 * shown. The cost follows the working tier and the budget; a backlog of turns not yet
 * summarized is never enumerated (those turns stay reachable through search).
 */
export async function loadSessionView(deps: MemoryDeps, session: Session, recentTokens: number): Promise<SessionView> {
  // The newest chunk is read beside the working tier, not after it (one round trip less on a
  // networked store): its turns past the covered run are what a read from there returns.
  const [{ synopsis, summaries, coveredThrough }, newest] = await Promise.all([
    loadWorkingTier(deps, session),
    session.lastSeq > 0 ? deps.store.messages({ sessionId: session.id, toSeq: session.lastSeq, last: WINDOW_CHUNK }) : Promise.resolve([]),
  ]);
  const ranges: SeqRange[] = summaries.map((s) => ({ fromSeq: s.fromSeq, toSeq: s.toSeq }));
  const isUncovered = (m: StoredMessage): boolean => !isCovered(m.seq, ranges);
  const base = { session, ...(synopsis ? { synopsis } : {}), summaries };
  const window: StoredMessage[][] = [];
  let tokens = 0;
  let toSeq = session.lastSeq;
  let isComplete = false;
  while (toSeq > coveredThrough) {
    const chunk =
      toSeq === session.lastSeq ? newest.filter((m) => m.seq > coveredThrough) : await deps.store.messages({ sessionId: session.id, fromSeq: coveredThrough + 1, toSeq, last: WINDOW_CHUNK });
    const kept = chunk.filter(isUncovered);
    window.unshift(kept);
    const first = chunk[0];
    if (chunk.length < WINDOW_CHUNK || first === undefined) {
      isComplete = true;
      break;
    }
    // Tokens are counted only when there is more to read: a summarized session's immediate
    // tier fits in one chunk, and its turns are counted once, by the context's items.
    for (const m of kept) tokens += turnTokens(deps, m);
    toSeq = first.seq - 1;
    if (tokens >= recentTokens) break;
  }
  if (toSeq <= coveredThrough) isComplete = true;
  const uncovered = window.flat();
  if (isComplete) return { ...base, uncovered, uncoveredCount: uncovered.length, watermark: watermarkOf(uncovered, session), unreadThroughSeq: 0 };
  // Seqs between the covered run and the window, less those later summaries cover.
  const unread = toSeq - coveredThrough - ranges.reduce((sum, r) => sum + Math.max(0, Math.min(r.toSeq, toSeq) - Math.max(r.fromSeq, coveredThrough + 1) + 1), 0);
  return { ...base, uncovered, uncoveredCount: uncovered.length + unread, watermark: coveredThrough, unreadThroughSeq: toSeq };
}

function watermarkOf(uncovered: readonly StoredMessage[], session: Session): number {
  const first = uncovered[0];
  return first ? first.seq - 1 : session.lastSeq;
}

import type { DerivationStats } from './derivation-stats.js';
import type { PendingJob } from '../../domain/retrieval.js';
import type { MemoryDeps } from '../deps.js';

/**
 * How far derivation of the sessions a flush follows has come. A turn counts as derived once
 * the ingest job covering it (embedding and fact extraction, which every turn gets) has been
 * applied; summaries and synopsis updates ride on the same slices and are counted in
 * `pendingJobs` until they land.
 */
export interface DerivationProgress {
  /** Turns of the followed sessions covered by applied ingest. Never decreases within one flush. */
  derivedTurns: number;
  /** Turns stored in the followed sessions. Never decreases within one flush; `derivedTurns <= totalTurns`. */
  totalTurns: number;
  /** Jobs queued or running (ingest, summaries and consolidations of every session). */
  pendingJobs: number;
  /** Jobs that failed for good; their turns stay short of `totalTurns`. */
  failedJobs: number;
  /** Sessions followed: those with derivation pending when the flush started or while it ran. */
  sessions: number;
  /** True on the last event only, sent when the flush is about to resolve. */
  done: boolean;
}

/** Called with each progress event of a flush. A listener that throws fails the flush, once derivation has settled. */
export type DerivationProgressListener = (progress: DerivationProgress) => void;

/** Options of `memory.flush()`; see `flushSchema` for the rules and defaults. */
export interface FlushOptions {
  /** Called with each progress event while derivation catches up. */
  onProgress?: DerivationProgressListener;
  /**
   * How often progress is measured while `onProgress` is set, in ms (10 to 60000).
   * @defaultValue 200
   */
  progressIntervalMs?: number;
}

/** What `memory.flush()` left: nothing, unless jobs failed for good or it gave up. */
export interface FlushReport {
  /**
   * False when flush gave up with jobs still queued or running (after 100 rounds of applies
   * that kept planning more): call it again, or follow `pending`.
   */
  settled: boolean;
  /** Jobs not applied when it returned: failed for good (state `failed`), or still queued or running. */
  pending: PendingJob[];
  /**
   * What this memory counted while the flush ran (the difference of `stats().derivation`):
   * results applied, degraded and re-derived, failed tries, dropped items, token usage.
   */
  derivation: DerivationStats;
}

type Counts = Omit<DerivationProgress, 'done'>;

/** Groups jobs by session in one pass, so measuring stays O(jobs + sessions). */
function bySession(pending: readonly PendingJob[]): Map<string, PendingJob[]> {
  const groups = new Map<string, PendingJob[]>();
  for (const job of pending) {
    const group = groups.get(job.sessionId);
    if (group) group.push(job);
    else groups.set(job.sessionId, [job]);
  }
  return groups;
}

/**
 * Turns of one session not yet covered by applied ingest: those in pending (or failed) ingest
 * jobs, plus those past every planned or applied ingest range (not planned yet: long backlogs
 * are planned a slice at a time). Ingest ranges never overlap, so this needs no messages.
 */
function uncoveredTurns(lastSeq: number, appliedThrough: number, jobs: readonly PendingJob[]): number {
  const ingest = jobs.filter((j) => j.type === 'ingest');
  const planned = ingest.reduce((sum, j) => sum + j.toSeq - j.fromSeq + 1, 0);
  const plannedThrough = Math.max(appliedThrough, ...ingest.map((j) => j.toSeq));
  return Math.min(lastSeq, planned + Math.max(0, lastSeq - plannedThrough));
}

/** Measures the sessions: one session read, then one ledger row per session. */
async function measure(deps: MemoryDeps, sessionIds: readonly string[], pending: readonly PendingJob[]): Promise<Counts> {
  const sessions = sessionIds.length ? await deps.store.sessions({ ids: [...sessionIds] }) : [];
  const groups = bySession(pending);
  const ledgers = await Promise.all(sessions.map((s) => deps.store.jobs({ sessionId: s.id, type: 'ingest', last: 1 })));
  let derivedTurns = 0;
  let totalTurns = 0;
  sessions.forEach((session, i) => {
    const appliedThrough = ledgers[i]?.[0]?.toSeq ?? 0;
    totalTurns += session.lastSeq;
    derivedTurns += session.lastSeq - uncoveredTurns(session.lastSeq, appliedThrough, groups.get(session.id) ?? []);
  });
  const failedJobs = pending.filter((p) => p.state === 'failed').length;
  return { derivedTurns, totalTurns, pendingJobs: pending.length - failedJobs, failedJobs, sessions: sessions.length };
}

/**
 * Measures progress and sends it when it changed. Sessions are followed from the first time
 * they show pending work; turn counts are clamped so that they never go back (an applied job
 * can still be listed as pending for a moment, and a concurrent forget shrinks a session).
 */
export class ProgressTracker {
  private readonly followed = new Set<string>();
  private last: DerivationProgress | undefined;

  constructor(
    private readonly deps: MemoryDeps,
    private readonly listener: DerivationProgressListener,
  ) {}

  /** Measures and reports; the `done` event is always sent, others only when a count changed. */
  async report(done: boolean): Promise<void> {
    const pending = await this.deps.queue.pending();
    for (const job of pending) this.followed.add(job.sessionId);
    const counts = await measure(this.deps, [...this.followed], pending);
    const totalTurns = Math.max(counts.totalTurns, this.last?.totalTurns ?? 0);
    const derivedTurns = Math.min(totalTurns, Math.max(counts.derivedTurns, this.last?.derivedTurns ?? 0));
    const next: DerivationProgress = { ...counts, derivedTurns, totalTurns, done };
    if (!done && this.last && isSame(this.last, next)) return;
    this.last = next;
    this.listener(next);
  }
}

function isSame(a: DerivationProgress, b: DerivationProgress): boolean {
  return a.derivedTurns === b.derivedTurns && a.totalTurns === b.totalTurns && a.pendingJobs === b.pendingJobs && a.failedJobs === b.failedJobs && a.sessions === b.sessions;
}

/**
 * Runs `work` (the flush's wait for derivation) and reports progress: once at the start, every
 * `intervalMs` while it runs (when something changed), and once with `done: true` when it has
 * settled. Polling rather than hooking into applies keeps it right when another process (a queue
 * worker) applies results. A measuring or listener error stops the reports; it is thrown once
 * `work` has settled, so no derivation is left running behind a rejected flush.
 */
export async function followDerivation<T>(deps: MemoryDeps, work: () => Promise<T>, options: { onProgress: DerivationProgressListener; intervalMs: number }): Promise<T> {
  const tracker = new ProgressTracker(deps, options.onProgress);
  let failure: { error: unknown } | undefined = await tracker.report(false).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  let settled = false;
  const running = work().finally(() => {
    settled = true;
  });
  while (!settled && !failure) {
    await tick(running, options.intervalMs);
    if (!settled)
      failure = await tracker.report(false).then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
  }
  const result = await running;
  if (failure) throw failure.error;
  await tracker.report(true);
  return result;
}

/** Resolves after `ms`, or as soon as `running` settles; leaves no timer behind. */
async function tick(running: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([
      elapsed,
      running.then(
        () => undefined,
        () => undefined,
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

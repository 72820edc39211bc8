import { StrataError, type DerivationProgress, type FlushOptions, type FlushReport, type PendingJob } from '@strata/core';
import { checkOptions } from './input-checks.js';
import type { RemoteTransport } from './remote-transport.js';

const FLUSH_HINT = 'Pass { onProgress?: (progress) => void, progressIntervalMs?: integer >= 10 }.';

/**
 * Progress as a remote memory can see it: from the pending jobs the server lists. The turns
 * counted are those of the ingest jobs seen pending during this flush; a job seen and no
 * longer listed (nor failed) has been applied.
 */
class ProgressTracker {
  private readonly ingest = new Map<string, { turns: number; sessionId: string; failed: boolean; listed: boolean }>();
  private readonly sessions = new Set<string>();
  private last = '';

  /** The event for this pending list, or undefined when nothing moved since the last one (the last, `done`, always goes out). */
  see(pending: PendingJob[], done: boolean): DerivationProgress | undefined {
    for (const job of this.ingest.values()) job.listed = false;
    for (const job of pending) {
      this.sessions.add(job.sessionId);
      if (job.type === 'ingest') this.ingest.set(job.key, { turns: job.toSeq - job.fromSeq + 1, sessionId: job.sessionId, failed: job.state === 'failed', listed: true });
    }
    let totalTurns = 0;
    let derivedTurns = 0;
    for (const job of this.ingest.values()) {
      totalTurns += job.turns;
      if (!job.listed && !job.failed) derivedTurns += job.turns;
    }
    const failedJobs = pending.filter((p) => p.state === 'failed').length;
    const event = { derivedTurns, totalTurns, pendingJobs: pending.length - failedJobs, failedJobs, sessions: this.sessions.size, done };
    const key = JSON.stringify(event);
    if (key === this.last) return undefined;
    this.last = key;
    return event;
  }
}

/** The server's pending jobs (reach-filtered) and its memory's counters. */
export type StatusAnswer = Awaited<ReturnType<typeof readStatus>>;

/** GET /v1/status. */
export function readStatus(t: RemoteTransport) {
  return t.send(() => t.client.GET('/v1/status', {}));
}

/** The flush options, checked as in process. @throws StrataError INVALID_INPUT naming the option. */
function checkFlushOptions(options: FlushOptions): FlushOptions & { progressIntervalMs: number } {
  checkOptions(options, 'flush options', { progressIntervalMs: 'positive' }, FLUSH_HINT);
  const { onProgress, progressIntervalMs = 200 } = options;
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new StrataError('INVALID_INPUT', 'flush options is invalid: onProgress must be a function', { hint: FLUSH_HINT });
  if (progressIntervalMs < 10 || progressIntervalMs > 60_000) {
    throw new StrataError('INVALID_INPUT', `flush options is invalid: progressIntervalMs must be from 10 to 60000 (got ${progressIntervalMs})`, { hint: FLUSH_HINT });
  }
  return { ...options, progressIntervalMs };
}

/**
 * `memory.flush` over HTTP. With `onProgress`, the server's pending jobs are read every
 * `progressIntervalMs` while the flush runs (this needs the read scope besides write); a
 * listener that throws, or a read of the jobs that fails, fails the flush once it has settled,
 * as a throwing listener does in process.
 */
export async function flushRemote(t: RemoteTransport, options: FlushOptions, seen: (status: StatusAnswer) => void): Promise<FlushReport> {
  const { onProgress, progressIntervalMs } = checkFlushOptions(options);
  if (onProgress === undefined) return t.send(() => t.client.POST('/v1/flush', { body: {} }));
  const tracker = new ProgressTracker();
  let failure: { error: unknown } | undefined;
  const tell = (pending: PendingJob[], done: boolean) => {
    const event = tracker.see(pending, done);
    if (event === undefined || failure !== undefined) return;
    try {
      onProgress(event);
    } catch (error) {
      failure = { error };
    }
  };
  const poll = async () => {
    if (failure !== undefined) return;
    try {
      const status = await readStatus(t);
      seen(status);
      tell(status.pending, false);
    } catch (error) {
      // progress cannot be read (e.g. a key without the read scope): the flush goes on, and fails with this once it has settled
      failure = { error };
    }
  };
  await poll();
  const report = await whilePolling(
    t.send(() => t.client.POST('/v1/flush', { body: {} })),
    poll,
    progressIntervalMs,
  );
  tell(report.pending, true);
  if (failure !== undefined) throw failure.error;
  return report;
}

/** Awaits `work`, calling `poll` every `intervalMs` until it settles (never two polls at once). */
async function whilePolling<T>(work: Promise<T>, poll: () => Promise<void>, intervalMs: number): Promise<T> {
  let settled = false;
  const outcome = work.finally(() => {
    settled = true;
  });
  while (!settled) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, intervalMs);
    });
    await Promise.race([
      tick,
      outcome.then(
        () => undefined,
        () => undefined,
      ),
    ]);
    clearTimeout(timer);
    if (!settled) await poll();
  }
  return outcome;
}

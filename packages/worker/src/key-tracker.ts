import type { DeriveJob, JobRef } from '@strata/core';

/** Keys read from Redis per check round, so that a large backlog costs a bounded amount at a time. */
const CHECK_BATCH = 500;

/** A job enqueued by this queue, or only the reference of one found in Redis at start. */
export type Tracked = DeriveJob | JobRef;

/** What a check found for the tracked jobs: done for good (failed for good) or gone from Redis. */
export interface CheckOutcome {
  settled: string[];
  lost: Tracked[];
}

/** How a queue's events say a job settled somewhere: its result was applied, or it failed for good. */
export type SettledHow = 'applied' | 'failed';

/** Why a key is due for a check: an event to confirm, or a sweep of every tracked key. */
type Due = SettledHow | 'sweep';

/** A reference carries no inputs: it cannot be enqueued again. */
const isWholeJob = (item: Tracked): item is DeriveJob => 'turns' in item || 'summaries' in item;

export interface KeyTrackerOptions {
  /** How often every tracked key is checked anyway (see {@link KeyTracker}). */
  safetyCheckMs: number;
  /** Where the jobs stand in Redis: failed for good, gone (neither queue has them), else in flight. */
  check: (jobs: Tracked[]) => Promise<CheckOutcome>;
  /** Enqueues lost jobs again (Redis lost its data, e.g. a restart without persistence). */
  requeue: (jobs: DeriveJob[]) => Promise<void>;
  onError: (error: unknown) => void;
}

/**
 * The jobs this queue enqueued and has not seen settle, for `drain()`. Settling is pushed, never
 * polled for: the local apply worker calls {@link settle} at once, and the queues' events
 * (BullMQ `QueueEvents`: apply completed, derive or apply failed for good, in any process) call
 * {@link report}. A reported key is confirmed by one check before it settles, because the event
 * may belong to an earlier enqueue of the same key. Lost jobs are found by {@link recheck},
 * called when the connection to Redis comes back (a restart may have lost data), and by a slow
 * safety check every `safetyCheckMs`. That one stays because some losses send no event and
 * break no connection: FLUSHALL, failover to a replica behind the primary, maxmemory eviction,
 * an enqueue that failed half-way, events trimmed from a stream before they were read.
 * Keeps the whole job so that a lost one can be enqueued again.
 */
export class KeyTracker {
  private readonly unsettled = new Map<string, Tracked>();
  /** Keys to check, in order; an event's reason wins over a sweep. */
  private readonly due = new Map<string, Due>();
  private waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private isClosed = false;

  constructor(private readonly options: KeyTrackerOptions) {}

  track(job: DeriveJob): void {
    this.unsettled.set(job.key, job);
    this.scheduleSafetyCheck();
  }

  /** Waits for a job a previous run left in Redis (drain then covers it too); a job of this run wins. */
  adopt(ref: JobRef): void {
    if (this.unsettled.has(ref.key)) return;
    this.unsettled.set(ref.key, ref);
    this.scheduleSafetyCheck();
  }

  /** The local apply worker stored the key's result: settled, with no check. */
  settle(key: string): void {
    this.unsettled.delete(key);
    this.notifyIfIdle();
  }

  /** A queue event says the key settled somewhere; it settles once a check confirms it. Untracked keys are ignored. */
  report(key: string, how: SettledHow): void {
    if (this.isClosed || !this.unsettled.has(key)) return;
    if (how === 'applied' || this.due.get(key) !== 'applied') this.due.set(key, how);
    this.runChecks();
  }

  /** Checks every tracked key now (Redis is back after a lost connection: it may have lost jobs). */
  recheck(): void {
    if (this.isClosed) return;
    for (const key of this.unsettled.keys()) if (!this.due.has(key)) this.due.set(key, 'sweep');
    this.runChecks();
  }

  /** Resolves when nothing tracked is unsettled, or at once after close(). */
  drain(): Promise<void> {
    if (this.unsettled.size === 0 || this.isClosed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops the safety check; pending drains resolve; a check under way is no longer reported. */
  close(): void {
    this.isClosed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.release();
  }

  /** The safety check runs while anything is tracked. Unref'd: it alone never keeps a process alive. */
  private scheduleSafetyCheck(): void {
    if (this.timer !== null || this.isClosed || this.unsettled.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.recheck();
      this.scheduleSafetyCheck();
    }, this.options.safetyCheckMs);
    this.timer.unref();
  }

  /** One round at a time, until nothing is due; a failed round waits for the next trigger. */
  private runChecks(): void {
    this.checking ??= (async () => {
      while (!this.isClosed && this.due.size > 0) {
        if (!(await this.checkRound(this.takeRound()))) break;
      }
    })().finally(() => {
      this.checking = null;
    });
  }

  /** Up to CHECK_BATCH due keys that are still tracked, with why each is due. */
  private takeRound(): Map<string, Due> {
    const round = new Map<string, Due>();
    for (const [key, why] of this.due) {
      if (round.size === CHECK_BATCH) break;
      this.due.delete(key);
      if (this.unsettled.has(key)) round.set(key, why);
    }
    return round;
  }

  /** Applies one check's outcome; false when the check failed (its keys stay due). */
  private async checkRound(round: Map<string, Due>): Promise<boolean> {
    if (round.size === 0) return true;
    const batch = [...round.keys()].map((key) => this.unsettled.get(key) as Tracked);
    try {
      const outcome = await this.options.check(batch);
      // Only what is still tracked as checked: a job applied while the check ran is gone from
      // Redis too, and must not count as lost (enqueued again, it would be applied twice).
      const checked = new Map(batch.map((item) => [item.key, item]));
      const isCurrent = (key: string): boolean => checked.get(key) !== undefined && this.unsettled.get(key) === checked.get(key);
      for (const key of outcome.settled.filter(isCurrent)) this.unsettled.delete(key);
      const lost = outcome.lost.filter((item) => isCurrent(item.key));
      // Gone after an "applied" event: the result is stored. A lost reference is forgotten: the
      // memory plans its range again once pending() stops listing it.
      const isGoneForGood = (item: Tracked): boolean => round.get(item.key) === 'applied' || !isWholeJob(item);
      for (const item of lost) if (isGoneForGood(item)) this.unsettled.delete(item.key);
      const requeue = lost.filter((item): item is DeriveJob => !isGoneForGood(item) && isWholeJob(item));
      if (requeue.length) await this.options.requeue(requeue);
      return true;
    } catch (error) {
      for (const [key, why] of round) if (!this.due.has(key)) this.due.set(key, why);
      if (!this.isClosed) this.options.onError(error);
      return false;
    } finally {
      this.notifyIfIdle();
    }
  }

  private notifyIfIdle(): void {
    if (this.unsettled.size > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.due.clear();
    this.release();
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

import type { DeriveJob, JobRef } from '@strata/core';

const CHECK_BATCH = 200;

/** A job enqueued by this queue, or only the reference of one found in Redis at start. */
export type Tracked = DeriveJob | JobRef;

/** What a check found for the tracked jobs: done for good (applied or failed) or gone from Redis. */
export interface CheckOutcome {
  settled: string[];
  lost: Tracked[];
}

/** A reference carries no inputs: it cannot be enqueued again. */
const isWholeJob = (item: Tracked): item is DeriveJob => 'turns' in item || 'summaries' in item;

export interface KeyTrackerOptions {
  pollMs: number;
  check: (jobs: Tracked[]) => Promise<CheckOutcome>;
  /** Enqueues lost jobs again (Redis lost its data, e.g. a restart without persistence). */
  requeue: (jobs: DeriveJob[]) => Promise<void>;
  onError: (error: unknown) => void;
}

/**
 * The jobs this queue enqueued and has not seen settle, for `drain()`. Settling is learnt
 * from the local apply worker at once, and from periodic checks of Redis (a derive that
 * failed for good in another process, a job Redis lost). Keeps the whole job so that a
 * lost one can be enqueued again.
 */
export class KeyTracker {
  private readonly unsettled = new Map<string, Tracked>();
  private waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private isClosed = false;
  /** Where the next check starts: each check reads at most CHECK_BATCH keys, in turn. */
  private cursor = 0;

  constructor(private readonly options: KeyTrackerOptions) {}

  track(job: DeriveJob): void {
    this.unsettled.set(job.key, job);
    this.schedule();
  }

  /** Waits for a job a previous run left in Redis (drain then covers it too); a job of this run wins. */
  adopt(ref: JobRef): void {
    if (this.unsettled.has(ref.key)) return;
    this.unsettled.set(ref.key, ref);
    this.schedule();
  }

  settle(key: string): void {
    this.unsettled.delete(key);
    this.notifyIfIdle();
  }

  drain(): Promise<void> {
    if (this.unsettled.size === 0 || this.isClosed) return Promise.resolve();
    this.timer?.ref(); // someone awaits the outcome: polling must keep the process alive
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Checks now (e.g. after a local worker saw a job fail for good). */
  checkSoon(): void {
    if (this.isClosed || this.unsettled.size === 0) return;
    this.checking ??= this.runCheck().finally(() => {
      this.checking = null;
    });
  }

  /** Stops polling; pending drains resolve. */
  close(): void {
    this.isClosed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.release();
  }

  private schedule(): void {
    if (this.timer !== null || this.isClosed || this.unsettled.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.checkSoon();
      if (this.checking) void this.checking.then(() => this.schedule());
      else this.schedule();
    }, this.options.pollMs);
    if (this.waiters.length === 0) this.timer.unref();
  }

  private async runCheck(): Promise<void> {
    try {
      const batch = this.nextBatch();
      const outcome = await this.options.check(batch);
      // Only what is still tracked as checked: a job applied while the check ran is gone from
      // Redis too, and must not count as lost (enqueued again, it would be applied twice).
      const checked = new Map(batch.map((item) => [item.key, item]));
      const isCurrent = (key: string): boolean => checked.get(key) !== undefined && this.unsettled.get(key) === checked.get(key);
      const lost = outcome.lost.filter((item) => isCurrent(item.key));
      for (const key of outcome.settled.filter(isCurrent)) this.unsettled.delete(key);
      // A lost reference is forgotten: the memory plans its range again once pending() stops listing it.
      for (const item of lost) if (!isWholeJob(item)) this.unsettled.delete(item.key);
      const requeue = lost.filter(isWholeJob);
      if (requeue.length) await this.options.requeue(requeue);
    } catch (error) {
      this.options.onError(error);
    }
    this.notifyIfIdle();
  }

  /** A slice of the tracked jobs, so that a large backlog costs Redis a bounded amount per poll. */
  private nextBatch(): Tracked[] {
    const all = [...this.unsettled.values()];
    if (all.length <= CHECK_BATCH) return all;
    const start = this.cursor % all.length;
    this.cursor = start + CHECK_BATCH;
    const batch = all.slice(start, start + CHECK_BATCH);
    return batch.length < CHECK_BATCH ? [...batch, ...all.slice(0, CHECK_BATCH - batch.length)] : batch;
  }

  private notifyIfIdle(): void {
    if (this.unsettled.size > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.release();
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

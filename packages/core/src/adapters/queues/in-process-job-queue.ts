// Kept in one file: one state machine (queued, running, waiting for a retry, failed); split, its invariants would spread over files.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { DeriveJob, DeriveResult } from '../../domain/jobs.js';
import type { PendingJob } from '../../domain/retrieval.js';
import { StrataError, isWorthRetrying } from '../../errors/strata-error.js';
import type { JobQueue, JobRuntime } from '../../ports/job-queue.js';

/**
 * Options of {@link InProcessJobQueue}: parallelism, tries per job and retry backoff. The
 * constructor throws StrataError CONFIG_INVALID when a count is not a positive integer or the
 * backoff is negative.
 */
export interface InProcessJobQueueOptions {
  /** How many jobs run at once. @defaultValue 2 */
  concurrency?: number;
  /** Tries per job (derive and apply), counting the first. @defaultValue 4 */
  attempts?: number;
  /** Backoff before retry n is `backoffMs * 2^(n-1)`, less up to `jitter` of it at random. @defaultValue 250 */
  backoffMs?: number;
  /**
   * The share of each backoff taken off at random (0: none, 1: anywhere from 0 to the full
   * backoff), so that jobs failing together (an endpoint down) do not retry in step. @defaultValue 0.5
   */
  jitter?: number;
}

/** `waiting`: failed an attempt, a retry timer is set (reported as `queued`). */
type TrackedState = 'queued' | 'running' | 'waiting' | 'failed';

interface Tracked {
  job: DeriveJob;
  state: TrackedState;
  attempts: number;
  error?: string;
  /** Kept across attempts so that a failing apply does not re-derive. */
  result?: DeriveResult;
  timer?: NodeJS.Timeout;
}

/**
 * {@link JobQueue} running jobs in the background of this process: `enqueue` returns at once,
 * work starts on a later tick, FIFO, `concurrency` jobs at a time, each job on its own
 * macrotask (the event loop is free between jobs), with jittered exponential backoff between attempts. Nothing survives a restart: the store's job ledger re-plans lost work.
 */
export class InProcessJobQueue implements JobQueue {
  readonly derivesInline = false;
  readonly keepsJobs = false;
  private readonly concurrency: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly jitter: number;
  private runtime: JobRuntime | null = null;
  /** Jobs not yet applied, by key, in enqueue order (oldest first). */
  private readonly tracked = new Map<string, Tracked>();
  /** The same entries by session, so `pending(sessionId)` does not walk every session's backlog. */
  private readonly trackedBySession = new Map<string, Map<string, Tracked>>();
  private readonly ready: Tracked[] = [];
  private readonly running = new Set<Promise<void>>();
  /** Accepted jobs neither applied nor finally failed. */
  private unsettled = 0;
  private drainWaiters: (() => void)[] = [];
  private isPumpScheduled = false;
  private closed = false;
  private closing: Promise<void> | null = null;

  constructor(options: InProcessJobQueueOptions = {}) {
    this.concurrency = positiveInteger('concurrency', options.concurrency ?? 2);
    this.attempts = positiveInteger('attempts', options.attempts ?? 4);
    this.backoffMs = options.backoffMs ?? 250;
    if (!Number.isFinite(this.backoffMs) || this.backoffMs < 0) {
      throw configInvalid(`backoffMs must be a finite number >= 0 (got ${String(options.backoffMs)}).`);
    }
    this.jitter = options.jitter ?? 0.5;
    if (!(this.jitter >= 0 && this.jitter <= 1)) throw configInvalid(`jitter must be a number from 0 to 1 (got ${String(options.jitter)}).`);
  }

  async start(runtime: JobRuntime): Promise<void> {
    this.assertOpen();
    if (this.runtime !== null && this.runtime !== runtime) {
      throw new StrataError('CONFLICT', 'This job queue is already started with another runtime.', {
        hint: 'Give each memory its own queue; createMemory calls start() once.',
      });
    }
    this.runtime = runtime;
  }

  /** Returns before any work is done. Queued, running or retrying keys are skipped; failed keys start over. */
  async enqueue(jobs: DeriveJob[]): Promise<void> {
    this.assertOpen();
    if (this.runtime === null) {
      throw configInvalid('enqueue() was called before start().', 'Call queue.start(runtime) first; createMemory does this.');
    }
    for (const job of jobs) {
      const existing = this.tracked.get(job.key);
      if (existing !== undefined && existing.state !== 'failed') continue;
      // Re-inserting moves a retried key to the end: it is now the newest job.
      this.untrack(job.key);
      const entry: Tracked = { job, state: 'queued', attempts: 0 };
      this.track(entry);
      // A consolidation keeps the working tier small (planning reads the summaries after the
      // synopsis): it goes ahead of a backlog instead of waiting for all of it.
      if (job.type === 'consolidate') this.ready.unshift(entry);
      else this.ready.push(entry);
      this.unsettled += 1;
    }
    this.schedulePump();
  }

  async pending(sessionId?: string): Promise<PendingJob[]> {
    const result: PendingJob[] = [];
    const entries = sessionId === undefined ? this.tracked.values() : (this.trackedBySession.get(sessionId)?.values() ?? []);
    for (const { job, state, attempts, error } of entries) {
      const { key, type, fromSeq, toSeq } = job;
      const shown = state === 'waiting' ? 'queued' : state;
      const listed: PendingJob = { key, type, sessionId: job.sessionId, fromSeq, toSeq, state: shown, attempts };
      result.push(error === undefined ? listed : { ...listed, error });
    }
    return result;
  }

  /** After close(), resolves once running jobs end; queued ones stay unprocessed. */
  drain(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    // Someone awaits the outcome: retry timers must now keep the process alive.
    for (const entry of this.tracked.values()) entry.timer?.ref();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Stops taking jobs, cancels waiting retries and waits for running jobs. Idempotent. */
  close(): Promise<void> {
    this.closed = true;
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    for (const entry of this.tracked.values()) {
      if (entry.timer === undefined) continue;
      clearTimeout(entry.timer);
      entry.timer = undefined;
      entry.state = 'queued';
    }
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    this.notifyIfIdle();
  }

  private track(entry: Tracked): void {
    this.tracked.set(entry.job.key, entry);
    let bySession = this.trackedBySession.get(entry.job.sessionId);
    if (bySession === undefined) {
      bySession = new Map();
      this.trackedBySession.set(entry.job.sessionId, bySession);
    }
    bySession.set(entry.job.key, entry);
  }

  private untrack(key: string): void {
    const entry = this.tracked.get(key);
    if (entry === undefined) return;
    this.tracked.delete(key);
    const bySession = this.trackedBySession.get(entry.job.sessionId);
    bySession?.delete(key);
    if (bySession?.size === 0) this.trackedBySession.delete(entry.job.sessionId);
  }

  private schedulePump(): void {
    if (this.isPumpScheduled) return;
    this.isPumpScheduled = true;
    setImmediate(() => {
      this.isPumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    const runtime = this.runtime;
    while (!this.closed && runtime !== null && this.running.size < this.concurrency) {
      const next = this.ready.shift();
      if (next === undefined) break;
      const work: Promise<void> = this.attempt(runtime, next).finally(() => {
        this.running.delete(work);
        // The next job starts on a later macrotask: a backlog runs in slices, one job each,
        // and the app's I/O and timers get their turn between them (with an in-memory store
        // a job never awaits real I/O, so chaining them would hold the event loop throughout).
        this.schedulePump();
        this.notifyIfIdle();
      });
      this.running.add(work);
    }
  }

  /** One try; never rejects, a failure schedules a retry or marks the job failed. */
  private async attempt(runtime: JobRuntime, entry: Tracked): Promise<void> {
    entry.state = 'running';
    entry.attempts += 1;
    try {
      entry.result ??= await runtime.derive(entry.job, { number: entry.attempts, isFinal: entry.attempts >= this.attempts });
      // deriving and applying are two slices of the event loop, not one
      await nextMacrotask();
      await runtime.apply(entry.result);
      if (this.tracked.get(entry.job.key) === entry) this.untrack(entry.job.key);
      this.unsettled -= 1;
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error);
      const retryable = isWorthRetrying(error);
      runtime.failed?.(entry.job, error, { number: entry.attempts, willRetry: retryable && entry.attempts < this.attempts });
      this.handleFailure(entry, retryable);
    }
  }

  private handleFailure(entry: Tracked, isRetryable: boolean): void {
    if (!isRetryable || entry.attempts >= this.attempts) {
      entry.state = 'failed';
      delete entry.result;
      this.unsettled -= 1;
      return;
    }
    entry.state = this.closed ? 'queued' : 'waiting';
    if (this.closed) return;
    entry.timer = setTimeout(
      () => {
        entry.timer = undefined;
        entry.state = 'queued';
        this.ready.push(entry);
        this.pump();
      },
      this.backoffMs * 2 ** (entry.attempts - 1) * (1 - this.jitter * Math.random()),
    );
    // A pending retry alone must not keep the process alive, unless someone awaits drain().
    if (this.drainWaiters.length === 0) entry.timer.unref();
  }

  private isIdle(): boolean {
    return this.unsettled === 0 || (this.closed && this.running.size === 0);
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new StrataError('CLOSED', 'This in-process job queue is closed.', {
        hint: 'Create a new queue; close() is final.',
      });
    }
  }
}

/**
 * Creates an {@link InProcessJobQueue}, the default queue when no Redis is configured.
 * @example
 * const jobQueue = createInProcessJobQueue({ concurrency: 4, backoffMs: 500 });
 * const memory = await createMemory({ store, knowledgeBase, jobQueue });
 * await memory.append(sessionId, messages); // returns at once; summaries land shortly after
 * await jobQueue.drain(); // e.g. before a script exits
 */
export function createInProcessJobQueue(options: InProcessJobQueueOptions = {}): JobQueue {
  return new InProcessJobQueue(options);
}

function positiveInteger(name: string, value: number): number {
  if (Number.isInteger(value) && value >= 1) return value;
  throw configInvalid(`${name} must be a positive integer (got ${String(value)}).`);
}

const OPTIONS_HINT = 'Fix the option passed to createInProcessJobQueue, or omit it for the default.';

function configInvalid(message: string, hint = OPTIONS_HINT): StrataError {
  return new StrataError('CONFIG_INVALID', message, { hint });
}

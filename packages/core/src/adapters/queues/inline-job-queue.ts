import type { DeriveJob, DeriveResult } from '../../domain/jobs.js';
import type { PendingJob } from '../../domain/retrieval.js';
import { StrataError, isWorthRetrying } from '../../errors/strata-error.js';
import type { JobQueue, JobRuntime } from '../../ports/job-queue.js';

/**
 * {@link JobQueue} that does the work inside `enqueue`: each job is derived and applied before
 * the call resolves, one after the other, in order. Deterministic, for tests and scripts.
 * Failures never reach the caller (a failed summary must not fail the append that caused
 * it): after the last attempt the job is listed by `pending()` as `failed`.
 */
export class InlineJobQueue implements JobQueue {
  readonly derivesInline = true;
  readonly keepsJobs = false;
  private readonly attempts: number;
  private runtime: JobRuntime | null = null;
  /** Jobs not yet applied, by key, in enqueue order (oldest first). */
  private readonly tracked = new Map<string, PendingJob>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(options: { attempts?: number } = {}) {
    this.attempts = options.attempts ?? 3;
    if (!Number.isInteger(this.attempts) || this.attempts < 1) {
      throw new StrataError('CONFIG_INVALID', `attempts must be a positive integer (got ${String(options.attempts)}).`, {
        hint: 'Pass attempts: 1 to try each job once, or omit it for the default of 3.',
      });
    }
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

  /**
   * Runs the jobs before resolving. A key already queued or running (here: in a concurrent
   * enqueue call) is skipped; a key that had finally failed is tried again.
   */
  async enqueue(jobs: DeriveJob[]): Promise<void> {
    this.assertOpen();
    const runtime = this.requireRuntime();
    // Claim every key synchronously, so that a concurrent enqueue sees them as queued.
    const accepted = jobs.filter((job) => this.claim(job));
    const work = this.runAll(runtime, accepted);
    this.inFlight.add(work);
    try {
      await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  async pending(sessionId?: string): Promise<PendingJob[]> {
    const all = [...this.tracked.values()];
    return (sessionId === undefined ? all : all.filter((job) => job.sessionId === sessionId)).map((job) => ({ ...job }));
  }

  /** Waits for enqueue calls still running; with sequential callers it resolves at once. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Refuses new jobs and waits for the enqueue calls already running. */
  async close(): Promise<void> {
    this.closed = true;
    await this.drain();
  }

  private claim(job: DeriveJob): boolean {
    const existing = this.tracked.get(job.key);
    if (existing !== undefined && existing.state !== 'failed') return false;
    // Re-inserting moves a retried key to the end: it is now the newest job.
    this.tracked.delete(job.key);
    const { key, type, sessionId, fromSeq, toSeq } = job;
    this.tracked.set(key, { key, type, sessionId, fromSeq, toSeq, state: 'queued', attempts: 0 });
    return true;
  }

  private async runAll(runtime: JobRuntime, jobs: DeriveJob[]): Promise<void> {
    for (const job of jobs) await this.run(runtime, job);
  }

  /** Retries at once; the derived result is kept so that a failing apply does not re-derive. */
  private async run(runtime: JobRuntime, job: DeriveJob): Promise<void> {
    const entry = this.tracked.get(job.key);
    if (entry === undefined) return;
    let result: DeriveResult | undefined;
    entry.state = 'running';
    while (entry.attempts < this.attempts) {
      entry.attempts += 1;
      try {
        result ??= await runtime.derive(job, { number: entry.attempts, isFinal: entry.attempts >= this.attempts });
        await runtime.apply(result);
        this.tracked.delete(job.key);
        return;
      } catch (error) {
        entry.error = describeError(error);
        const retryable = isWorthRetrying(error);
        runtime.failed?.(job, error, { number: entry.attempts, willRetry: retryable && entry.attempts < this.attempts });
        if (!retryable) break;
      }
    }
    entry.state = 'failed';
  }

  private requireRuntime(): JobRuntime {
    if (this.runtime === null) {
      throw new StrataError('CONFIG_INVALID', 'enqueue() was called before start().', {
        hint: 'Call queue.start(runtime) first; createMemory does this for the queue you give it.',
      });
    }
    return this.runtime;
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new StrataError('CLOSED', 'This inline job queue is closed.', { hint: 'Create a new queue; close() is final.' });
    }
  }
}

/**
 * Creates an {@link InlineJobQueue}.
 * @example
 * const queue = createInlineJobQueue({ attempts: 1 });
 * const memory = await createMemory({ store, knowledgeBase, jobQueue: queue });
 * await memory.append(sessionId, messages); // summaries and facts are stored when this resolves
 */
export function createInlineJobQueue(options: { attempts?: number } = {}): JobQueue {
  return new InlineJobQueue(options);
}

/** The text shown by `pending()`; a non-Error throw is stringified. */
function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

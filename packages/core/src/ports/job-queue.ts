import type { DeriveJob, DeriveResult } from '../domain/jobs.js';
import type { PendingJob } from '../domain/retrieval.js';

/** What a queue calls: `derive` may run anywhere; `apply` runs where the store lives. */
export interface JobRuntime {
  derive(job: DeriveJob): Promise<DeriveResult>;
  /** Idempotent: applying the same result twice stores it once. */
  apply(result: DeriveResult): Promise<void>;
}

/** Runs derivation jobs in the background. */
export interface JobQueue {
  /** Binds the runtime. Called once by `createMemory` before any `enqueue`. */
  start(runtime: JobRuntime): Promise<void>;
  /**
   * Enqueues jobs. A job whose key is already queued or running is ignored (dedupe).
   * Failed derivations are retried with backoff; after the last attempt the job stays
   * listed by `pending` with state `failed`.
   */
  enqueue(jobs: DeriveJob[]): Promise<void>;
  /** Jobs enqueued and not yet applied (queued, running or failed), oldest first. */
  pending(sessionId?: string): Promise<PendingJob[]>;
  /** Resolves when every job enqueued so far has been applied or has finally failed. */
  drain(): Promise<void>;
  /** Stops taking jobs, waits for running ones. Idempotent. */
  close(): Promise<void>;
}

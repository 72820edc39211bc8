import type { DeriveJob, DeriveResult, JobRef } from '../domain/jobs.js';
import type { PendingJob } from '../domain/retrieval.js';

/** Which try of a job this is. A runtime may degrade (e.g. fall back to an offline model) on the final one. */
export interface DeriveAttempt {
  /** 1 for the first try. */
  number: number;
  /** No retry follows if this one fails: the queue's last attempt. */
  isFinal: boolean;
}

/** What a queue calls: `derive` may run anywhere; `apply` runs where the store lives. */
export interface JobRuntime {
  /**
   * Runs the models for a job. Throwing a retryable error (see `isWorthRetrying`) asks the
   * queue to try again with backoff; every queue says which attempt this is.
   */
  derive(job: DeriveJob, attempt: DeriveAttempt): Promise<DeriveResult>;
  /** Idempotent: applying the same result twice stores it once. */
  apply(result: DeriveResult): Promise<void>;
  /**
   * Told of each try of a job that failed (its derivation or its apply), and whether the queue
   * tries again. Queues call it where they learn of the failure; it must not throw.
   */
  failed?(job: JobRef, error: unknown, attempt: FailedAttempt): void;
}

/** A try that failed: which one, and whether another follows. */
export interface FailedAttempt {
  /** 1 for the first try. */
  number: number;
  /** False when the job failed for good (its last try, or a failure retrying cannot fix). */
  willRetry: boolean;
}

/** Runs derivation jobs in the background. */
export interface JobQueue {
  /**
   * True when `enqueue` derives and applies before it resolves (tests, scripts): the memory
   * then plans derivation inside `append`, so it has landed when `append` returns. A queue
   * that wraps another passes the inner queue's value on.
   */
  readonly derivesInline: boolean;
  /**
   * True when jobs still queued at `close` are kept and run later (a durable queue such as
   * BullMQ's). The memory then plans the derivation it deferred before it closes; otherwise
   * that planning is dropped with the queued jobs it would make. A queue that wraps another
   * passes the inner queue's value on.
   */
  readonly keepsJobs: boolean;
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

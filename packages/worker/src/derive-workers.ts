import { UnrecoverableError, Worker } from 'bullmq';
import type { Job } from 'bullmq';
import { isWorthRetrying } from '@strata/core';
import type { DeriveAttempt, DeriveJob, DeriveResult } from '@strata/core';
import type { RedisSettings } from './connection-options.js';
import type { MetricsRecorder } from './metrics.js';
import type { DeriveJobData, StrataQueues } from './queues.js';
import type { DeriveQueueName, QueueName } from './redis-keys.js';
import { workerOptionsFor } from './redis-client.js';
import type { StallSettings } from './redis-client.js';
import { failureText, toDeriveError } from './to-strata-error.js';

/** Something a worker did, for logs: `strata worker` prints these. */
export interface WorkerEvent {
  type: 'active' | 'completed' | 'retrying' | 'failed' | 'stalled';
  queue: QueueName;
  /** The strata job key (for `stalled`, BullMQ's job id). */
  key: string;
  /** 1 for the first try (not for `stalled`). */
  attempt?: number;
  /** Why an attempt failed. */
  error?: string;
}

export type { StallSettings } from './redis-client.js';

export interface DeriveWorkersOptions {
  settings: RedisSettings;
  queues: StrataQueues;
  serve: readonly DeriveQueueName[];
  concurrency: number;
  stall: StallSettings;
  derive: (job: DeriveJob, attempt: DeriveAttempt) => Promise<DeriveResult>;
  metrics: MetricsRecorder;
  onError: (error: unknown) => void;
  onEvent: (event: WorkerEvent) => void;
}

/** The attempt BullMQ is making: attemptsMade counts the failed ones before it. */
export function attemptOf(job: Job): DeriveAttempt {
  const number = job.attemptsMade + 1;
  return { number, isFinal: number >= (job.opts.attempts ?? 1) };
}

/**
 * Starts one BullMQ worker per served derive queue. A job derives, then hands its result to
 * the apply queue under the same deterministic id before it completes, so the key is never
 * in neither queue. Non-retryable errors (INVALID_INPUT, CONFIG_INVALID) fail at once.
 */
export function startDeriveWorkers(options: DeriveWorkersOptions): Worker<DeriveJobData>[] {
  const { settings, stall } = options;
  return options.serve.map((name) => {
    const worker = new Worker<DeriveJobData>(name, (job) => processDerive(options, name, job), workerOptionsFor(settings, stall, options.concurrency));
    worker.on('error', options.onError);
    worker.on('stalled', (jobId) => {
      options.metrics.count('stalled');
      options.onEvent({ type: 'stalled', queue: name, key: jobId });
    });
    return worker;
  });
}

async function processDerive(options: DeriveWorkersOptions, queue: DeriveQueueName, job: Job<DeriveJobData>): Promise<void> {
  const { job: derivation, token } = job.data;
  const attempt = attemptOf(job);
  const started = Date.now();
  options.onEvent({ type: 'active', queue, key: derivation.key, attempt: attempt.number });
  let result: DeriveResult;
  try {
    result = await options.derive(derivation, attempt);
  } catch (thrown) {
    throw failAttempt(options, { queue, key: derivation.key, attempt }, toDeriveError(thrown, derivation.key));
  }
  const { attempts, backoff } = job.opts;
  await options.queues.apply.add(
    derivation.type,
    { result, token, enqueuedAt: job.timestamp },
    {
      jobId: job.id as string,
      ...(attempts === undefined ? {} : { attempts }),
      ...(backoff === undefined ? {} : { backoff }),
      removeOnComplete: true,
      removeOnFail: false,
    },
  );
  const now = Date.now();
  options.metrics.record('derived', { derive: now - job.timestamp, run: now - started });
  options.onEvent({ type: 'completed', queue, key: derivation.key, attempt: attempt.number });
}

/**
 * Counts and reports a failed attempt and returns what to throw: an UnrecoverableError when
 * retrying cannot help, so BullMQ fails the job without using its remaining attempts.
 */
export function failAttempt(options: Pick<DeriveWorkersOptions, 'metrics' | 'onEvent'>, at: { queue: QueueName; key: string; attempt: DeriveAttempt }, error: unknown): Error {
  const isRetryable = isWorthRetrying(error);
  const willRetry = isRetryable && !at.attempt.isFinal;
  const text = failureText(error);
  options.metrics.count(willRetry ? 'retries' : 'failures');
  options.onEvent({ type: willRetry ? 'retrying' : 'failed', queue: at.queue, key: at.key, attempt: at.attempt.number, error: text });
  return isRetryable ? new Error(text, { cause: error }) : new UnrecoverableError(text);
}

import { Worker } from 'bullmq';
import type { Job } from 'bullmq';
import type { JobRuntime } from '@strata/core';
import type { RedisSettings } from './connection-options.js';
import { attemptOf, failAttempt } from './derive-workers.js';
import type { StallSettings, WorkerEvent } from './derive-workers.js';
import type { KeyTracker } from './key-tracker.js';
import type { MetricsRecorder } from './metrics.js';
import type { PendingIndex } from './pending-index.js';
import type { ApplyJobData } from './queues.js';
import { APPLY_QUEUE } from './redis-keys.js';
import { workerOptionsFor } from './redis-client.js';

export interface ApplyWorkerOptions {
  settings: RedisSettings;
  stall: StallSettings;
  concurrency: number;
  runtime: JobRuntime;
  index: PendingIndex;
  tracker: KeyTracker;
  metrics: MetricsRecorder;
  onError: (error: unknown) => void;
}

/**
 * Serves the apply queue in the process that owns the store. `runtime.apply` is idempotent
 * (the store's job ledger), so a result delivered twice, after a crash or a redrive, is
 * stored once. The index entry is removed only after the apply succeeded; then drain() learns
 * it at once (the apply queue's `completed` event, which every process reads, comes later).
 */
export function startApplyWorker(options: ApplyWorkerOptions): Worker<ApplyJobData> {
  const { settings, stall } = options;
  const worker = new Worker<ApplyJobData>(APPLY_QUEUE, (job) => processApply(options, job), workerOptionsFor(settings, stall, options.concurrency));
  worker.on('error', options.onError);
  worker.on('stalled', () => options.metrics.count('stalled'));
  return worker;
}

const ignore = (_event: WorkerEvent): void => undefined;

async function processApply(options: ApplyWorkerOptions, job: Job<ApplyJobData>): Promise<void> {
  const { result, token, enqueuedAt } = job.data;
  const attempt = attemptOf(job);
  try {
    await options.runtime.apply(result);
  } catch (error) {
    throw failAttempt({ metrics: options.metrics, onEvent: ignore }, { queue: APPLY_QUEUE, key: result.job.key, attempt }, error);
  }
  await options.index.remove(result.job, token);
  options.tracker.settle(result.job.key);
  options.metrics.record('applied', { apply: Date.now() - enqueuedAt });
}

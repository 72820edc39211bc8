// @strata/worker public surface.
export { BullMqJobQueue, createBullMqJobQueue } from './bullmq-job-queue.js';
export type { BullMqJobQueueOptions } from './bullmq-job-queue-options.js';
export type { RedisConnectionOptions } from './connection-options.js';
export { startWorker } from './start-worker.js';
export type { WorkerHandle, WorkerOptions } from './start-worker.js';
export type { WorkerEvent } from './derive-workers.js';
export { readQueueStats, listFailedJobs, redriveFailedJobs } from './failed-jobs.js';
export type { FailedJob } from './failed-jobs.js';
export { formatQueueStats } from './queue-stats.js';
export type { LatencyStats, QueueDepth, QueueStats } from './queue-stats.js';
export { DERIVE_QUEUES, APPLY_QUEUE, jobIdOf } from './redis-keys.js';
export type { DeriveQueueName, QueueName } from './redis-keys.js';

import type { Job, Queue } from 'bullmq';
import type { JobType } from '@strata/core';
import { BOTH_GIVEN_ERROR, bothGiven, connectionShape, parseOptions, redisSettings } from './connection-options.js';
import type { RedisConnectionOptions, RedisSettings } from './connection-options.js';
import { z } from 'zod';
import { collectStats } from './queue-stats.js';
import type { QueueStats } from './queue-stats.js';
import { openQueues } from './queues.js';
import type { ApplyJobData, DeriveJobData, StrataQueues } from './queues.js';
import { APPLY_QUEUE, strataKeys } from './redis-keys.js';
import type { QueueName } from './redis-keys.js';
import { closeRedis, openRedis, probeRedis } from './redis-client.js';
import { toStrataError } from './to-strata-error.js';

/** A job that failed for good, as `listFailedJobs` reports it. */
export interface FailedJob {
  key: string;
  type: JobType;
  sessionId: string;
  fromSeq: number;
  toSeq: number;
  /** `apply` when deriving worked and storing the result failed. */
  queue: QueueName;
  attempts: number;
  error: string;
  /** Epoch ms. */
  failedAt: number;
}

const schema = z
  .object({ ...connectionShape, limit: z.int().positive().default(1000), keys: z.array(z.string().min(1)).optional() })
  .strict()
  .refine(bothGiven, BOTH_GIVEN_ERROR);
const HINT = "Pass { url: 'redis://127.0.0.1:6379', prefix?: 'strata' } (the app's prefix).";

/** Connects, runs `use`, disconnects; Redis errors become StrataErrors naming the server. */
async function withQueues<T>(settings: RedisSettings, use: (queues: StrataQueues, client: ReturnType<typeof openRedis>) => Promise<T>): Promise<T> {
  await probeRedis(settings);
  // Connection errors also reject the command that needed the connection: reported there.
  const ignore = (): void => undefined;
  const client = openRedis(settings, false, ignore);
  const queues = openQueues(client, settings.prefix, ignore);
  try {
    return await use(queues, client);
  } catch (error) {
    throw toStrataError(error, settings.where);
  } finally {
    await queues.close().catch(() => undefined);
    await closeRedis(client);
  }
}

async function failedOf(queues: StrataQueues, limit: number): Promise<{ queue: QueueName; job: Job<DeriveJobData | ApplyJobData> }[]> {
  const named: [QueueName, Queue<DeriveJobData> | Queue<ApplyJobData>][] = [...(Object.entries(queues.derive) as [QueueName, Queue<DeriveJobData>][]), [APPLY_QUEUE, queues.apply]];
  const lists = await Promise.all(
    named.map(async ([queue, q]) => {
      const failed: Job<DeriveJobData | ApplyJobData>[] = await q.getFailed(0, limit - 1);
      return failed.map((job) => ({ queue, job }));
    }),
  );
  return lists.flat();
}

function describe(queue: QueueName, job: Job<DeriveJobData | ApplyJobData>): FailedJob {
  const ref = 'job' in job.data ? job.data.job : job.data.result.job;
  return {
    key: ref.key,
    type: ref.type,
    sessionId: ref.sessionId,
    fromSeq: ref.fromSeq,
    toSeq: ref.toSeq,
    queue,
    attempts: job.attemptsMade,
    error: job.failedReason,
    failedAt: job.finishedOn ?? job.timestamp,
  };
}

/**
 * Jobs of a prefix that failed for good (kept in Redis), oldest failure first, up to `limit` per queue.
 * @example
 * for (const job of await listFailedJobs({ url, prefix: 'myapp' })) console.log(job.key, job.error);
 */
export async function listFailedJobs(options: RedisConnectionOptions & { limit?: number } = {}): Promise<FailedJob[]> {
  const o = parseOptions(schema, options, 'listFailedJobs', HINT);
  return withQueues(redisSettings(o), async (queues) => {
    const failed = await failedOf(queues, o.limit);
    return failed.map(({ queue, job }) => describe(queue, job)).sort((a, b) => a.failedAt - b.failedAt);
  });
}

/**
 * Moves failed jobs back to waiting with their attempts reset (all, or those of `keys`),
 * e.g. after fixing a model endpoint. Their results are applied by the app as usual.
 * @returns the keys sent back.
 * @example
 * const { redriven } = await redriveFailedJobs({ url, prefix: 'myapp' });
 */
export async function redriveFailedJobs(options: RedisConnectionOptions & { keys?: string[]; limit?: number } = {}): Promise<{ redriven: string[] }> {
  const o = parseOptions(schema, options, 'redriveFailedJobs', HINT);
  return withQueues(redisSettings(o), async (queues) => {
    const wanted = o.keys === undefined ? null : new Set(o.keys);
    const redriven: string[] = [];
    for (const { queue, job } of await failedOf(queues, o.limit)) {
      const { key } = describe(queue, job);
      if (wanted !== null && !wanted.has(key)) continue;
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      redriven.push(key);
    }
    return { redriven };
  });
}

/**
 * The queue depth, latency and counters of a prefix, from any process (`strata worker --stats`).
 * @example
 * console.log(formatQueueStats(await readQueueStats({ url, prefix: 'myapp' })));
 */
export async function readQueueStats(options: RedisConnectionOptions = {}): Promise<QueueStats> {
  const o = parseOptions(schema, options, 'readQueueStats', HINT);
  const settings = redisSettings(o);
  return withQueues(settings, (queues, client) => collectStats(client, queues, strataKeys(settings.prefix), settings.prefix));
}

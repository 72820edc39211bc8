import { Queue } from 'bullmq';
import type { JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DeriveJob, DeriveResult, JobType } from '@strata/core';
import { APPLY_QUEUE, DERIVE_QUEUES, jobIdOf } from './redis-keys.js';
import type { DeriveQueueName } from './redis-keys.js';

/** What a derive job carries: the job itself and the token of the enqueue that made it. */
export interface DeriveJobData {
  job: DeriveJob;
  token: number;
}

/** What an apply job carries; `enqueuedAt` is when its derive job was enqueued (freshness). */
export interface ApplyJobData {
  result: DeriveResult;
  token: number;
  enqueuedAt: number;
}

/** The four BullMQ queues of a prefix, sharing one client. */
export interface StrataQueues {
  derive: Record<DeriveQueueName, Queue<DeriveJobData>>;
  apply: Queue<ApplyJobData>;
  close(): Promise<void>;
}

export function openQueues(client: Redis, prefix: string, onError: (error: unknown) => void): StrataQueues {
  const open = <T>(name: string): Queue<T> => {
    const queue = new Queue<T>(name, { connection: client, prefix });
    queue.on('error', onError);
    return queue;
  };
  const derive = Object.fromEntries(DERIVE_QUEUES.map((name) => [name, open<DeriveJobData>(name)])) as Record<DeriveQueueName, Queue<DeriveJobData>>;
  const apply = open<ApplyJobData>(APPLY_QUEUE);
  return {
    derive,
    apply,
    close: async () => {
      await Promise.all([...Object.values(derive), apply].map((queue) => queue.close()));
    },
  };
}

/** Retries with exponential backoff; completed jobs vanish (so a key can be enqueued again), failed ones stay. */
export function jobOptions(key: string, attempts: number, backoffMs: number): JobsOptions {
  return { jobId: jobIdOf(key), attempts, backoff: { type: 'exponential', delay: backoffMs }, removeOnComplete: true, removeOnFail: false };
}

export type Presence = 'none' | 'live' | 'failed';

/** Where a key is, read atomically (MULTI), so a job moving from derive to apply is never seen in neither. */
export async function presenceOf(client: Redis, queues: StrataQueues, ref: { key: string; type: JobType }): Promise<{ derive: Presence; apply: Presence }> {
  const derive = queues.derive[ref.type];
  const id = jobIdOf(ref.key);
  const replies = await client
    .multi()
    .exists(derive.toKey(id))
    .zscore(derive.keys.failed as string, id)
    .exists(queues.apply.toKey(id))
    .zscore(queues.apply.keys.failed as string, id)
    .exec();
  const value = (i: number): unknown => {
    const [error, reply] = replies?.[i] ?? [new Error('MULTI was discarded'), null];
    if (error) throw error;
    return reply;
  };
  const of = (exists: unknown, failed: unknown): Presence => (Number(exists) === 0 ? 'none' : failed === null ? 'live' : 'failed');
  return { derive: of(value(0), value(1)), apply: of(value(2), value(3)) };
}

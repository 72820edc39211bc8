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

/**
 * Retries with exponential backoff, less up to half of it at random (so that jobs failing
 * together do not retry in step); completed jobs vanish (so a key can be enqueued again), failed ones stay.
 */
export function jobOptions(key: string, attempts: number, backoffMs: number): JobsOptions {
  return { jobId: jobIdOf(key), attempts, backoff: { type: 'exponential', delay: backoffMs, jitter: 0.5 }, removeOnComplete: true, removeOnFail: false };
}

export type Presence = 'none' | 'live' | 'failed';
export interface KeyPresence {
  derive: Presence;
  apply: Presence;
}

// For job i: KEYS[4i+1..4i+4] = derive hash, derive failed set, apply hash, apply failed set; ARGV[i] = job id.
// Returns 3 * derive + apply per job, each 0 (none), 1 (live) or 2 (failed).
const PRESENCE = `
local out = {}
for i = 1, #ARGV do
  local b = (i - 1) * 4
  local d, a = 0, 0
  if redis.call('EXISTS', KEYS[b + 1]) == 1 then d = redis.call('ZSCORE', KEYS[b + 2], ARGV[i]) and 2 or 1 end
  if redis.call('EXISTS', KEYS[b + 3]) == 1 then a = redis.call('ZSCORE', KEYS[b + 4], ARGV[i]) and 2 or 1 end
  out[i] = d * 3 + a
end
return out`;
const PRESENCES: Presence[] = ['none', 'live', 'failed'];
const BATCH = 500;

/**
 * Where keys are, each read atomically (one script per batch), so a job moving from derive to
 * apply is never seen in neither.
 */
export async function presenceOfMany(client: Redis, queues: StrataQueues, refs: readonly { key: string; type: JobType }[]): Promise<KeyPresence[]> {
  const batches: Promise<KeyPresence[]>[] = [];
  for (let start = 0; start < refs.length; start += BATCH) {
    const batch = refs.slice(start, start + BATCH);
    const keys: string[] = [];
    const ids = batch.map((ref) => {
      const id = jobIdOf(ref.key);
      const derive = queues.derive[ref.type];
      keys.push(derive.toKey(id), derive.keys.failed as string, queues.apply.toKey(id), queues.apply.keys.failed as string);
      return id;
    });
    batches.push(
      (client.eval(PRESENCE, keys.length, ...keys, ...ids) as Promise<number[]>).then((codes) =>
        codes.map((code) => ({ derive: PRESENCES[Math.floor(code / 3)] as Presence, apply: PRESENCES[code % 3] as Presence })),
      ),
    );
  }
  return (await Promise.all(batches)).flat();
}

export async function presenceOf(client: Redis, queues: StrataQueues, ref: { key: string; type: JobType }): Promise<KeyPresence> {
  const [presence] = await presenceOfMany(client, queues, [ref]);
  return presence as KeyPresence;
}

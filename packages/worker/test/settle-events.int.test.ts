import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { StrataError } from '@strata/core';
import type { DeriveJob, DeriveResult, JobRuntime } from '@strata/core';
import { createBullMqJobQueue } from '../src/index.js';
import type { BullMqJobQueue, BullMqJobQueueOptions } from '../src/index.js';
import { within } from './fixtures/wait.js';
import { REDIS_URL, deleteKeys, hasRedisServerBinary, redisUnavailable, startOwnRedis, uniquePrefix } from './redis-server.js';

const unavailable = await redisUnavailable();
/** Long enough that only events can settle anything within a test. */
const NO_SAFETY_CHECK = { safetyCheckMs: 3_600_000 };

const job = (fromSeq: number): DeriveJob => ({
  key: `summarize:s:1:${fromSeq}-${fromSeq + 1}`,
  type: 'summarize',
  sessionId: 's:1',
  namespace: 'n',
  fromSeq,
  toSeq: fromSeq + 1,
  turns: [{ id: `m${fromSeq}`, seq: fromSeq, role: 'user', content: 'hello', createdAt: fromSeq }],
});
const resultOf = ({ key, sessionId, namespace, fromSeq, toSeq }: DeriveJob): DeriveResult => ({
  job: { key, type: 'summarize', sessionId, namespace, fromSeq, toSeq },
  text: `summary of ${key}`,
  vector: [1, 0],
  sourceMessageIds: [],
  degraded: false,
});

/** A runtime that derives at once and tells who applied what; `apply` of `held` waits for `release()`. */
function runtimeOf(applied: string[], held?: string) {
  let entered = (): void => undefined;
  let release = (): void => undefined;
  const isHolding = new Promise<void>((resolve) => (entered = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const waiters = new Map<string, () => void>();
  const runtime: JobRuntime = {
    derive: async (derived) => resultOf(derived),
    apply: async (result) => {
      if (result.job.key === held) {
        entered();
        await released;
      }
      applied.push(result.job.key);
      waiters.get(result.job.key)?.();
    },
  };
  const hasApplied = (key: string): Promise<void> => new Promise((resolve) => (applied.includes(key) ? resolve() : waiters.set(key, resolve)));
  return { runtime, isHolding, release, hasApplied };
}

/** Names of the Redis clients QueueEvents opened under `prefix` (BullMQ names them `<prefix>:<queue>:qe`). */
async function queueEventsClients(prefix: string): Promise<string[]> {
  const admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
  try {
    const list = (await admin.client('LIST')) as string;
    return list
      .split('\n')
      .flatMap((line) => /name=(\S+)/.exec(line)?.[1] ?? [])
      .filter((name) => name.startsWith(`${prefix}:`) && name.endsWith(':qe'));
  } finally {
    admin.disconnect();
  }
}

if (unavailable === null) {
  describe('BullMqJobQueue: drain() learns settling from queue events, not polling', () => {
    const cleanup: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
    });
    async function open(prefix: string, options: BullMqJobQueueOptions): Promise<BullMqJobQueue> {
      const queue = await createBullMqJobQueue({ url: REDIS_URL, prefix, backoffMs: 5, ...NO_SAFETY_CHECK, ...options });
      cleanup.push(() => queue.close());
      return queue;
    }

    it('a job applied by another queue instance settles drain() here', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const here = runtimeOf([], job(1).key);
      // One apply at a time here, and the first result is held: the second can only be applied elsewhere.
      const queue = await open(prefix, { deriveConcurrency: 1, applyConcurrency: 1 });
      await queue.start(here.runtime);
      await queue.enqueue([job(1)]);
      await within(here.isHolding, 10_000, 'the held apply');

      const elsewhereApplied: string[] = [];
      const elsewhere = runtimeOf(elsewhereApplied);
      await (await open(prefix, { deriveConcurrency: 0 })).start(elsewhere.runtime);
      await queue.enqueue([job(3)]);
      await within(elsewhere.hasApplied(job(3).key), 10_000, 'the apply in the other instance');
      here.release(); // job(1) settles through the local apply worker; job(3) only through events
      await within(queue.drain(), 5000, 'drain() after a job applied elsewhere');
      expect(elsewhereApplied).toEqual([job(3).key]);
    });

    it('a job failed for good in another queue instance settles drain() here', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const queue = await open(prefix, { deriveConcurrency: 0 });
      await queue.start(runtimeOf([]).runtime);
      const rejecting: JobRuntime = {
        derive: async (derived) => {
          throw new StrataError('INVALID_INPUT', `turns of ${derived.key} are malformed`, { hint: 'test input' });
        },
        apply: async () => undefined,
      };
      await (await open(prefix, { deriveConcurrency: 1 })).start(rejecting);
      await queue.enqueue([job(1)]);
      await within(queue.drain(), 5000, 'drain() after a failure elsewhere');
      expect(await queue.pending()).toMatchObject([{ key: job(1).key, state: 'failed' }]);
    });

    it('opens one QueueEvents connection per queue and close() ends them all', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const queue = await createBullMqJobQueue({ url: REDIS_URL, prefix });
      await queue.start(runtimeOf([]).runtime);
      await queue.enqueue([job(1)]);
      await within(queue.drain(), 5000, 'drain()');
      expect(await queueEventsClients(prefix)).toHaveLength(4);
      await queue.close();
      expect(await queueEventsClients(prefix)).toEqual([]);
    });

    const requireRedisBinary = process.env.STRATA_REQUIRE_SERVICES === '1' || hasRedisServerBinary();
    (requireRedisBinary ? it : it.skip)(
      'a job Redis lost in a restart is enqueued again as soon as the connection is back',
      async () => {
        const redis = await startOwnRedis();
        cleanup.push(() => redis.stop());
        const prefix = uniquePrefix();
        const errors: unknown[] = [];
        const applied: string[] = [];
        const queue = await createBullMqJobQueue({ url: redis.url, prefix, deriveConcurrency: 0, onError: (error) => errors.push(error), ...NO_SAFETY_CHECK });
        cleanup.push(() => queue.close());
        await queue.start(runtimeOf(applied).runtime);
        await queue.enqueue([job(1)]); // no derive worker yet: it waits in Redis, which then loses it
        await redis.stop();
        await redis.start();
        const worker = await createBullMqJobQueue({ url: redis.url, prefix, deriveConcurrency: 1, onError: (error) => errors.push(error), ...NO_SAFETY_CHECK });
        cleanup.push(() => worker.close());
        await worker.start(runtimeOf(applied).runtime);
        await within(queue.drain(), 15_000, 'drain() after the restart');
        expect(applied).toEqual([job(1).key]);
      },
      30_000,
    );
  });
} else {
  describe.skip(`worker: ${unavailable}`, () => {
    it('settle events', () => {});
  });
}

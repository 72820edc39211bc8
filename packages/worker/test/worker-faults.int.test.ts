import { afterEach, describe, expect, it } from 'vitest';
import type { BackgroundError, Memory, StrataError } from '@strata/core';
import { createBullMqJobQueue } from '../src/index.js';
import type { BullMqJobQueue, BullMqJobQueueOptions } from '../src/index.js';
import { memoryOn, namespaceOf, openWorld, referenceSnapshot, snapshot, turnsFor } from './fixtures/conversation.js';
import type { World } from './fixtures/conversation.js';
import { modelServer } from './fixtures/model-server.js';
import { until, within } from './fixtures/wait.js';
import { killAllWorkers, spawnWorker } from './fixtures/spawn-worker.js';
import { REDIS_URL, deleteKeys, hasRedisServerBinary, redisUnavailable, startOwnRedis, uniquePrefix } from './redis-server.js';
import type { OwnRedis } from './redis-server.js';

const unavailable = await redisUnavailable();
const SESSIONS = [
  { n: 1, turns: 30 },
  { n: 2, turns: 22 },
  { n: 3, turns: 26 },
];
const IDS = SESSIONS.map(({ n }) => `s${n}`);
/** Appended while Redis is down. */
const LATE = { n: 4, turns: 14 };
const expected = unavailable === null ? await referenceSnapshot(SESSIONS) : null;

interface App {
  world: World;
  memory: Memory;
  queue: BullMqJobQueue;
  /** What the memory reported failing in the background. */
  errors: BackgroundError[];
  /** What the queue's own Redis connection reported (e.g. reconnecting). */
  queueErrors: StrataError[];
}

async function openApp(options: BullMqJobQueueOptions): Promise<App> {
  const world = await openWorld();
  const queueErrors: StrataError[] = [];
  const queue = await createBullMqJobQueue({ deriveConcurrency: 0, backoffMs: 50, onError: (error) => queueErrors.push(error), ...options });
  const errors: BackgroundError[] = [];
  return { world, queue, errors, queueErrors, memory: await memoryOn(world, queue, (event) => errors.push(event)) };
}

async function converse(memory: Memory, sessions = SESSIONS): Promise<void> {
  for (const { n, turns } of sessions) {
    await memory.sessions.create({ namespace: namespaceOf(`s${n}`), id: `s${n}` });
    await memory.append(`s${n}`, turnsFor(n, turns));
  }
}

if (unavailable === null) {
  describe('worker processes under faults (real processes, real Redis)', () => {
    const cleanup: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
      await killAllWorkers();
      for (const step of cleanup.splice(0).reverse()) await step();
    });

    it('a worker killed mid-job: another one completes it, applied exactly once, nothing lost', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const app = await openApp({ url: REDIS_URL, prefix });
      cleanup.push(() => app.memory.close());
      const victim = spawnWorker({ url: REDIS_URL, prefix, models: 'hang', concurrency: 2, lockDurationMs: 2000 });
      await victim.waitFor('ready');
      await converse(app.memory);
      const held = (await victim.waitFor('active ')).slice('active '.length);
      await victim.kill();

      const survivor = spawnWorker({ url: REDIS_URL, prefix, models: 'offline', concurrency: 2 });
      await survivor.waitFor('ready');
      await within(app.memory.flush(), 60_000, 'flush after the kill');

      expect(survivor.lines(`completed ${held}`)).toHaveLength(1);
      const got = await snapshot(app.world, IDS);
      expect(got).toEqual(expected);
      const stats = await app.queue.stats();
      expect(stats.stalled).toBeGreaterThanOrEqual(1);
      expect(stats.applied).toBe(got.ledgerJobs);
      expect(stats.failures).toBe(0);
    });

    it('a worker killed after handing over a result: the job runs again, its result is stored once', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const app = await openApp({ url: REDIS_URL, prefix });
      cleanup.push(() => app.memory.close());
      const victim = spawnWorker({ url: REDIS_URL, prefix, models: 'offline', concurrency: 1, lockDurationMs: 2000, dieAfterHandover: true });
      await victim.waitFor('ready');
      await converse(app.memory);
      const handedOver = (await victim.waitFor('completed ')).slice('completed '.length);
      expect(await victim.exited).toMatchObject({ signal: 'SIGKILL' });

      const survivor = spawnWorker({ url: REDIS_URL, prefix, models: 'offline', concurrency: 2 });
      await survivor.waitFor('ready');
      await within(app.memory.flush(), 60_000, 'flush after the kill');

      // The derive job never completed: once its lock expires the survivor runs it again, and
      // the replayed result goes through apply a second time. Stored once all the same.
      await survivor.waitFor(`completed ${handedOver}`, 30_000);
      await until(
        () => app.queue.stats(),
        (stats) => stats.queues.apply.waiting + stats.queues.apply.active === 0,
        30_000,
        'the replayed result applied',
      );
      const got = await snapshot(app.world, IDS);
      expect(got).toEqual(expected);
      expect(got.distinctSummaryRanges).toBe(got.summaries);
      expect(got.distinctLedgerKeys).toBe(got.ledgerJobs);
      expect((await app.queue.stats()).stalled).toBeGreaterThanOrEqual(1);
    });

    it('SIGTERM: the worker finishes its running job, then exits 0', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const app = await openApp({ url: REDIS_URL, prefix });
      cleanup.push(() => app.memory.close());
      const stopping = spawnWorker({ url: REDIS_URL, prefix, models: 'slow', slowMs: 1500, concurrency: 1 });
      await stopping.waitFor('ready');
      await converse(app.memory);
      const running = (await stopping.waitFor('active ')).slice('active '.length);
      stopping.child.kill('SIGTERM');
      await stopping.waitFor('closed', 20_000);
      expect(await stopping.exited).toEqual({ code: 0, signal: null });
      expect(stopping.lines(`completed ${running}`)).toHaveLength(1);

      const rest = spawnWorker({ url: REDIS_URL, prefix, models: 'offline' });
      await rest.waitFor('ready');
      await within(app.memory.flush(), 60_000, 'flush after the shutdown');
      expect(await snapshot(app.world, IDS)).toEqual(expected);
      expect((await app.queue.stats()).stalled).toBe(0);
    });

    it('the model endpoint down for a while: jobs back off, then complete once it is back', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const model = await modelServer();
      await model.start();
      cleanup.push(() => model.stop());
      const app = await openApp({ url: REDIS_URL, prefix, attempts: 12, backoffMs: 100 });
      cleanup.push(() => app.memory.close());
      const worker = spawnWorker({ url: REDIS_URL, prefix, models: 'http', modelUrl: model.url });
      await worker.waitFor('ready');
      await converse(app.memory, SESSIONS.slice(0, 1));
      await within(app.memory.flush(), 30_000, 'flush with the model up');
      const callsBefore = model.calls();
      expect(callsBefore).toBeGreaterThan(0);

      await model.stop();
      await converse(app.memory, SESSIONS.slice(1));
      const retrying = await until(
        () => app.queue.pending(),
        (jobs) => jobs.some((job) => job.attempts >= 2 && /BACKEND_UNAVAILABLE/.test(job.error ?? '')),
        30_000,
        'a job retrying with BACKEND_UNAVAILABLE',
      );
      expect(retrying.every((job) => job.state !== 'failed')).toBe(true);
      await model.start();
      await within(app.memory.flush(), 60_000, 'flush after the model came back');

      expect(await snapshot(app.world, IDS)).toEqual(expected);
      const summaries = (await Promise.all(IDS.map((sessionId) => app.world.store.summaries({ sessionId })))).flat();
      expect(summaries.every((summary) => !summary.degraded)).toBe(true);
      expect(model.calls()).toBeGreaterThan(callsBefore);
      const stats = await app.queue.stats();
      expect(stats.retries).toBeGreaterThan(0);
      expect(stats.failures).toBe(0);
      expect(worker.lines('retrying ').some((line) => line.includes('BACKEND_UNAVAILABLE'))).toBe(true);
    });

    const requireRedisBinary = process.env.STRATA_REQUIRE_SERVICES === '1' || hasRedisServerBinary();
    const restartTest = requireRedisBinary ? it : it.skip;
    const restartTitle = requireRedisBinary
      ? 'Redis restarted (losing its data) during a run: producer and workers reconnect, everything completes'
      : 'Redis restarted during a run (skipped: /usr/bin/redis-server is not installed)';
    restartTest(
      restartTitle,
      async () => {
        const redis: OwnRedis = await startOwnRedis();
        cleanup.push(() => redis.stop());
        const prefix = uniquePrefix();
        const app = await openApp({ url: redis.url, prefix });
        cleanup.push(() => app.memory.close());
        const workers = [0, 1].map(() => spawnWorker({ url: redis.url, prefix, models: 'slow', slowMs: 150, concurrency: 1 }));
        for (const worker of workers) await worker.waitFor('ready');
        await converse(app.memory);
        await until(
          () => app.queue.stats(),
          (stats) => stats.applied >= 3,
          30_000,
          'three results applied',
        );

        const reportedBefore = app.queueErrors.length;
        await redis.stop();
        const completedAtRestart = workers.map((worker) => worker.lines('completed ').length);
        // the app's connection has seen Redis go: its queue reports the lost connection
        await until(
          async () => app.queueErrors.length,
          (count) => count > reportedBefore,
          10_000,
          'the queue to report the lost connection',
        );
        expect(app.queueErrors[reportedBefore]).toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
        // An append while Redis is down stores the turns and does not wait for Redis; the
        // planning after it (next macrotask) fails and is recorded, to be retried by flush.
        await within(converse(app.memory, [LATE]), 10_000, 'an append while Redis is down');
        const failure = await until(
          async () => app.errors.find((event) => event.kind === 'schedule'),
          (event) => event !== undefined,
          10_000,
          'the planning after the append to fail',
        );
        expect(failure).toMatchObject({ sessionId: `s${LATE.n}`, error: { code: 'BACKEND_UNAVAILABLE' } });
        await redis.start();
        await within(app.memory.flush(), 90_000, 'flush after the Redis restart');

        expect(await snapshot(app.world, [...IDS, `s${LATE.n}`])).toEqual(await referenceSnapshot([...SESSIONS, LATE]));
        const completedAfter = workers.map((worker) => worker.lines('completed ').length);
        expect(completedAfter.some((count, i) => count > (completedAtRestart[i] ?? 0))).toBe(true);
        expect(workers.every((worker) => worker.child.exitCode === null)).toBe(true);
      },
      120_000,
    );

    const lostTitle = requireRedisBinary
      ? 'Redis lost while an enqueue awaits its answer: that planning and the next fail within reconnectWaitMs, nothing is lost'
      : 'Redis lost while an enqueue awaits its answer (skipped: /usr/bin/redis-server is not installed)';
    restartTest(
      lostTitle,
      async () => {
        const redis: OwnRedis = await startOwnRedis();
        cleanup.push(() => redis.stop());
        const prefix = uniquePrefix();
        const app = await openApp({ url: redis.url, prefix, reconnectWaitMs: 1000 });
        cleanup.push(() => app.memory.close());
        // Paused, Redis keeps the connection and never answers: the planning's commands stay in
        // flight. Killed, it drops them, and ioredis holds them until it reconnects.
        redis.pause();
        await converse(app.memory, SESSIONS.slice(0, 1));
        await new Promise((resolve) => setTimeout(resolve, 500));
        await redis.stop();
        const failed = (sessionId: string) =>
          until(
            async () => app.errors.find((event) => event.kind === 'schedule' && event.sessionId === sessionId),
            (event) => event !== undefined,
            5000,
            `the planning of ${sessionId} to fail`,
          );
        expect(await failed('s1')).toMatchObject({ error: { code: 'BACKEND_UNAVAILABLE' } });
        // the next planning does not queue behind the stuck one
        await within(converse(app.memory, SESSIONS.slice(1, 2)), 5000, 'an append while Redis is down');
        expect(await failed('s2')).toMatchObject({ error: { code: 'BACKEND_UNAVAILABLE' } });

        await redis.start();
        const worker = spawnWorker({ url: redis.url, prefix, models: 'offline', concurrency: 2 });
        await worker.waitFor('ready');
        await within(app.memory.flush(), 60_000, 'flush after the Redis restart');
        expect(await snapshot(app.world, ['s1', 's2'])).toEqual(await referenceSnapshot(SESSIONS.slice(0, 2)));
      },
      60_000,
    );
  });
} else {
  describe.skip(`worker: ${unavailable}`, () => {
    it('worker processes under faults', () => {});
  });
}

import { afterEach, describe, expect, it } from 'vitest';
import type { DeriveResult, JobRuntime } from '@strata/core';
import { createBullMqJobQueue, listFailedJobs, readQueueStats, redriveFailedJobs, startWorker } from '../src/index.js';
import type { WorkerHandle } from '../src/index.js';
import { memoryOn, namespaceOf, openWorld, POLICY, referenceSnapshot, snapshot, turnsFor } from './fixtures/conversation.js';
import { offlineModels } from './fixtures/models.js';
import { REDIS_URL, deleteKeys, redisUnavailable, uniquePrefix } from './redis-server.js';
import { until } from './fixtures/wait.js';

const unavailable = await redisUnavailable();
const SESSIONS = [
  { n: 1, turns: 30 },
  { n: 2, turns: 22 },
];

if (unavailable === null) {
  describe('a memory on BullMQ', () => {
    const cleanup: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
    });

    it('derives in a worker, applies here: pending before flush, none after, every tier counted exactly once', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const expected = await referenceSnapshot(SESSIONS);
      const world = await openWorld();
      const memory = await memoryOn(world, await createBullMqJobQueue({ url: REDIS_URL, prefix, deriveConcurrency: 0, backoffMs: 10 }));
      cleanup.push(() => memory.close());
      for (const { n, turns } of SESSIONS) {
        await memory.sessions.create({ namespace: namespaceOf(`s${n}`), id: `s${n}` });
        await memory.append(`s${n}`, turnsFor(n, turns));
      }

      // No worker serves the derive queues yet: everything is pending, nothing summarized.
      const before = await memory.getContext('s1');
      expect(before.pending.jobs.length).toBeGreaterThan(0);
      expect(before.pending.jobs.every((job) => job.sessionId === 's1' && job.state === 'queued')).toBe(true);
      expect(before.pending.uncoveredMessages).toBe(30);

      const worker: WorkerHandle = await startWorker({ url: REDIS_URL, prefix, models: { ...offlineModels(), policy: POLICY }, concurrency: 2 });
      cleanup.push(() => worker.close());
      await memory.flush();

      const after = await memory.getContext('s1');
      expect(after.pending.jobs).toEqual([]);
      expect(after.pending.uncoveredMessages).toBeLessThan(30);
      const got = await snapshot(world, ['s1', 's2']);
      expect(got).toEqual(expected);
      expect(got.summaries).toBeGreaterThan(0);
      expect(got.facts).toBeGreaterThan(0);
      expect(got.distinctLedgerKeys).toBe(got.ledgerJobs);
      const hits = await memory.search({ namespace: namespaceOf('s1'), query: 'where do I live', k: 5, kinds: ['fact'] });
      expect(hits.length).toBeGreaterThan(0);

      const stats = await worker.stats();
      expect(stats).toMatchObject({ derived: got.ledgerJobs, applied: got.ledgerJobs, failures: 0 });
      expect(stats.latencyMs.apply.count).toBe(got.ledgerJobs);
      for (const depth of Object.values(stats.queues)) expect(depth).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    });

    it('a worker serves only the queues it is given', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const world = await openWorld();
      const queue = await createBullMqJobQueue({ url: REDIS_URL, prefix, deriveConcurrency: 0, backoffMs: 10 });
      const memory = await memoryOn(world, queue);
      cleanup.push(() => memory.close());
      await memory.sessions.create({ namespace: namespaceOf('s1'), id: 's1' });
      await memory.append('s1', turnsFor(1, 30));

      const summarizing = await startWorker({ url: REDIS_URL, prefix, models: { ...offlineModels(), policy: POLICY }, queues: ['summarize'] });
      cleanup.push(() => summarizing.close());
      const stats = await until(
        () => queue.stats(),
        (s) => s.queues.summarize.waiting + s.queues.summarize.active + s.queues.apply.waiting + s.queues.apply.active === 0 && s.applied > 0,
        20_000,
        'the summaries applied, the ingest job held back',
      );
      expect(stats.queues.ingest.waiting).toBe(1);
      expect((await memory.getContext('s1')).pending.jobs.map((job) => job.type)).toEqual(['ingest']);
      expect(await world.store.facts({ namespace: namespaceOf('s1') })).toEqual([]);

      const ingesting = await startWorker({ url: REDIS_URL, prefix, models: { ...offlineModels(), policy: POLICY }, queues: ['ingest'] });
      cleanup.push(() => ingesting.close());
      await memory.flush();
      expect((await memory.getContext('s1')).pending.jobs).toEqual([]);
      expect((await world.store.facts({ namespace: namespaceOf('s1') })).length).toBeGreaterThan(0);
    });

    it('derives in the app process too (deriveConcurrency > 0), with the same result', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const expected = await referenceSnapshot(SESSIONS);
      const world = await openWorld();
      const memory = await memoryOn(world, await createBullMqJobQueue({ url: REDIS_URL, prefix, backoffMs: 10 }));
      cleanup.push(() => memory.close());
      for (const { n, turns } of SESSIONS) {
        await memory.sessions.create({ namespace: namespaceOf(`s${n}`), id: `s${n}` });
        await memory.append(`s${n}`, turnsFor(n, turns));
      }
      await memory.flush();
      expect((await memory.getContext('s2')).pending.jobs).toEqual([]);
      expect(await snapshot(world, ['s1', 's2'])).toEqual(expected);
    });

    it('a queue started on a prefix with unapplied jobs (an app restart) drains them too', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const jobs = [1, 3, 5].map((fromSeq) => ({ key: `summarize:s1:${fromSeq}-${fromSeq + 1}`, type: 'summarize' as const, sessionId: 's1', namespace: 'n', fromSeq, toSeq: fromSeq + 1, turns: [] }));
      const applied: string[] = [];
      const runtime: JobRuntime = {
        async derive(job) {
          const { key, sessionId, namespace, fromSeq, toSeq } = job;
          return { job: { key, type: 'summarize', sessionId, namespace, fromSeq, toSeq }, text: key, vector: [1], sourceMessageIds: [], degraded: false } as DeriveResult;
        },
        async apply(result) {
          applied.push(result.job.key);
        },
      };
      const before = await createBullMqJobQueue({ url: REDIS_URL, prefix, deriveConcurrency: 0 });
      await before.start(runtime);
      await before.enqueue(jobs);
      await before.close(); // the app stops with the jobs still queued

      const after = await createBullMqJobQueue({ url: REDIS_URL, prefix, backoffMs: 5 });
      cleanup.push(() => after.close());
      await after.start(runtime);
      await after.drain();
      expect(applied.sort()).toEqual(jobs.map((job) => job.key));
      expect(await after.pending()).toEqual([]);
    });

    it('keeps a job that failed for good, lists it, and applies it once after a redrive', async () => {
      const prefix = uniquePrefix();
      cleanup.push(() => deleteKeys(prefix));
      const queue = await createBullMqJobQueue({ url: REDIS_URL, prefix, attempts: 2, backoffMs: 5 });
      cleanup.push(() => queue.close());
      let isModelDown = true;
      const applied: DeriveResult[] = [];
      const runtime: JobRuntime = {
        async derive(job) {
          if (isModelDown) throw new Error(`model down for ${job.key}`);
          const { key, sessionId, namespace, fromSeq, toSeq } = job;
          return { job: { key, type: 'summarize', sessionId, namespace, fromSeq, toSeq }, text: `summary ${key}`, vector: [1], sourceMessageIds: [], degraded: false } as DeriveResult;
        },
        async apply(result) {
          applied.push(result);
        },
      };
      await queue.start(runtime);
      const job = { key: 'summarize:s:9:1-2', type: 'summarize' as const, sessionId: 's:9', namespace: 'n', fromSeq: 1, toSeq: 2, turns: [] };
      await queue.enqueue([job]);
      await queue.drain();

      const failed = await listFailedJobs({ url: REDIS_URL, prefix });
      expect(failed).toEqual([expect.objectContaining({ key: job.key, queue: 'summarize', sessionId: 's:9', attempts: 2 })]);
      expect(failed[0]?.error).toContain('model down for summarize:s:9:1-2');
      expect((await readQueueStats({ url: REDIS_URL, prefix })).queues.summarize.failed).toBe(1);
      expect(await queue.pending('s:9')).toEqual([expect.objectContaining({ key: job.key, state: 'failed', attempts: 2 })]);

      isModelDown = false;
      expect(await redriveFailedJobs({ url: REDIS_URL, prefix })).toEqual({ redriven: [job.key] });
      expect(
        await until(
          () => queue.pending(),
          (pending) => pending.length === 0,
          20_000,
          'no job pending',
        ),
      ).toEqual([]);
      expect(applied.map((result) => result.job.key)).toEqual([job.key]);
      expect(await listFailedJobs({ url: REDIS_URL, prefix })).toEqual([]);
      const stats = await queue.stats();
      expect(stats).toMatchObject({ derived: 1, applied: 1, retries: 1, failures: 1 });
    });
  });
} else {
  describe.skip(`worker: ${unavailable}`, () => {
    it('a memory on BullMQ', () => {});
  });
}

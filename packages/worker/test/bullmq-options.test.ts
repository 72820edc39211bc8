import { describe, expect, it } from 'vitest';
import { StrataError, isWorthRetrying } from '@strata/core';
import { createBullMqJobQueue, formatQueueStats, jobIdOf, listFailedJobs, readQueueStats, startWorker } from '../src/index.js';
import type { QueueStats } from '../src/index.js';
import { parseQueueOptions } from '../src/bullmq-job-queue-options.js';
import { toDeriveError, toStrataError } from '../src/to-strata-error.js';
import { offlineModels } from './fixtures/models.js';
import { freePort } from './redis-server.js';

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<StrataError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  if (!StrataError.is(error)) throw error;
  return error;
}

const connectionRefused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });

describe('job ids', () => {
  it('are deterministic, contain no ":" and keep distinct keys distinct', () => {
    expect(jobIdOf('summarize:s1:1-2')).toBe('summarize%3As1%3A1-2');
    expect(jobIdOf('summarize:s1:1-2')).toBe(jobIdOf('summarize:s1:1-2'));
    expect(jobIdOf('ingest:a:b:1-2')).not.toContain(':');
    expect(jobIdOf('ingest:a:b:1-2')).not.toBe(jobIdOf('ingest:a%3Ab:1-2'));
  });
});

describe('options', () => {
  it.each([
    [{ url: 'http://127.0.0.1:6379' }, 'url must look like redis://host:port'],
    [{ url: 'redis://127.0.0.1:6379', connection: { port: 6379 } }, 'either url or connection'],
    [{ deriveConcurrency: -1 }, 'deriveConcurrency'],
    [{ prefix: 'a:b' }, 'prefix'],
    [{ attemps: 3 }, 'attemps'],
  ])('rejects %j with CONFIG_INVALID', async (options, mentioned) => {
    const error = await rejection(createBullMqJobQueue(options as never));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(mentioned);
  });

  it('has documented defaults and reads credentials from the url without showing them', () => {
    const settings = parseQueueOptions({ url: 'redis://app:s3cret@redis.internal:6380/2' });
    expect(settings).toMatchObject({ deriveConcurrency: 2, applyConcurrency: 1, attempts: 4, backoffMs: 1000, safetyCheckMs: 30_000 });
    expect(settings.redis.redis).toMatchObject({ host: 'redis.internal', port: 6380, username: 'app', password: 's3cret', db: 2 });
    expect(settings.redis.where).toBe('redis://redis.internal:6380/2');
    expect(settings.redis.prefix).toBe('strata');
  });

  it('startWorker needs the models', async () => {
    const error = await rejection(startWorker({ url: 'redis://127.0.0.1:6379' } as never));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('models');
  });
});

describe('Redis down at creation', () => {
  it('every entry point fails with BACKEND_UNAVAILABLE naming the server, instead of hanging', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const models = offlineModels();
    for (const attempt of [
      () => createBullMqJobQueue({ url, connectTimeoutMs: 1000 }),
      () => startWorker({ url, connectTimeoutMs: 1000, models }),
      () => readQueueStats({ url, connectTimeoutMs: 1000 }),
      () => listFailedJobs({ url, connectTimeoutMs: 1000 }),
    ]) {
      const error = await rejection(attempt());
      expect(error.code).toBe('BACKEND_UNAVAILABLE');
      expect(error.message).toContain(url);
      expect(error.hint).toContain('scripts/services.sh up');
      expect(error.hint).toContain('STRATA_REDIS_URL');
    }
  });
});

describe('error mapping', () => {
  it('maps driver errors: unreachable -> BACKEND_UNAVAILABLE, bad credentials -> CONFIG_INVALID, else INTERNAL', () => {
    expect(toStrataError(connectionRefused(), 'redis://h:1')).toMatchObject({ code: 'BACKEND_UNAVAILABLE', retryable: true });
    expect(toStrataError(new Error('Connection is closed.'), 'redis://h:1').code).toBe('BACKEND_UNAVAILABLE');
    expect(toStrataError(new Error('WRONGPASS invalid username-password pair'), 'redis://h:1').code).toBe('CONFIG_INVALID');
    expect(toStrataError(new Error('ERR unknown command'), 'redis://h:1').code).toBe('INTERNAL');
    const kept = new StrataError('NOT_FOUND', 'x', { hint: 'y' });
    expect(toStrataError(kept, 'redis://h:1')).toBe(kept);
  });

  it('a model call refused (fetch failed, cause ECONNREFUSED) is BACKEND_UNAVAILABLE and worth retrying; bad input is not', () => {
    const refused = new TypeError('fetch failed', { cause: connectionRefused() });
    const mapped = toDeriveError(refused, 'summarize:s:1-4');
    expect(StrataError.is(mapped, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((mapped as StrataError).message).toContain('summarize:s:1-4');
    expect(isWorthRetrying(mapped)).toBe(true);
    const invalid = new StrataError('INVALID_INPUT', 'bad turns', { hint: 'h' });
    expect(toDeriveError(invalid, 'k')).toBe(invalid);
    expect(isWorthRetrying(toDeriveError(invalid, 'k'))).toBe(false);
    const other = new Error('model answered nonsense');
    expect(toDeriveError(other, 'k')).toBe(other);
  });
});

describe('formatQueueStats', () => {
  it('prints one row per queue and the latency and counters', () => {
    const depth = { waiting: 0, active: 0, delayed: 0, failed: 0 };
    const latency = { count: 0, p50: 0, p95: 0 };
    const stats: QueueStats = {
      prefix: 'app',
      queues: { ingest: { ...depth, waiting: 7 }, summarize: depth, consolidate: depth, apply: { ...depth, failed: 2 } },
      latencyMs: { derive: { count: 10, p50: 12, p95: 40 }, run: latency, apply: latency },
      derived: 10,
      applied: 9,
      retries: 3,
      failures: 2,
      stalled: 1,
    };
    const text = formatQueueStats(stats);
    expect(text).toMatch(/^ingest\s+7\s+0\s+0\s+0$/m);
    expect(text).toMatch(/^apply\s+0\s+0\s+0\s+2$/m);
    expect(text).toContain('p50 12 ms, p95 40 ms (n=10)');
    expect(text).toContain('derived 10, applied 9, retries 3, failures 2, stalled 1');
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { requireService } from '@strata/testkit';
import { countRedisKeys, deleteRedisKeys } from '@strata/testkit/redis';
import { createSandbox, json, readDb, runCli, startCli } from './support/cli.js';

const redisUrl = process.env.STRATA_REDIS_URL ?? 'redis://127.0.0.1:6379';
// This run's own key prefixes, deleted afterwards: the Redis is shared with other runs and apps.
const probePrefix = `strata-cli-probe-${randomUUID().slice(0, 8)}`;
const skipReason = await requireService('Redis', async () => {
  // Probing through the CLI itself: `worker --stats` answers only when Redis does.
  const probe = await runCli(['worker', '--stats', '--json'], { env: { ...process.env, STRATA_REDIS_URL: redisUrl, STRATA_REDIS_PREFIX: probePrefix } });
  if (probe.code !== 0) throw new Error(probe.stderr.trim() || `exit ${probe.code}`);
});
const sandbox = createSandbox('worker');
const env = { ...sandbox.env, STRATA_REDIS_URL: redisUrl, STRATA_REDIS_PREFIX: `strata-cli-${randomUUID().slice(0, 8)}` };
afterAll(async () => {
  sandbox.dispose();
  if (skipReason === null) for (const prefix of [probePrefix, env.STRATA_REDIS_PREFIX]) await deleteRedisKeys(redisUrl, prefix);
});

interface Stats {
  derived: number;
  applied: number;
  failures: number;
  queues: Record<string, { waiting: number; failed: number }>;
}

describe.skipIf(skipReason !== null)(`strata with Redis (BullMQ)${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('chat derives through the Redis queue while a strata worker serves it, and a second process remembers', async () => {
    const worker = startCli(['worker', '--concurrency', '2', '--verbose'], env);
    await worker.waitFor(/strata worker: serving ingest, summarize, consolidate/);
    const first = await runCli(['chat'], { env, input: 'I live in Graz and I work as a baker at Brotzeit.\n' });
    expect(first.code).toBe(0);
    const second = await runCli(['chat', '--continue'], { env, input: 'Where do I live?\n' });
    expect(second.stdout).toMatch(/- User lives in Graz\./);

    const doctor = json<{ checks: { check: string; status: string; detail: string }[] }>(await runCli(['doctor', '--json'], { env }));
    expect(doctor.checks.find((c) => c.check === 'redis')).toMatchObject({ status: 'ok', detail: expect.stringContaining(env.STRATA_REDIS_PREFIX) });
    const stats = json<Stats>(await runCli(['worker', '--stats', '--json'], { env }));
    expect(stats.failures).toBe(0);
    expect(stats.applied).toBe(stats.derived);
    expect(stats.applied).toBeGreaterThanOrEqual(2); // one ingest per stored turn
    expect(Object.values(stats.queues).every((q) => q.waiting === 0 && q.failed === 0)).toBe(true);
    expect(json<unknown[]>(await runCli(['worker', '--failed', '--json'], { env }))).toEqual([]);
    expect(json<{ redriven: string[] }>(await runCli(['worker', '--redrive', '--json'], { env }))).toEqual({ redriven: [] });
    readDb(sandbox.dataDir, (db) => expect(db.prepare("SELECT object FROM facts WHERE predicate = 'lives_in'").pluck().all()).toEqual(['Graz']));

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toMatch(/SIGTERM: finishing running jobs\nworker stopped\n$/);
    // what the run leaves in Redis is under its own prefix, which afterAll deletes
    expect(await countRedisKeys(redisUrl, env.STRATA_REDIS_PREFIX)).toBeGreaterThan(0);
  }, 90_000);
});

describe('strata with an unreachable Redis', () => {
  it('exits 2 naming the server, with a hint', async () => {
    for (const args of [['chat'], ['worker'], ['worker', '--stats']]) {
      const { code, stderr } = await runCli(['--redis-url', 'redis://127.0.0.1:1', ...args], { env: sandbox.env });
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(stderr).toMatch(/Redis at redis:\/\/127\.0\.0\.1:1 is unreachable[^\n]*\nhint: /);
    }
  });

  it('strata worker without Redis is a usage error (exit 1)', async () => {
    const { code, stderr } = await runCli(['worker'], { env: sandbox.env });
    expect(code).toBe(1);
    expect(stderr).toMatch(/hint: Pass --redis-url/);
  });
});

/**
 * Scale-out derivation on BullMQ: derive jobs/s with 1, 2 and 4 worker processes and an
 * instant model (the queue's own cost: enqueue, derive, hand over, apply), and end-to-end
 * freshness: append -> the fact it states is returned by search, with derivation in two
 * worker processes. Needs Redis (STRATA_REDIS_URL, default redis://127.0.0.1:6379).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createInMemoryKnowledgeBase, createInMemorySessionStore, createMemory } from '@strata/core';
import type { DeriveJob, JobRuntime } from '@strata/core';
import { createBullMqJobQueue } from '@strata/worker';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { nsToMs, summarize } from '../lib/stats.js';
import { BENCH_DIMENSIONS, offlineModels } from './worker-bench-models.js';

const REDIS_URL = process.env.STRATA_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = fileURLToPath(new URL('./worker-bench-process.ts', import.meta.url));

interface Plan {
  processes: number[];
  jobs: number;
  concurrency: number;
  freshnessSamples: number;
}

const FULL: Plan = { processes: [1, 2, 4], jobs: 3000, concurrency: 8, freshnessSamples: 200 };
const QUICK: Plan = { processes: [1, 2], jobs: 300, concurrency: 8, freshnessSamples: 20 };

/** Starts `count` worker processes and resolves when each has said `ready`. */
async function startWorkers(count: number, config: Record<string, unknown>): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@strata/source', ENTRY, JSON.stringify(config)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      return new Promise<ChildProcess>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('a bench worker did not start within 60 s')), 60_000);
        child.stdout?.on('data', (chunk: Buffer) => {
          if (!chunk.toString().includes('ready')) return;
          clearTimeout(timer);
          resolve(child);
        });
        child.once('exit', (code) => reject(new Error(`a bench worker exited (${code}) before it was ready`)));
      });
    }),
  );
}

async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child) => new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  })));
}

async function deletePrefix(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

function summarizeJobs(round: string, count: number): DeriveJob[] {
  return Array.from({ length: count }, (_, i) => {
    const sessionId = `${round}-s${i % 50}`;
    const fromSeq = 4 * Math.floor(i / 50) + 1;
    const turns = [0, 1, 2, 3].map((k) => ({ id: `${sessionId}-m${fromSeq + k}`, seq: fromSeq + k, role: k % 2 ? 'assistant' as const : 'user' as const, content: `Turn ${fromSeq + k} about the trip to Kyoto and the temples worth a visit.`, createdAt: fromSeq + k }));
    return { key: `summarize:${sessionId}:${fromSeq}-${fromSeq + 3}`, type: 'summarize', sessionId, namespace: 'bench', fromSeq, toSeq: fromSeq + 3, turns };
  });
}

/** Jobs/s from the first enqueue to the last result applied, with `processes` workers. */
async function measureThroughput(processes: number, plan: Plan): Promise<number> {
  const prefix = `strata-bench-${randomUUID().slice(0, 8)}`;
  const workers = await startWorkers(processes, { url: REDIS_URL, prefix, models: 'instant', concurrency: plan.concurrency });
  let applied = 0;
  const runtime: JobRuntime = {
    derive: () => Promise.reject(new Error('the bench app derives nothing itself')),
    apply: async () => {
      applied += 1;
    },
  };
  const queue = await createBullMqJobQueue({ url: REDIS_URL, prefix, deriveConcurrency: 0, applyConcurrency: 16, pollMs: 100 });
  try {
    await queue.start(runtime);
    await queue.enqueue(summarizeJobs('warmup', 100));
    await queue.drain();
    const jobs = summarizeJobs('run', plan.jobs);
    const started = process.hrtime.bigint();
    for (let i = 0; i < jobs.length; i += 250) await queue.enqueue(jobs.slice(i, i + 250));
    await queue.drain();
    const seconds = nsToMs(process.hrtime.bigint() - started) / 1000;
    if (applied !== plan.jobs + 100) throw new Error(`expected ${plan.jobs + 100} results applied, got ${applied}`);
    return plan.jobs / seconds;
  } finally {
    await queue.close();
    await stopWorkers(workers);
    await deletePrefix(prefix);
  }
}

/** ms from append to the stated fact being returned by search, derivation in 2 worker processes. */
async function measureFreshness(plan: Plan): Promise<number[]> {
  const prefix = `strata-bench-${randomUUID().slice(0, 8)}`;
  const workers = await startWorkers(2, { url: REDIS_URL, prefix, models: 'offline', concurrency: 4 });
  const queue = await createBullMqJobQueue({ url: REDIS_URL, prefix, deriveConcurrency: 0, pollMs: 50 });
  const memory = await createMemory({
    store: await createInMemorySessionStore(),
    knowledge: await createInMemoryKnowledgeBase({ dimensions: BENCH_DIMENSIONS }),
    ...offlineModels(),
    queue,
  });
  const cities = ['Paris', 'Berlin', 'Lisbon', 'Oslo', 'Vienna', 'Madrid', 'Prague', 'Dublin'];
  const samples: number[] = [];
  try {
    for (let i = 0; i < plan.freshnessSamples + 5; i++) {
      const namespace = `fresh-${i}`;
      const city = cities[i % cities.length] as string;
      const session = await memory.sessions.create({ namespace });
      const started = process.hrtime.bigint();
      await memory.append(session.id, { role: 'user', content: `I live in ${city}.` });
      const deadline = Date.now() + 30_000;
      for (;;) {
        const hits = await memory.search({ namespace, query: 'where do I live', k: 3, kinds: ['fact'] });
        if (hits.some((hit) => hit.text.includes(city))) break;
        if (Date.now() > deadline) throw new Error(`the fact of sample ${i} was not searchable within 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      if (i >= 5) samples.push(nsToMs(process.hrtime.bigint() - started)); // the first 5 warm up
    }
    await memory.flush();
    return samples;
  } finally {
    await memory.close();
    await stopWorkers(workers);
    await deletePrefix(prefix);
  }
}

export async function runWorkerThroughputBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[] }> {
  const plan = options.quick ? QUICK : FULL;
  // The machine may be shared: more worker processes than cores only help when cores are idle.
  const figures: Figure[] = [{ name: 'load average (1 min) when the scenario started', value: Math.round((loadavg()[0] ?? 0) * 10) / 10, unit: '' }];
  for (const processes of plan.processes) {
    const rate = await measureThroughput(processes, plan);
    figures.push({ name: `derive jobs/s, ${processes} worker process${processes > 1 ? 'es' : ''} (instant model, concurrency ${plan.concurrency} each, ${plan.jobs} jobs)`, value: Math.round(rate), unit: 'jobs/s' });
  }
  const freshness = summarize(await measureFreshness(plan));
  figures.push({ name: 'freshness p50: append -> fact visible to search (2 worker processes)', value: freshness.p50, unit: 'ms' });
  figures.push({ name: 'freshness p95: append -> fact visible to search (2 worker processes)', value: freshness.p95, unit: 'ms' });
  return { latencies: [{ metric: 'append -> fact visible to search (BullMQ, 2 worker processes)', summary: freshness }], figures };
}

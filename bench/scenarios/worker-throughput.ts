/**
 * Scale-out derivation on BullMQ. Throughput: derive jobs/s with 1, 2 and 4 worker processes
 * and an instant model (the queue's own cost: enqueue, derive, hand over, apply), per process
 * too, beside the core count: processes only add throughput while cores are free (the app,
 * which applies every result, and Redis run on the same machine). Freshness under load: append
 * -> the fact it states is returned by search, while background users keep the two worker
 * processes busy. Nothing polls: the runs end on drain() (settling is pushed by the apply
 * worker and BullMQ QueueEvents) and samples end on the apply of their job.
 * Needs Redis (STRATA_REDIS_URL, default redis://127.0.0.1:6379).
 */
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { createInMemoryKnowledgeBase, createInMemorySessionStore, createMemory } from '@strata/core';
import type { DeriveJob, DeriveResult, JobRuntime, Memory } from '@strata/core';
import { createBullMqJobQueue } from '@strata/worker';
import type { BenchTable, Figure, LatencyMetric } from '../lib/bench-result.js';
import { observeApplies } from '../lib/observed-queue.js';
import type { ObservedQueue } from '../lib/observed-queue.js';
import { nsToMs, summarize } from '../lib/stats.js';
import { deleteRedisKeys } from '@strata/testkit/redis';
import { startWorkers, stopWorkers } from '../lib/worker-processes.js';
import { BENCH_DIMENSIONS, offlineModels } from './worker-bench-models.js';

const REDIS_URL = process.env.STRATA_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Plan {
  processes: number[];
  jobs: number;
  /** Runs per process count; the median is reported. */
  rounds: number;
  concurrency: number;
  freshnessSamples: number;
  /** Background sessions that each append a turn as soon as their previous one is applied. */
  loadUsers: number;
}

const FULL: Plan = { processes: [1, 2, 4], jobs: 3000, rounds: 3, concurrency: 8, freshnessSamples: 200, loadUsers: 16 };
const QUICK: Plan = { processes: [1, 2, 4], jobs: 600, rounds: 1, concurrency: 8, freshnessSamples: 30, loadUsers: 16 };
/** Freshness: 2 worker processes with this concurrency each, so `loadUsers` keeps them busy. */
const FRESHNESS_WORKERS = { processes: 2, concurrency: 4 };
const WARMUP_SAMPLES = 5;
const SAMPLE_TIMEOUT_MS = 30_000;

function summarizeJobs(round: string, count: number): DeriveJob[] {
  return Array.from({ length: count }, (_, i) => {
    const sessionId = `${round}-s${i % 50}`;
    const fromSeq = 4 * Math.floor(i / 50) + 1;
    const turns = [0, 1, 2, 3].map((k) => ({
      id: `${sessionId}-m${fromSeq + k}`,
      seq: fromSeq + k,
      role: k % 2 ? ('assistant' as const) : ('user' as const),
      content: `Turn ${fromSeq + k} about the trip to Kyoto and the temples worth a visit.`,
      createdAt: fromSeq + k,
    }));
    return { key: `summarize:${sessionId}:${fromSeq}-${fromSeq + 3}`, type: 'summarize', sessionId, namespace: 'bench', fromSeq, toSeq: fromSeq + 3, turns };
  });
}

/** Jobs/s from the first enqueue to drain() (the last result applied), per round, with `processes` workers. */
async function measureThroughput(processes: number, plan: Plan): Promise<number[]> {
  const prefix = `strata-bench-${randomUUID().slice(0, 8)}`;
  const workers = await startWorkers(processes, { url: REDIS_URL, prefix, models: 'instant', concurrency: plan.concurrency });
  let applied = 0;
  const runtime: JobRuntime = {
    derive: () => Promise.reject(new Error('the bench app derives nothing itself')),
    apply: async () => {
      applied += 1;
    },
  };
  const queue = await createBullMqJobQueue({ url: REDIS_URL, prefix, deriveConcurrency: 0, applyConcurrency: 16 });
  try {
    await queue.start(runtime);
    await queue.enqueue(summarizeJobs('warmup', 100));
    await queue.drain();
    const rates: number[] = [];
    for (let round = 0; round < plan.rounds; round++) {
      const before = applied;
      const jobs = summarizeJobs(`run${round}`, plan.jobs);
      const started = process.hrtime.bigint();
      for (let i = 0; i < jobs.length; i += 250) await queue.enqueue(jobs.slice(i, i + 250));
      await queue.drain();
      const seconds = nsToMs(process.hrtime.bigint() - started) / 1000;
      if (applied - before !== plan.jobs) throw new Error(`expected ${plan.jobs} results applied, got ${applied - before}`);
      rates.push(plan.jobs / seconds);
    }
    return rates;
  } finally {
    await queue.close();
    await stopWorkers(workers);
    await deleteRedisKeys(REDIS_URL, prefix);
  }
}

const median = (values: number[]): number => summarize(values).p50;
const ingestOf =
  (sessionId: string) =>
  (result: DeriveResult): boolean =>
    result.job.sessionId === sessionId && result.job.type === 'ingest';

/** A background user: appends a turn, waits until its ingest is applied, again, until `isDone()`. */
async function keepBusy(memory: Memory, observed: ObservedQueue, user: number, isDone: () => boolean): Promise<void> {
  const session = await memory.sessions.create({ namespace: `load-${user}` });
  for (let turn = 1; !isDone(); turn++) {
    const applied = observed.next(ingestOf(session.id), SAMPLE_TIMEOUT_MS, `the ingest of load user ${user}, turn ${turn}`);
    await memory.append(session.id, { role: turn % 2 ? 'user' : 'assistant', content: `Turn ${turn}: we talked about the museums of Kyoto and the train to Osaka.` });
    await applied;
  }
}

/** ms from append until search returns the fact; waits on applies of the session, never polls. */
async function sampleFreshness(memory: Memory, observed: ObservedQueue, i: number): Promise<number> {
  const cities = ['Paris', 'Berlin', 'Lisbon', 'Oslo', 'Vienna', 'Madrid', 'Prague', 'Dublin'];
  const namespace = `fresh-${i}`;
  const city = cities[i % cities.length] as string;
  const session = await memory.sessions.create({ namespace });
  const ofSession = (result: DeriveResult): boolean => result.job.sessionId === session.id;
  let applied = observed.next(ingestOf(session.id), SAMPLE_TIMEOUT_MS, `the ingest of sample ${i}`);
  const started = process.hrtime.bigint();
  await memory.append(session.id, { role: 'user', content: `I live in ${city}.` });
  for (;;) {
    await applied;
    applied = observed.next(ofSession, SAMPLE_TIMEOUT_MS, `the fact of sample ${i} searchable`); // if not yet: the next apply
    const hits = await memory.search({ namespace, query: 'where do I live', k: 3, kinds: ['fact'] });
    if (hits.some((hit) => hit.text.includes(city))) break;
  }
  const ms = nsToMs(process.hrtime.bigint() - started);
  applied.catch(() => undefined); // no longer awaited: its timeout must not surface
  return ms;
}

/** Freshness samples, one after another, while `plan.loadUsers` background users keep the workers busy. */
async function measureFreshness(plan: Plan): Promise<{ samples: number[]; loadPerSecond: number }> {
  const prefix = `strata-bench-${randomUUID().slice(0, 8)}`;
  const workers = await startWorkers(FRESHNESS_WORKERS.processes, { url: REDIS_URL, prefix, models: 'offline', concurrency: FRESHNESS_WORKERS.concurrency });
  const observed = observeApplies(await createBullMqJobQueue({ url: REDIS_URL, prefix, deriveConcurrency: 0 }));
  const memory = await createMemory({
    store: await createInMemorySessionStore(),
    knowledge: await createInMemoryKnowledgeBase({ dimensions: BENCH_DIMENSIONS }),
    ...offlineModels(),
    queue: observed.queue,
  });
  let isDone = false;
  const load = Array.from({ length: plan.loadUsers }, (_, user) => keepBusy(memory, observed, user, () => isDone));
  // Fails the sample under way when a load user fails; a load user that returns (isDone) changes nothing.
  const loadFailed = Promise.race(load).then(() => new Promise<never>(() => undefined));
  loadFailed.catch(() => undefined); // raced by each sample; after the last one, Promise.all(load) reports it
  try {
    const samples: number[] = [];
    let windowStart = process.hrtime.bigint();
    let appliedAtStart = observed.applied();
    for (let i = 0; i < plan.freshnessSamples + WARMUP_SAMPLES; i++) {
      if (i === WARMUP_SAMPLES) [windowStart, appliedAtStart] = [process.hrtime.bigint(), observed.applied()];
      const ms = await Promise.race([sampleFreshness(memory, observed, i), loadFailed]);
      if (i >= WARMUP_SAMPLES) samples.push(ms);
    }
    const seconds = nsToMs(process.hrtime.bigint() - windowStart) / 1000;
    const loadPerSecond = (observed.applied() - appliedAtStart) / seconds;
    isDone = true;
    await Promise.all(load);
    await memory.flush();
    return { samples, loadPerSecond };
  } finally {
    isDone = true;
    await Promise.allSettled(load);
    await memory.close();
    await stopWorkers(workers);
    await deleteRedisKeys(REDIS_URL, prefix);
  }
}

const plural = (n: number): string => `${n} worker process${n > 1 ? 'es' : ''}`;

export async function runWorkerThroughputBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; tables: BenchTable[]; notes: string[] }> {
  const plan = options.quick ? QUICK : FULL;
  const cores = cpus().length;
  // The machine may be shared: more worker processes than cores only help when cores are idle.
  const figures: Figure[] = [
    { name: 'cores (os.cpus().length)', value: cores, unit: '' },
    { name: 'load average (1 min) when the scenario started', value: Math.round((loadavg()[0] ?? 0) * 10) / 10, unit: '' },
  ];
  const rows: string[][] = [];
  let single = 0;
  for (const processes of plan.processes) {
    const rate = median(await measureThroughput(processes, plan));
    single ||= rate;
    const setup = `${plural(processes)}, instant model, concurrency ${plan.concurrency} each, ${plan.jobs} jobs, median of ${plan.rounds} round(s)`;
    figures.push({ name: `derive jobs/s, ${setup}`, value: Math.round(rate), unit: 'jobs/s' });
    figures.push({ name: `derive jobs/s per process, ${plural(processes)}`, value: Math.round(rate / processes), unit: 'jobs/s' });
    rows.push([String(processes), String(cores), String(Math.round(rate)), String(Math.round(rate / processes)), `${(rate / single).toFixed(2)}x`]);
  }
  const { samples, loadPerSecond } = await measureFreshness(plan);
  const freshness = summarize(samples);
  const under = `${plural(FRESHNESS_WORKERS.processes)} x concurrency ${FRESHNESS_WORKERS.concurrency}, ${plan.loadUsers} background users appending`;
  figures.push({ name: `freshness p50 under load: append -> fact visible to search (${under})`, value: freshness.p50, unit: 'ms' });
  figures.push({ name: `freshness p95 under load: append -> fact visible to search (${under})`, value: freshness.p95, unit: 'ms' });
  figures.push({ name: 'derive jobs applied/s while freshness was sampled (load and samples, offline models)', value: Math.round(loadPerSecond), unit: 'jobs/s' });
  return {
    latencies: [{ metric: `append -> fact visible to search under load (BullMQ, ${under})`, summary: freshness }],
    figures,
    tables: [{ title: 'derive throughput by worker processes', header: ['worker processes', 'cores', 'jobs/s', 'jobs/s per process', 'vs 1 process'], rows }],
    notes: [
      `This machine has ${cores} core(s); the app (which applies every result), Redis and the worker processes share them, so throughput grows with processes only while cores are idle.`,
      'Runs end on drain(), which learns settling from the apply worker and BullMQ QueueEvents (no polling); freshness samples end on the apply of their own job, then one search.',
    ],
  };
}

import type { Redis } from 'ioredis';
import type { StrataQueues } from './queues.js';
import { QUEUE_NAMES } from './redis-keys.js';
import type { LatencyKind, QueueName, StrataKeys } from './redis-keys.js';

/** Jobs of one queue by state. `waiting` includes prioritized jobs; `delayed` are waiting for a retry. */
export interface QueueDepth {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** Nearest-rank percentiles of the newest samples (up to 2000), in milliseconds; 0 when `count` is 0. */
export interface LatencyStats {
  count: number;
  p50: number;
  p95: number;
}

/** What `readQueueStats`, `BullMqJobQueue#stats` and a worker handle's `stats()` report. */
export interface QueueStats {
  prefix: string;
  /** Depth per queue: the derive queues `ingest`, `summarize`, `consolidate`, and `apply`. */
  queues: Record<QueueName, QueueDepth>;
  latencyMs: {
    /** Enqueue to derived (queue wait + model time). */
    derive: LatencyStats;
    /** Model time of one successful attempt. */
    run: LatencyStats;
    /** Enqueue to applied in the store: end-to-end freshness. */
    apply: LatencyStats;
  };
  /** Counters since the prefix was first used. */
  derived: number;
  applied: number;
  /** Failed attempts followed by a retry. */
  retries: number;
  /** Jobs that failed for good (kept; see listFailedJobs). */
  failures: number;
  /** Jobs taken back from a worker that stopped (crash, kill) and run again. */
  stalled: number;
}

export async function collectStats(client: Redis, queues: StrataQueues, keys: StrataKeys, prefix: string): Promise<QueueStats> {
  const all = [...Object.values(queues.derive), queues.apply];
  const kinds: LatencyKind[] = ['derive', 'run', 'apply'];
  const [counts, counters, ...samples] = await Promise.all([
    Promise.all(all.map((queue) => queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'))),
    client.hgetall(keys.counters),
    ...kinds.map((kind) => client.lrange(keys.latency(kind), 0, -1)),
  ]);
  const queueDepths = Object.fromEntries(
    QUEUE_NAMES.map((name, i) => {
      const c = counts[i] ?? {};
      return [name, { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0 }];
    }),
  ) as Record<QueueName, QueueDepth>;
  const counter = (name: string): number => Number(counters[name] ?? 0);
  const latency = (i: number): LatencyStats => latencyOf((samples[i] ?? []).map(Number));
  return {
    prefix,
    queues: queueDepths,
    latencyMs: { derive: latency(0), run: latency(1), apply: latency(2) },
    derived: counter('derived'),
    applied: counter('applied'),
    retries: counter('retries'),
    failures: counter('failures'),
    stalled: counter('stalled'),
  };
}

function latencyOf(samples: number[]): LatencyStats {
  const sorted = samples.filter(Number.isFinite).sort((a, b) => a - b);
  const at = (p: number): number => (sorted.length ? (sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1] ?? 0) : 0);
  return { count: sorted.length, p50: at(50), p95: at(95) };
}

/** Plain text for a terminal (`strata worker --stats`). */
export function formatQueueStats(stats: QueueStats): string {
  const rows = QUEUE_NAMES.map((name) => {
    const d = stats.queues[name];
    return `${name.padEnd(12)}${String(d.waiting).padStart(9)}${String(d.active).padStart(8)}${String(d.delayed).padStart(9)}${String(d.failed).padStart(8)}`;
  });
  const l = stats.latencyMs;
  const line = (label: string, s: LatencyStats): string => `${label.padEnd(22)}p50 ${s.p50} ms, p95 ${s.p95} ms (n=${s.count})`;
  return [
    `strata queues (prefix "${stats.prefix}")`,
    `${'queue'.padEnd(12)}${'waiting'.padStart(9)}${'active'.padStart(8)}${'delayed'.padStart(9)}${'failed'.padStart(8)}`,
    ...rows,
    line('enqueue -> derived', l.derive),
    line('model time', l.run),
    line('enqueue -> applied', l.apply),
    `derived ${stats.derived}, applied ${stats.applied}, retries ${stats.retries}, failures ${stats.failures}, stalled ${stats.stalled}`,
  ].join('\n');
}

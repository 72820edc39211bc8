import type { Redis } from 'ioredis';
import type { LatencyKind, StrataKeys } from './redis-keys.js';

/** How many latency samples of each kind are kept (the newest). */
const SAMPLES_KEPT = 2000;

export type Counter = 'derived' | 'applied' | 'retries' | 'failures' | 'stalled';

/**
 * Records counters and latency samples in Redis, shared by every process of a prefix.
 * Recording never fails a job: a failed write goes to `onError`.
 */
export class MetricsRecorder {
  constructor(
    private readonly client: Redis,
    private readonly keys: StrataKeys,
    private readonly onError: (error: unknown) => void,
  ) {}

  count(counter: Counter): void {
    this.client.hincrby(this.keys.counters, counter, 1).catch(this.onError);
  }

  /** A counter and latency samples in one round trip. */
  record(counter: Counter, samples: Partial<Record<LatencyKind, number>>): void {
    const pipeline = this.client.pipeline().hincrby(this.keys.counters, counter, 1);
    for (const [kind, ms] of Object.entries(samples) as [LatencyKind, number][]) {
      pipeline.lpush(this.keys.latency(kind), String(Math.max(0, Math.round(ms)))).ltrim(this.keys.latency(kind), 0, SAMPLES_KEPT - 1);
    }
    pipeline.exec().catch(this.onError);
  }
}

/** Latency summary of one metric, in milliseconds. */
export interface LatencySummary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
}

const NS_PER_MS = 1_000_000;

/** Converts `process.hrtime.bigint()` differences to milliseconds. */
export function nsToMs(ns: bigint): number {
  return Number(ns) / NS_PER_MS;
}

/**
 * Nearest-rank percentile of ascending `sorted` (p in 0..100): an observed sample, never an
 * interpolation, so p99 of 100 samples is the 99th slowest call, not a blend of two.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('percentile of no samples');
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Summarizes samples given in milliseconds. */
export function summarize(samplesMs: readonly number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, value) => acc + value, 0);
  return {
    n: sorted.length,
    mean: sum / sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    min: percentile(sorted, 0),
    max: percentile(sorted, 100),
  };
}

/**
 * Runs `fn` `times` times, sequentially, and returns each call's duration in milliseconds;
 * `between`, if given, runs after each call, untimed (e.g. a macrotask as an app awaits its model).
 */
export async function timeEach(times: number, fn: (i: number) => Promise<unknown>, between?: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = process.hrtime.bigint();
    await fn(i);
    samples.push(nsToMs(process.hrtime.bigint() - start));
    await between?.(i);
  }
  return samples;
}

/** Duration of one call of `fn`, in milliseconds. */
export async function timeOnce(fn: () => Promise<unknown>): Promise<number> {
  const [ms] = await timeEach(1, fn);
  return ms as number;
}

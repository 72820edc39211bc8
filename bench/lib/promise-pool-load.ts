/**
 * The in-process side of the server bench: `connections` async loops in this process, each
 * awaiting one call at a time until the time is up, as wrk's connections each wait for their
 * answer.
 */
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { nsToMs, percentile } from './stats.js';

/** What a pool of loops did in its time. */
export interface PoolRun {
  connections: number;
  /** Calls that finished (resolved or rejected). */
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** Calls that rejected. */
  errors: number;
  /** The first rejection, to say what failed. */
  firstError?: unknown;
}

/**
 * Runs `call` from `connections` loops for `seconds`; `call(loop, n)` gets its loop's index and its call count. Each sample is a
 * loop's wait for the next macrotask plus the call, as a request waits for the server's event loop before it is handled.
 */
export async function runPromisePool(connections: number, seconds: number, call: (loop: number, n: number) => Promise<unknown>): Promise<PoolRun> {
  const samples: number[] = [];
  let errors = 0;
  let firstError: unknown;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const loop = async (index: number): Promise<void> => {
    for (let n = 0; process.hrtime.bigint() < deadline; n++) {
      const before = process.hrtime.bigint();
      // timed: a request to the server waits for the event loop too, behind the other
      // connections' work and the memory's own macrotasks (derivation results, timers)
      await nextMacrotask();
      try {
        await call(index, n);
      } catch (error) {
        errors += 1;
        firstError ??= error;
      }
      samples.push(nsToMs(process.hrtime.bigint() - before));
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, index) => loop(index)));
  const elapsed = nsToMs(process.hrtime.bigint() - started) / 1000;
  const sorted = samples.sort((a, b) => a - b);
  return {
    connections,
    requests: sorted.length,
    seconds: elapsed,
    p50Ms: sorted.length ? percentile(sorted, 50) : Number.NaN,
    p99Ms: sorted.length ? percentile(sorted, 99) : Number.NaN,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
  };
}

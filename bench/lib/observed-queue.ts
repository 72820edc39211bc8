/**
 * A JobQueue that tells when results are applied, so that the worker-throughput bench waits on
 * the apply itself instead of polling for its effect.
 */
import type { DeriveResult, JobQueue } from '@strata/core';

interface Waiter {
  matches: (result: DeriveResult) => boolean;
  resolve: (result: DeriveResult) => void;
}

export interface ObservedQueue {
  /** Pass this to createMemory: `queue`, with each apply reported once it has returned. */
  queue: JobQueue;
  /** Results applied so far. */
  applied: () => number;
  /**
   * Resolves with the next applied result that `matches` (call it before what causes the apply);
   * rejects after `ms` saying `what` did not happen.
   */
  next: (matches: (result: DeriveResult) => boolean, ms: number, what: string) => Promise<DeriveResult>;
}

export function observeApplies(queue: JobQueue): ObservedQueue {
  const waiters = new Set<Waiter>();
  let applied = 0;
  const notify = (result: DeriveResult): void => {
    applied += 1;
    for (const waiter of [...waiters]) {
      if (!waiter.matches(result)) continue;
      waiters.delete(waiter);
      waiter.resolve(result);
    }
  };
  const observed: JobQueue = {
    derivesInline: queue.derivesInline,
    keepsJobs: queue.keepsJobs,
    start: (runtime) =>
      queue.start({
        derive: (job, attempt) => runtime.derive(job, attempt),
        apply: async (result) => {
          await runtime.apply(result);
          notify(result);
        },
      }),
    enqueue: (jobs) => queue.enqueue(jobs),
    pending: (sessionId) => queue.pending(sessionId),
    drain: () => queue.drain(),
    close: () => queue.close(),
  };
  const next = (matches: Waiter['matches'], ms: number, what: string): Promise<DeriveResult> =>
    new Promise<DeriveResult>((resolve, reject) => {
      const waiter: Waiter = {
        matches,
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`${what} did not happen within ${ms} ms`));
      }, ms);
      timer.unref(); // a wait nobody awaits any more must not keep the process alive
      waiters.add(waiter);
    });
  return { queue: observed, applied: () => applied, next };
}

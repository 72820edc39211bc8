import type { MiddlewareHandler } from 'hono';
import { ProblemException, problem } from './problem.js';

/**
 * Answers 503 (Retry-After: 1) when the rest of the chain takes longer than `ms`. The memory's
 * work is not cancelled and may still complete: an append retried with its Idempotency-Key is
 * stored once either way.
 */
export function requestTimeout(ms: number): MiddlewareHandler {
  return async (_c, next) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const doc = problem('BACKEND_UNAVAILABLE', `the request did not complete within ${ms} ms`, 'Retry later; an append retried with the same Idempotency-Key is stored once.');
        reject(new ProblemException({ problem: doc, headers: { 'retry-after': '1' } }));
      }, ms);
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}

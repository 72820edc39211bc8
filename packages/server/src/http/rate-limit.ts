import type { MiddlewareHandler } from 'hono';
import { TokenBucket } from 'limiter';
import type { ServerEnv } from './caller.js';
import { ProblemException, problem } from './problem.js';

/** Requests per second a key may send on average, and how many at once. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/**
 * One token bucket per key (`open` in open mode), full at first. The buckets live in a Map of at
 * most `maxKeys`, least recently used first out: a key evicted starts again with a full bucket.
 */
export function rateLimit(limit: RateLimit, maxKeys = 10_000): MiddlewareHandler<ServerEnv> {
  const buckets = new Map<string, TokenBucket>();
  const bucketOf = (keyId: string): TokenBucket => {
    let bucket = buckets.get(keyId);
    if (bucket) buckets.delete(keyId);
    else {
      bucket = new TokenBucket({ bucketSize: limit.burst, tokensPerInterval: limit.perSecond, interval: 'second' });
      bucket.content = limit.burst;
      if (buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value as string);
    }
    buckets.set(keyId, bucket);
    return bucket;
  };
  return async (c, next) => {
    const bucket = bucketOf(c.var.caller.keyId);
    if (!bucket.tryRemoveTokens(1)) {
      const seconds = Math.max(1, Math.ceil(bucket.getWaitTime(1) / 1000));
      const detail = `this API key sent more than ${limit.perSecond} requests per second (burst ${limit.burst})`;
      throw new ProblemException({
        problem: problem('RATE_LIMITED', detail, `Retry after ${seconds} s (Retry-After), and send fewer requests per second.`),
        headers: { 'retry-after': String(seconds) },
      });
    }
    await next();
  };
}

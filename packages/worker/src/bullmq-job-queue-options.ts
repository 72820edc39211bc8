import { z } from 'zod';
import type { StrataError } from '@strata/core';
import { BOTH_GIVEN_ERROR, bothGiven, connectionShape, parseOptions, redisSettings } from './connection-options.js';
import type { RedisConnectionOptions, RedisSettings } from './connection-options.js';
import type { StallSettings } from './derive-workers.js';

export interface BullMqJobQueueOptions extends RedisConnectionOptions {
  /**
   * Derive jobs this process runs itself, per derive queue. 0 leaves all derivation to
   * `startWorker` processes (pure scale-out). @defaultValue 2
   */
  deriveConcurrency?: number;
  /** Results applied at once (the store serializes writes anyway). @defaultValue 1 */
  applyConcurrency?: number;
  /** Tries per job (derive, and apply), counting the first. @defaultValue 4 */
  attempts?: number;
  /** Backoff before retry n is `backoffMs * 2^(n-1)`, less up to half of it at random (jitter). @defaultValue 1000 */
  backoffMs?: number;
  /**
   * `drain()` learns that jobs settled from the queues' events, and finds jobs Redis lost when
   * the connection comes back; this slow check of every unsettled job, at this interval, only
   * catches losses that send no event and break no connection (FLUSHALL, a failover to a
   * lagging replica, eviction). @defaultValue 30000
   */
  safetyCheckMs?: number;
  /**
   * While the connection is lost, how long `enqueue` and `pending` wait for it before failing
   * with BACKEND_UNAVAILABLE (enqueued jobs are kept and enqueued once Redis answers), so
   * that `append` and `getContext` do not hang on a Redis that is down. @defaultValue 2000
   */
  reconnectWaitMs?: number;
  /** A job held by a process that stopped answering is taken back after about this long. @defaultValue 30000 */
  lockDurationMs?: number;
  /** @defaultValue 30000 */
  stalledIntervalMs?: number;
  /** Times a job may be taken back from a stopped worker before it fails. @defaultValue 2 */
  maxStalledCount?: number;
  /** Background errors (Redis reconnecting, a failed metrics write). @defaultValue a throttled warning on stderr */
  onError?: (error: StrataError) => void;
}

export interface BullMqJobQueueSettings {
  redis: RedisSettings;
  deriveConcurrency: number;
  applyConcurrency: number;
  attempts: number;
  backoffMs: number;
  safetyCheckMs: number;
  reconnectWaitMs: number;
  stall: StallSettings;
  onError?: ((error: StrataError) => void) | undefined;
}

export const stallShape = {
  lockDurationMs: z.int().positive().default(30_000),
  stalledIntervalMs: z.int().positive().default(30_000),
  maxStalledCount: z.int().min(0).default(2),
};

const schema = z
  .object({
    ...connectionShape,
    ...stallShape,
    deriveConcurrency: z.int().min(0).default(2),
    applyConcurrency: z.int().positive().default(1),
    attempts: z.int().positive().default(4),
    backoffMs: z.int().min(0).default(1000),
    safetyCheckMs: z.int().positive().default(30_000),
    reconnectWaitMs: z.int().min(0).default(2000),
    onError: z.custom<(error: StrataError) => void>((v) => typeof v === 'function', { error: 'onError must be a function' }).optional(),
  })
  .strict()
  .refine(bothGiven, BOTH_GIVEN_ERROR);

/** @throws StrataError CONFIG_INVALID with zod's report. */
export function parseQueueOptions(options: BullMqJobQueueOptions): BullMqJobQueueSettings {
  const o = parseOptions(schema, options, 'BullMQ job queue', "Pass { url: 'redis://127.0.0.1:6379', prefix?: 'strata' } (see BullMqJobQueueOptions).");
  return {
    redis: redisSettings(o),
    deriveConcurrency: o.deriveConcurrency,
    applyConcurrency: o.applyConcurrency,
    attempts: o.attempts,
    backoffMs: o.backoffMs,
    safetyCheckMs: o.safetyCheckMs,
    reconnectWaitMs: o.reconnectWaitMs,
    stall: { lockDurationMs: o.lockDurationMs, stalledIntervalMs: o.stalledIntervalMs, maxStalledCount: o.maxStalledCount },
    onError: o.onError,
  };
}

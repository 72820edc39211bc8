import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { RedisOptions as BullMqRedisOptions, WorkerOptions } from 'bullmq';
import type { RedisSettings } from './connection-options.js';
import { StrataError } from '@strata/core';
import { START_HINT, toStrataError } from './to-strata-error.js';

/**
 * Fails fast when Redis does not answer: one connection attempt, no offline queue, bounded
 * by `connectTimeoutMs`, so a factory never hangs on a server that is down.
 * @throws StrataError BACKEND_UNAVAILABLE naming the server, CONFIG_INVALID for bad credentials.
 */
export async function probeRedis(settings: RedisSettings): Promise<void> {
  const client = new Redis({
    ...settings.redis,
    lazyConnect: true,
    connectTimeout: settings.connectTimeoutMs,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
  });
  // The socket error (ECONNREFUSED, ...) says more than connect()'s "Connection is closed".
  let socketError: unknown;
  client.on('error', (error) => (socketError ??= error));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`connect ETIMEDOUT: no answer within ${settings.connectTimeoutMs} ms`)), settings.connectTimeoutMs);
  });
  try {
    await Promise.race([client.connect().then(() => client.ping()), timeout]);
  } catch (error) {
    throw toStrataError(socketError ?? error, settings.where);
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

/**
 * A client that reconnects forever. `isWorker`: commands wait for Redis however long it is
 * down (BullMQ requires this of workers); otherwise a command fails after about 20
 * reconnection attempts (~20 s), so an app's calls do not hang forever. `isPipelined`:
 * commands of one tick go out in one write; only for a client BullMQ does not share (BullMQ
 * defines dozens of scripts on its clients, which makes every pipeline costly to build).
 */
export function openRedis(settings: RedisSettings, isWorker: boolean, onError: (error: unknown) => void, isPipelined = false): Redis {
  const options: RedisOptions = { ...redisOptionsFor(settings, isWorker), lazyConnect: false, enableAutoPipelining: isPipelined };
  const client = new Redis(options);
  client.on('error', onError);
  return client;
}

/** Options for BullMQ's own connections (workers create theirs from these). */
export function redisOptionsFor(settings: RedisSettings, isWorker: boolean): BullMqRedisOptions & RedisOptions {
  return {
    ...settings.redis,
    connectTimeout: settings.connectTimeoutMs,
    retryStrategy: (times: number) => Math.min(100 * times, 2000),
    maxRetriesPerRequest: isWorker ? null : 20,
  };
}

/** QUIT, or a hard disconnect when Redis does not answer within `ms`. */
export async function closeRedis(client: Redis, ms = 2000): Promise<void> {
  if (client.status === 'end') return;
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([
    client.quit().then(
      () => undefined,
      () => undefined,
    ),
    giveUp,
  ]);
  clearTimeout(timer);
  client.disconnect();
}

/** Lost the connection and trying again (not: still opening the first one). */
export const isReconnecting = (client: Redis): boolean => ['reconnecting', 'close', 'end'].includes(client.status);

/**
 * Returns when the connection is up; waits up to `ms` for a lost one to come back, then
 * fails with BACKEND_UNAVAILABLE saying `consequence`.
 */
export async function awaitConnection(client: Redis, ms: number, what: string, consequence: string): Promise<void> {
  if (!isReconnecting(client)) return;
  const isBack = await new Promise<boolean>((resolve) => {
    const done = (value: boolean): void => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(value);
    };
    const onReady = (): void => done(true);
    const timer = setTimeout(() => done(false), ms);
    client.on('ready', onReady);
  });
  if (!isBack) throw new StrataError('BACKEND_UNAVAILABLE', `${what} is unreachable (reconnecting); ${consequence}`, { hint: START_HINT });
}

/**
 * Settles as `work` does, unless the connection is lost and stays lost for `ms` first: then
 * fails with BACKEND_UNAVAILABLE saying `consequence`. Bounds work whose commands were in
 * flight when the connection dropped: ioredis keeps those until it reconnects, whatever
 * `maxRetriesPerRequest` says. `work` goes on; its outcome is then no longer reported here.
 */
export function failAfterOutage<T>(client: Redis, work: Promise<T>, ms: number, what: string, consequence: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const lost = (): void => {
      timer ??= setTimeout(() => {
        stop();
        reject(new StrataError('BACKEND_UNAVAILABLE', `${what} is unreachable (reconnecting); ${consequence}`, { hint: START_HINT }));
      }, ms);
    };
    const back = (): void => {
      clearTimeout(timer);
      timer = undefined;
    };
    const stop = (): void => {
      back();
      client.off('close', lost);
      client.off('ready', back);
    };
    client.on('close', lost);
    client.on('ready', back);
    if (isReconnecting(client)) lost();
    work.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

/** BullMQ's stall handling: how long a job stays claimed by a worker that stopped answering. */
export interface StallSettings {
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
}

/** Options of one BullMQ `Worker`: its own blocking connection, the prefix, concurrency and stall handling. */
export function workerOptionsFor(settings: RedisSettings, stall: StallSettings, concurrency: number): WorkerOptions {
  return {
    connection: redisOptionsFor(settings, true),
    prefix: settings.prefix,
    concurrency,
    lockDuration: stall.lockDurationMs,
    stalledInterval: stall.stalledIntervalMs,
    maxStalledCount: stall.maxStalledCount,
  };
}

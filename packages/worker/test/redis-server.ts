import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { requireService } from '@strata/testkit';
import { countRedisKeys, deleteRedisKeys } from '@strata/testkit/redis';

/** The Redis the integration tests use; `bash scripts/services.sh up` starts it there. */
export const REDIS_URL = process.env.STRATA_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Null when Redis answers PING; otherwise why the suite is skipped (or a throw under STRATA_REQUIRE_SERVICES=1). */
export function redisUnavailable(url = REDIS_URL): Promise<string | null> {
  return requireService('Redis', () => ping(url));
}

async function ping(url: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 3000, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new Error(`no PING answer at ${url} (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  } finally {
    client.disconnect();
  }
}

/** A key prefix no other test run uses. */
export const uniquePrefix = (): string => `strata-test-${randomUUID().slice(0, 12)}`;

/** Deletes every key under `prefix:`; returns how many. */
export function deleteKeys(prefix: string, url = REDIS_URL): Promise<number> {
  return deleteRedisKeys(url, prefix);
}

/** Counts keys under `prefix:`. */
export function countKeys(prefix: string, url = REDIS_URL): Promise<number> {
  return countRedisKeys(url, prefix);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export const REDIS_SERVER_BINARY = '/usr/bin/redis-server';

/** A throwaway redis-server of the test's own (no persistence), which the test may stop and start. */
export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP: connections stay open and commands go unanswered until stop() or resume(). */
  pause(): void;
  resume(): void;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  // Started once its log says so: redis-server prints "Ready to accept connections" when it listens.
  const start = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const started = spawn(REDIS_SERVER_BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
      child = started;
      let log = '';
      const timer = setTimeout(() => fail(new Error(`redis-server on port ${port} was not ready within 10 s; its log:\n${log}`)), 10_000);
      const onData = (data: Buffer): void => {
        log += data.toString('utf8');
        if (!log.includes('Ready to accept connections')) return;
        clearTimeout(timer);
        started.stdout?.off('data', onData).resume();
        started.off('exit', onExit);
        resolve();
      };
      const onExit = (code: number | null): void => fail(new Error(`redis-server on port ${port} exited (code ${code}) before it was ready; its log:\n${log}`));
      const fail = (error: Error): void => {
        clearTimeout(timer);
        started.kill('SIGKILL');
        reject(error);
      };
      started.stdout?.on('data', onData);
      started.once('exit', onExit);
    });
  const stop = async (): Promise<void> => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  const signal = (name: NodeJS.Signals): void => {
    if (child === null) throw new Error(`redis-server on port ${port} is not running`);
    child.kill(name);
  };
  await start();
  return { url, stop, start, pause: () => signal('SIGSTOP'), resume: () => signal('SIGCONT') };
}

export const hasRedisServerBinary = (): boolean => existsSync(REDIS_SERVER_BINARY);

import { z } from 'zod';
import type { RedisOptions } from 'ioredis';
import { StrataError } from '@strata/core';

/** How to reach Redis and which keys to use; shared by every entry point of this package. */
export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]` (`rediss://` for TLS). Give `url` or `connection`. @defaultValue 'redis://127.0.0.1:6379' */
  url?: string;
  /** ioredis options (host, port, password, tls, ...), as an alternative to `url`. */
  connection?: RedisOptions;
  /** First part of every key: BullMQ's `<prefix>:<queue>:*` and strata's `<prefix>:strata:*`. One store per prefix. @defaultValue 'strata' */
  prefix?: string;
  /** How long creating waits for Redis before failing with BACKEND_UNAVAILABLE. @defaultValue 5000 */
  connectTimeoutMs?: number;
}

/** The connection part, resolved once. */
export interface RedisSettings {
  /** For messages: where Redis was expected, without a password. */
  where: string;
  redis: RedisOptions;
  prefix: string;
  connectTimeoutMs: number;
}

export const connectionShape = {
  url: z
    .url({ protocol: /^rediss?$/, error: 'url must look like redis://host:port (or rediss:// for TLS)' })
    .refine((url) => /^rediss?:\/\/[^/?#]+(\/\d*)?$/.test(url), { error: 'url may end in /<db number> and nothing else (redis://host:port/0)' })
    .optional(),
  connection: z
    .custom<RedisOptions>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
      error: 'connection must be an object of ioredis options ({ host, port, ... })',
    })
    .optional(),
  prefix: z
    .string()
    .min(1)
    .regex(/^[^:\s]+$/, { error: 'prefix must be non-empty, without ":" or spaces' })
    .default('strata'),
  connectTimeoutMs: z.int().positive().default(5000),
};

export const bothGiven = (o: { url?: string | undefined; connection?: RedisOptions | undefined }): boolean => !(o.url !== undefined && o.connection !== undefined);
export const BOTH_GIVEN_ERROR = { error: 'give either url or connection, not both' };

/** Parses options with `schema`; a failure is CONFIG_INVALID with zod's report. */
export function parseOptions<S extends z.ZodType>(schema: S, options: unknown, what: string, hint: string): z.output<S> {
  const result = schema.safeParse(options);
  if (result.success) return result.data;
  throw new StrataError('CONFIG_INVALID', `${what} options are invalid:\n${z.prettifyError(result.error)}`, { hint, cause: result.error });
}

export function redisSettings(o: { url?: string | undefined; connection?: RedisOptions | undefined; prefix: string; connectTimeoutMs: number }): RedisSettings {
  const { prefix, connectTimeoutMs } = o;
  if (o.connection !== undefined) {
    const { host = '127.0.0.1', port = 6379 } = o.connection;
    return { where: `redis://${host}:${port}`, redis: { ...o.connection }, prefix, connectTimeoutMs };
  }
  const url = new URL(o.url ?? 'redis://127.0.0.1:6379');
  const db = url.pathname.replace(/^\//, '');
  const redis: RedisOptions = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? 6379 : Number(url.port),
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
  return { where: `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`, redis, prefix, connectTimeoutMs };
}

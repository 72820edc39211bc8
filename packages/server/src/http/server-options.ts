import { type MemoryApi, parseWith } from '@strata/core';
import { z } from 'zod';
import type { KeyStore } from '../keys/api-key.js';
import type { RateLimit } from './rate-limit.js';

/** What the server bounds per request and per key. */
export interface ServerLimits {
  /**
   * Largest request body in bytes; a larger one is refused with 413.
   * @defaultValue 4 MiB
   */
  bodyBytes?: number;
  /**
   * Time to answer a request; past it the answer is 503 (the memory's work is not cancelled).
   * @defaultValue 30_000
   */
  requestTimeoutMs?: number;
  /**
   * A token bucket per key; over it, 429 with Retry-After. `false` turns it off.
   * @defaultValue { perSecond: 50, burst: 100 }
   */
  rateLimit?: RateLimit | false;
  /**
   * Browser origins allowed to call the API (CORS). None by default: no CORS headers at all.
   * @defaultValue []
   */
  corsOrigins?: string[];
}

/** Options of `createStrataServer`. */
export interface StrataServerOptions {
  /** The memory to serve: a `Memory` from `createMemory()`, or any `MemoryApi`. */
  memory: MemoryApi;
  /** Keys that may call the API. Undefined is open mode: no keys, every namespace and scope (`strata serve` allows it on loopback only). */
  auth?: { keys: KeyStore };
  limits?: ServerLimits;
  /**
   * The readiness probe of /readyz (e.g. a store ping); a rejection answers 503.
   * @defaultValue `memory.sessions.list({ limit: 1 })`
   */
  ready?: () => Promise<void>;
  /**
   * Told of each failure answered with a 5xx (whose answer shows nothing of it).
   * @defaultValue `console.error`
   */
  onError?: (error: unknown, request: Request) => void;
}

/** The options with every default filled in. */
export interface ResolvedServerOptions {
  memory: MemoryApi;
  keys: KeyStore | undefined;
  bodyBytes: number;
  requestTimeoutMs: number;
  rateLimit: RateLimit | false;
  corsOrigins: string[];
  ready: () => Promise<void>;
  onError: (error: unknown, request: Request) => void;
}

const fn = (what: string) => z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', { error: `${what} must be a function` });
const hasMethods = (what: string, methods: string[]) =>
  z.custom<object>((value) => typeof value === 'object' && value !== null && methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function'), {
    error: `${what} must have ${methods.join(', ')}`,
  });

const optionsSchema = z.object({
  memory: hasMethods('memory', ['append', 'messages', 'getContext', 'search', 'forget', 'export', 'import', 'flush', 'pending', 'stats']),
  auth: z.object({ keys: hasMethods('auth.keys', ['verify']) }).optional(),
  limits: z
    .object({
      bodyBytes: z
        .number()
        .int()
        .positive()
        .default(4 * 1024 * 1024),
      requestTimeoutMs: z.number().int().positive().default(30_000),
      rateLimit: z.union([z.literal(false), z.object({ perSecond: z.number().positive().finite(), burst: z.number().int().min(1) })]).default({ perSecond: 50, burst: 100 }),
      corsOrigins: z.array(z.url()).default([]),
    })
    .default({ bodyBytes: 4 * 1024 * 1024, requestTimeoutMs: 30_000, rateLimit: { perSecond: 50, burst: 100 }, corsOrigins: [] }),
  ready: fn('ready').optional(),
  onError: fn('onError').optional(),
});

/** Checks the options once and fills in the defaults. @throws StrataError CONFIG_INVALID naming the option. */
export function resolveServerOptions(options: StrataServerOptions): ResolvedServerOptions {
  const hint = 'Pass { memory, auth?: { keys }, limits?: { bodyBytes, requestTimeoutMs, rateLimit: { perSecond, burst } | false, corsOrigins }, ready?, onError? }.';
  const parsed = parseWith(optionsSchema, options, 'server options', hint, 'CONFIG_INVALID');
  const memory = options.memory;
  return {
    memory,
    keys: options.auth?.keys,
    ...parsed.limits,
    ready: options.ready ?? (async () => void (await memory.sessions.list({ limit: 1 }))),
    onError: options.onError ?? ((error, request) => console.error(`strata server: ${request.method} ${new URL(request.url).pathname} failed`, error)),
  };
}

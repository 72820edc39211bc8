import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createMemory, type Memory, type MemoryApi, type MemoryOptions } from '@strata/core';
import type { ApiKey, KeyStore, Scope } from '../src/index.js';

/** A core memory with its default in-memory store (and the offline models), for tests of the HTTP layer. */
export function createTestMemory(options: MemoryOptions = {}): Promise<Memory> {
  return createMemory(options);
}

const SECRET = /^sk_strata_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const digest = (text: string) => createHash('sha256').update(text).digest();

/** A KeyStore held in a Map, with the secret format of the spec (`sk_strata_<16 hex>_<43 base64url>`). */
export class TestKeyStore implements KeyStore {
  readonly #keys = new Map<string, { key: ApiKey; hash: Buffer }>();

  async verify(secret: string): Promise<ApiKey | null> {
    const [, id = '', raw = ''] = SECRET.exec(secret) ?? [];
    const entry = this.#keys.get(id);
    if (!entry || entry.key.revokedAt !== undefined || !timingSafeEqual(entry.hash, digest(raw))) return null;
    return structuredClone(entry.key);
  }

  async create(input: { namespace: string; match?: 'exact' | 'prefix'; scopes: Scope[]; name?: string }): Promise<{ key: ApiKey; secret: string }> {
    const id = randomBytes(8).toString('hex');
    const raw = randomBytes(32).toString('base64url');
    const key: ApiKey = { id, namespace: input.namespace, match: input.match ?? 'exact', scopes: [...input.scopes], createdAt: Date.now(), ...(input.name === undefined ? {} : { name: input.name }) };
    this.#keys.set(id, { key, hash: digest(raw) });
    return { key: structuredClone(key), secret: `sk_strata_${id}_${raw}` };
  }

  async list(): Promise<ApiKey[]> {
    return [...this.#keys.values()].map((entry) => structuredClone(entry.key));
  }

  async revoke(id: string): Promise<ApiKey> {
    const entry = this.#keys.get(id);
    if (!entry) throw new Error(`no key ${id}`);
    entry.key.revokedAt ??= Date.now();
    return structuredClone(entry.key);
  }

  /** Creates a key and returns its `Authorization` header value. */
  async bearer(namespace: string, scopes: Scope[], match: 'exact' | 'prefix' = 'exact'): Promise<string> {
    return `Bearer ${(await this.create({ namespace, scopes, match })).secret}`;
  }
}

/** `memory` with some of its methods replaced (e.g. to make one fail), the others called on it. */
export function overriding(memory: MemoryApi, overrides: Partial<Omit<MemoryApi, 'sessions'>> & { sessions?: Partial<MemoryApi['sessions']> }): MemoryApi {
  const { sessions, ...rest } = overrides;
  const base: MemoryApi = {
    sessions: { ...memory.sessions, ...sessions },
    facts: memory.facts,
    append: (sessionId, message) => memory.append(sessionId, message),
    messages: (sessionId, options) => memory.messages(sessionId, options),
    getContext: (sessionId, options) => memory.getContext(sessionId, options),
    search: (request) => memory.search(request),
    forget: (target) => memory.forget(target),
    export: (sessionId, options) => memory.export(sessionId, options),
    import: (bundle, options) => memory.import(bundle, options),
    flush: (options) => memory.flush(options),
    pending: () => memory.pending(),
    stats: () => memory.stats(),
    usage: (filter) => memory.usage(filter),
    close: () => memory.close(),
  };
  return { ...base, ...rest };
}

/** What `call` sends: a JSON body (or raw text / bytes), headers, and the key's Authorization value. */
export interface CallOptions {
  auth?: string;
  json?: unknown;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** One request to `app` (no network), its status, headers and body text (parsed when JSON). */
export async function call(app: { request: (path: string, init: RequestInit) => Response | Promise<Response> }, method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = {
    ...(options.auth ? { authorization: options.auth } : {}),
    ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  const body = options.json === undefined ? options.body : JSON.stringify(options.json);
  // (the DOM lib and undici type a body differently: one program checks this beside code that loads each)
  const response = await app.request(path, { method, headers, ...(body === undefined ? {} : { body: body as NonNullable<RequestInit['body']> }) });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
  const data: any = type.includes('json') && text ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, text, data };
}

import { METHODS } from 'node:http';
import fc from 'fast-check';
import { anyContentType, type FuzzIds, hostileBody, shapedBodies } from './fuzz-bodies.js';
import { anyJson, hostileId, percentEncode, printable } from './fuzz-values.js';
import type { RawRequest } from './raw-request.js';

/** Every method node's HTTP parser accepts (CONNECT opens a tunnel, not a request). */
export const anyMethod = fc.constantFrom(...METHODS.filter((m) => m !== 'CONNECT'));

const cursor = anyJson.map((v) => Buffer.from(JSON.stringify(v)).toString('base64url'));
const queryValue = fc.oneof(
  fc.constantFrom('acme', 'globex', 'teamx', 'json', 'jsonl', 'markdown', 'text', 'xml', 'true', 'false', '1', '0', '-1', '1e9', '', 'NaN'),
  fc.integer().map(String),
  cursor,
  printable(30).map(percentEncode),
);
const queryKey = fc.oneof({ arbitrary: fc.constantFrom('namespace', 'limit', 'cursor', 'fromSeq', 'format', 'history', 'merge', 'k'), weight: 5 }, printable(10).map(percentEncode));

/** A query string, often empty, with known and unknown parameters, repeated ones included. */
export const anyQuery = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

/** Routes of the spec by the body they take (a key of {@link shapedBodies}), or none for GET / DELETE. */
const ROUTES: { method: string; path: (s: string, m: string, f: string) => string; body?: string }[] = [
  { method: 'POST', path: () => '/v1/sessions', body: 'POST /v1/sessions' },
  { method: 'GET', path: () => '/v1/sessions' },
  { method: 'GET', path: (s) => `/v1/sessions/${s}` },
  { method: 'PATCH', path: (s) => `/v1/sessions/${s}`, body: 'PATCH /v1/sessions/{id}' },
  { method: 'DELETE', path: (s) => `/v1/sessions/${s}` },
  { method: 'POST', path: (s) => `/v1/sessions/${s}/messages`, body: 'POST /v1/sessions/{id}/messages' },
  { method: 'GET', path: (s) => `/v1/sessions/${s}/messages` },
  { method: 'DELETE', path: (s, m) => `/v1/sessions/${s}/messages/${m}` },
  { method: 'POST', path: (s) => `/v1/sessions/${s}/context`, body: 'POST /v1/sessions/{id}/context' },
  { method: 'GET', path: (s) => `/v1/sessions/${s}/export` },
  { method: 'POST', path: () => '/v1/search', body: 'POST /v1/search' },
  { method: 'GET', path: () => '/v1/facts' },
  { method: 'DELETE', path: (_s, _m, f) => `/v1/facts/${f}` },
  { method: 'POST', path: () => '/v1/forget', body: 'POST /v1/forget' },
  { method: 'POST', path: () => '/v1/import', body: 'POST /v1/import' },
  { method: 'POST', path: () => '/v1/flush', body: 'POST /v1/flush' },
  { method: 'GET', path: () => '/v1/status' },
  { method: 'GET', path: () => '/healthz' },
  { method: 'GET', path: () => '/readyz' },
  { method: 'GET', path: () => '/metrics' },
  { method: 'GET', path: () => '/openapi.json' },
  { method: 'POST', path: () => '/mcp', body: 'POST /mcp' },
];

/** The routes that take a body. */
export const BODY_ROUTES = ROUTES.filter((r) => r.body !== undefined);

/** Secrets the fuzz sends: mostly the acme admin key, so requests reach the handlers. */
export interface FuzzKeys {
  admin: string;
  others: string[];
}

const authorization = (keys: FuzzKeys) =>
  fc.oneof({ arbitrary: fc.constant(`Bearer ${keys.admin}`), weight: 12 }, fc.constantFrom(...keys.others.map((k) => `Bearer ${k}`)), fc.constant(undefined), printable(80));

const withHeaders = (base: Record<string, string | undefined>): Record<string, string> => Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));

/** Requests along the route table: valid paths (mostly real ids), shaped JSON bodies of right and wrong types, sometimes another method. */
export function shapedRequest(ids: FuzzIds, keys: FuzzKeys): fc.Arbitrary<RawRequest> {
  const bodies = shapedBodies(ids);
  const id = (pool: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 6 }, hostileId(pool));
  return fc
    .record({
      route: fc.constantFrom(...ROUTES),
      otherMethod: fc.oneof({ arbitrary: fc.constant(null), weight: 9 }, anyMethod),
      s: id(ids.sessions),
      m: id(ids.messages),
      f: id(ids.facts),
      query: anyQuery,
      auth: authorization(keys),
      accept: fc.constantFrom(undefined, 'application/json, text/event-stream', 'application/json', 'text/html', '*/*'),
      idempotencyKey: fc.option(printable(250), { freq: 2 }),
    })
    .chain((r) => (r.route.body ? bodies[r.route.body]! : fc.constant(undefined)).map((body: unknown) => ({ ...r, body })))
    .map((r) => ({
      method: r.otherMethod ?? r.route.method,
      path: `${r.route.path(r.s, r.m, r.f)}${r.query}`,
      headers: withHeaders({
        authorization: r.auth,
        accept: r.accept,
        'content-type': r.body === undefined ? undefined : 'application/json',
        'idempotency-key': r.idempotencyKey ?? undefined,
      }),
      ...(r.body === undefined ? {} : { body: JSON.stringify(r.body) ?? '' }),
    }));
}

const TEMPLATES = [
  (a: string) => `/v1/sessions/${a}`,
  (a: string) => `/v1/sessions/${a}/messages`,
  (a: string, b: string) => `/v1/sessions/${a}/messages/${b}`,
  (a: string) => `/v1/sessions/${a}/context`,
  (a: string) => `/v1/sessions/${a}/export`,
  (a: string) => `/v1/facts/${a}`,
  (a: string) => `/v1/${a}`,
  (a: string) => `/${a}`,
  (a: string, b: string) => `/v1/sessions/${a}/${b}`,
  (a: string, b: string) => `/v1/sessions/${a}/messages/${b}/${a}`,
  (a: string) => `/healthz/${a}`,
  (a: string) => `/metrics/${a}`,
  (a: string) => `/openapi.json/${a}`,
  (a: string) => `/mcp/${a}`,
  (a: string) => `//v1/sessions/${a}`,
  (a: string) => `/v1//sessions/${a}`,
  (a: string) => `/V1/SESSIONS/${a}`,
  (a: string) => `/v1/sessions/${a}/../../metrics`,
];

/** Hostile paths: traversal, encoded NUL, look-alike and overlong ids, on any method, with or without a small body. */
export function hostilePathRequest(ids: FuzzIds, keys: FuzzKeys): fc.Arbitrary<RawRequest> {
  const pool = [...ids.sessions, ...ids.messages, ...ids.facts];
  return fc
    .record({
      template: fc.constantFrom(...TEMPLATES),
      a: hostileId(pool),
      b: hostileId(pool),
      method: fc.oneof({ arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'), weight: 3 }, anyMethod),
      query: anyQuery,
      auth: authorization(keys),
      body: fc.option(anyJson, { freq: 3 }),
    })
    .map((r) => ({
      method: r.method,
      path: `${r.template(r.a, r.b)}${r.query}`,
      headers: withHeaders({ authorization: r.auth, 'content-type': r.body === null ? undefined : 'application/json' }),
      ...(r.body === null ? {} : { body: JSON.stringify(r.body) }),
    }));
}

/** Hostile bodies (raw bytes) with right, wrong or no content types, on the routes that take a body. */
export function hostileBodyRequest(ids: FuzzIds, keys: FuzzKeys): fc.Arbitrary<RawRequest> {
  return fc.record({ route: fc.constantFrom(...BODY_ROUTES), s: fc.constantFrom(...ids.sessions), body: hostileBody, contentType: anyContentType, auth: authorization(keys) }).map((r) => ({
    method: r.route.method,
    path: r.route.path(r.s, ids.messages[0]!, ids.facts[0]!),
    headers: withHeaders({ authorization: r.auth, 'content-type': r.contentType }),
    body: r.body,
  }));
}

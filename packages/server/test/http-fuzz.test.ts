import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStrataServer, startStrataServer } from '../src/index.js';
import { BODY_ROUTES, hostileBodyRequest, hostilePathRequest, shapedRequest } from './support/fuzz-requests.js';
import type { FuzzIds } from './support/fuzz-bodies.js';
import type { FuzzKeys } from './support/fuzz-requests.js';
import { expectProblem, mcpFault, problemFault } from './support/expect-problem.js';
import { keepAliveAgent, type RawRequest, type RawResponse, sendRaw, sendUnread } from './support/raw-request.js';
import { startTenantFixture, type TenantFixture } from './support/tenant-fixture.js';

/** Fixed so that a failure replays; fast-check prints the seed and the path of a counterexample. */
const SEED = 3_542_017;
const BODY_LIMIT = 64 * 1024;
const RUNS = { shaped: 2_400, paths: 1_400, bodies: 1_100, oversized: 120 };
const POOL = ['fuzz-s1', 'fuzz-s2', 'fuzz-s3', 'fuzz-s4'];

let fx: TenantFixture;
let ids: FuzzIds;
let keys: FuzzKeys;
let sent = 0;
const agent = keepAliveAgent(4);

/** Puts back the sessions a fuzzed DELETE or forget removed, so later runs still reach real records. */
async function restorePool(): Promise<void> {
  for (const [i, id] of POOL.entries()) {
    if (await fx.memory.sessions.get(id)) continue;
    await fx.memory.sessions.create({ namespace: 'acme', id, title: `fuzz ${i}` });
    await fx.memory.append(id, [
      { id: `${id}-m1`, role: 'user', content: 'I live in Lisbon.' },
      { id: `${id}-m2`, role: 'assistant', content: 'Lisbon is sunny.' },
    ]);
  }
}

beforeAll(async () => {
  fx = await startTenantFixture({ bodyBytes: BODY_LIMIT });
  await restorePool();
  const acme = fx.tenants.acme;
  ids = {
    sessions: [...POOL, ...acme.sessions.map((s) => s.id), fx.tenants.globex.sessions[0]!.id],
    messages: [...POOL.map((id) => `${id}-m1`), ...acme.messages.map((m) => m.id)],
    facts: [...acme.facts.map((f) => f.id), fx.tenants.globex.facts[0]!.id],
  };
  keys = { admin: fx.keys.acmeAdmin, others: [fx.keys.globexAdmin, fx.keys.team, fx.keys.acmeWithout.read, fx.keys.acmeRevoked] };
});

afterAll(async () => {
  agent.destroy();
  await fx?.close();
});

const show = (req: RawRequest, res?: RawResponse) =>
  `${req.method} ${req.path.slice(0, 200)} (${req.body?.length ?? 0} bytes, content-type ${req.headers?.['content-type'] ?? 'none'})${res ? ` -> ${res.status} ${res.text.slice(0, 300)}` : ''}`;

/**
 * Sends one fuzzed request and checks what every answer must be: complete, < 500, and when not
 * 2xx a clean problem document (or, from the MCP transport at /mcp, a JSON-RPC error).
 */
async function exchange(req: RawRequest): Promise<RawResponse> {
  const res = await sendRaw(fx.server.port, { ...req, agent, timeoutMs: 10_000 });
  sent += 1;
  expect(res.status, show(req, res)).toBeLessThan(500);
  if (res.status >= 200 && res.status < 300) return res;
  const isMcp = req.path === '/mcp' || req.path.startsWith('/mcp?');
  expect(isMcp && req.method !== 'HEAD' ? mcpFault(res) : problemFault(res, req.method !== 'HEAD'), show(req, res)).toBeNull();
  return res;
}

/** Counterexamples print as one line: method, path, content type, and the body's length and start. */
const printable = (req: RawRequest): RawRequest =>
  Object.assign(req, { [fc.toStringMethod]: () => `${show(req)}; headers ${JSON.stringify(req.headers)}; body starts ${JSON.stringify(String(req.body ?? '').slice(0, 300))}` });

const assertRuns = (arbitrary: fc.Arbitrary<RawRequest>, numRuns: number) =>
  fc.assert(
    fc.asyncProperty(arbitrary.map(printable), async (req) => {
      const res = await exchange(req);
      if (res.status < 300 && (req.method === 'DELETE' || req.path.startsWith('/v1/forget') || req.path.startsWith('/v1/import'))) await restorePool();
    }),
    // no shrinking: the server's state moves on with each request, so a shrunk replay would not be the same run
    { seed: SEED, numRuns, endOnFailure: true },
  );

describe('HTTP fuzz over a real socket', () => {
  it(`answers ${RUNS.shaped} requests along the route table with bodies of right and wrong shapes`, async () => {
    await assertRuns(shapedRequest(ids, keys), RUNS.shaped);
  }, 180_000);

  it(`answers ${RUNS.paths} requests with traversal, NUL, look-alike and overlong ids on any method`, async () => {
    await assertRuns(hostilePathRequest(ids, keys), RUNS.paths);
  }, 180_000);

  it(`answers ${RUNS.bodies} requests with bad JSON, deep nesting, bad UTF-8, random bytes and wrong content types`, async () => {
    await assertRuns(hostileBodyRequest(ids, keys), RUNS.bodies);
  }, 180_000);

  it(`answers ${RUNS.oversized} bodies over the limit (with and without a length) with 413`, async () => {
    const oversized = fc.record({ route: fc.constantFrom(...BODY_ROUTES), size: fc.integer({ min: BODY_LIMIT + 1, max: BODY_LIMIT * 4 }), chunked: fc.boolean() }).map(({ route, size, chunked }) =>
      Object.assign(
        {
          method: route.method,
          path: route.path(POOL[0]!, `${POOL[0]}-m1`, 'fact_x'),
          headers: { authorization: `Bearer ${keys.admin}`, 'content-type': 'application/json' },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'a'.repeat(size) }] }),
          chunked,
        },
        { [fc.toStringMethod]: () => `${route.method} ${route.path('s', 'm', 'f')} with ${size} bytes${chunked ? ', chunked' : ''}` },
      ),
    );
    await fc.assert(
      fc.asyncProperty(oversized, async (req) => {
        const res = await sendUnread(fx.server.port, { ...req, timeoutMs: 10_000 });
        sent += 1;
        expectProblem(res, 413, 'INVALID_INPUT');
      }),
      { seed: SEED, numRuns: RUNS.oversized, endOnFailure: true },
    );
  }, 180_000);

  it('sent at least 5,000 requests, and the server still answers /healthz', async () => {
    expect(sent).toBeGreaterThanOrEqual(5_000);
    const health = await sendRaw(fx.server.port, { method: 'GET', path: '/healthz', timeoutMs: 5_000 });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ status: 'ok' });
  });
});

describe('what the spec names for malformed requests', () => {
  const append = (body: string | Buffer, contentType = 'application/json'): RawRequest => ({
    method: 'POST',
    path: `/v1/sessions/${POOL[1]}/messages`,
    headers: { authorization: `Bearer ${keys.admin}`, 'content-type': contentType },
    body,
  });

  it('answers 400 to bad UTF-8, malformed JSON and a wrong content type, and stores nothing', async () => {
    await restorePool();
    const before = await fx.memory.messages(POOL[1]!);
    const valid = '{"messages":[{"role":"user","content":"bad bytes follow: ';
    const requests = [
      append(Buffer.concat([Buffer.from(valid), Buffer.from([0xff, 0xfe]), Buffer.from('"}]}')])),
      append(Buffer.concat([Buffer.from(valid), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}]}')])),
      append('{"messages":[{"role":"user","content":"unterminated'),
      append(JSON.stringify({ messages: [{ role: 'user', content: 'plain text is not JSON' }] }), 'text/plain'),
      append(''),
    ];
    for (const req of requests) expectProblem(await sendRaw(fx.server.port, req), 400, 'INVALID_INPUT');
    expect(await fx.memory.messages(POOL[1]!)).toEqual(before);
  });

  it('answers a raw backslash in the path with a problem document, as served by startStrataServer', async () => {
    const running = await startStrataServer({ app: createStrataServer({ memory: fx.memory, limits: { rateLimit: false } }), port: 0 });
    try {
      for (const path of ['/v1/sessions/..\\..\\etc', '/v1/sessions/a\\b/messages']) {
        const res = await sendRaw(running.port, { method: 'GET', path });
        expect(res.status, path).toBe(400);
        expect(problemFault(res), `${path}: ${JSON.stringify(res.headers)} ${res.text}`).toBeNull();
      }
    } finally {
      await running.close();
    }
  });
});

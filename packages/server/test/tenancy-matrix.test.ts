import { randomBytes } from 'node:crypto';
import { createMemory } from '@strata/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from './support/expect-problem.js';
import { findLeaks } from './support/find-leaks.js';
import { keepAliveAgent, type RawResponse, sendRaw } from './support/raw-request.js';
import { type RouteCase, type RouteIds, type RouteRequest, routeTable } from './support/route-table.js';
import { secretsOf, type TenantData } from './support/seed-tenants.js';
import { type MemorySnapshot, snapshotMemory } from './support/snapshot-memory.js';
import type { TenantKeys } from './support/tenant-keys.js';
import { startTenantFixture, type TenantFixture } from './support/tenant-fixture.js';

let fx: TenantFixture;
let bundle: unknown;
let before: MemorySnapshot;
const agent = keepAliveAgent(4);

beforeAll(async () => {
  fx = await startTenantFixture();
  // what /v1/import sends: a bundle of a neutral conversation from another memory
  const other = await createMemory();
  const session = await other.sessions.create({ namespace: 'acme', title: 'imported' });
  await other.append(session.id, [{ role: 'user', content: 'an imported turn' }]);
  bundle = JSON.parse(await other.export(session.id, { format: 'json' }));
  await other.close();
  before = await snapshotMemory(fx.memory, NAMESPACES);
});

afterAll(async () => {
  agent.destroy();
  await fx?.close();
});

const NAMESPACES = ['acme', 'globex', 'team/a', 'team/b', 'teamx'];
const ROUTES = routeTable(() => bundle);

/** Ids of a tenant's first fact, the message that states it, and that message's session. */
function idsOf(tenant: TenantData): RouteIds {
  const fact = tenant.facts[0]!;
  const message = tenant.messages.find((m) => m.id === fact.sourceMessageIds[0])!;
  return { sessionId: message.sessionId, messageId: message.id, factId: fact.id, namespace: tenant.namespace };
}

/** Ids shaped like real ones that name nothing. */
const missingIds = (): RouteIds => ({
  sessionId: `ses_${randomBytes(16).toString('hex')}`,
  messageId: `msg_${randomBytes(16).toString('hex')}`,
  factId: `fact_${randomBytes(16).toString('base64url').slice(0, 22)}`,
  namespace: 'nobody',
});

function replaceIds(text: string, from: RouteIds, to: RouteIds): string {
  const keys = ['sessionId', 'messageId', 'factId', 'namespace'] as const;
  return keys.reduce((out, key) => out.split(from[key]).join(to[key]).split(encodeURIComponent(from[key])).join(encodeURIComponent(to[key])), text);
}

function send(req: RouteRequest, authorization: string | undefined): Promise<RawResponse> {
  return sendRaw(fx.server.port, { ...req, headers: { ...req.headers, ...(authorization ? { authorization } : {}) }, agent });
}

const everySecret = () => [fx.tenants.acme, fx.tenants.globex, fx.tenants.teamA, fx.tenants.teamB, fx.tenants.teamx].flatMap(secretsOf);

/** Credentials that identify nobody: each must get 401 with a Bearer challenge, whatever the route. */
const NOBODY: { name: string; authorization: (keys: TenantKeys) => string | undefined }[] = [
  { name: 'no key', authorization: () => undefined },
  { name: 'a Basic credential', authorization: () => `Basic ${Buffer.from('acme:secret').toString('base64')}` },
  { name: 'a malformed bearer token', authorization: () => 'Bearer not-a-strata-key' },
  { name: 'an empty bearer token', authorization: () => 'Bearer' },
  { name: 'a key id without its secret', authorization: (keys) => `Bearer ${keys.acmeAdmin.slice(0, 'sk_strata_'.length + 17)}` },
  { name: 'a wrong secret', authorization: (keys) => `Bearer ${keys.acmeWrongSecret}` },
  { name: 'a revoked key', authorization: (keys) => `Bearer ${keys.acmeRevoked}` },
];

/** Keys that are valid but do not reach the target tenant. */
const STRANGERS: { name: string; secret: (keys: TenantKeys) => string; target: () => TenantData }[] = [
  { name: "globex's admin key on acme", secret: (keys) => keys.globexAdmin, target: () => fx.tenants.acme },
  { name: "globex's read-only key on acme", secret: (keys) => keys.globexRead, target: () => fx.tenants.acme },
  { name: 'the team/ prefix key on teamx', secret: (keys) => keys.team, target: () => fx.tenants.teamx },
];

const cases = <T extends { name: string }>(credentials: T[], routes: RouteCase[]) =>
  routes.flatMap((route) => credentials.map((credential) => ({ label: `${route.name} with ${credential.name}`, route, credential })));

describe('tenancy matrix: every route with every wrong credential', () => {
  it.each(cases(NOBODY, ROUTES))('$label: 401 with a Bearer challenge, no data', async ({ route, credential }) => {
    const req = route.build(idsOf(fx.tenants.acme));
    const res = await send(req, credential.authorization(fx.keys));
    expectProblem(res, 401, 'UNAUTHORIZED');
    expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer\b/);
    expect(findLeaks(res.text, everySecret(), req)).toEqual([]);
  });

  const reaching = ROUTES.filter((route) => route.reaches.length > 0);
  it.each(cases(STRANGERS, reaching))('$label: 404, byte for byte what a missing id answers', async ({ route, credential }) => {
    const target = idsOf(credential.target());
    const missing = missingIds();
    const secret = `Bearer ${credential.secret(fx.keys)}`;
    const req = route.build(target);
    const [res, control] = [await send(req, secret), await send(route.build(missing), secret)];
    expectProblem(res, 404, 'NOT_FOUND');
    expect(res.status).toBe(control.status);
    expect(replaceIds(res.text, target, missing)).toBe(control.text);
    expect(findLeaks(res.text, secretsOf(credential.target()), req)).toEqual([]);
  });

  const neutral = ROUTES.filter((route) => route.reaches.length === 0);
  it.each(cases(STRANGERS, neutral))("$label: no byte of the other tenant's data", async ({ route, credential }) => {
    const req = route.build(idsOf(credential.target()));
    const res = await send(req, `Bearer ${credential.secret(fx.keys)}`);
    expect(res.status, res.text).toBeLessThan(500);
    expect(findLeaks(res.text, secretsOf(credential.target()), req)).toEqual([]);
  });

  const scoped = ROUTES.filter((route) => route.scope !== 'bearer');
  it.each(scoped.map((route) => ({ label: `${route.name} with an acme key lacking ${route.scope}`, route })))('$label: 403', async ({ route }) => {
    const scope = route.scope as Exclude<RouteCase['scope'], 'bearer'>;
    const res = await send(route.build(idsOf(fx.tenants.acme)), `Bearer ${fx.keys.acmeWithout[scope]}`);
    expectProblem(res, 403, 'FORBIDDEN');
  });

  it('changed nothing in the store', async () => {
    expect(await snapshotMemory(fx.memory, NAMESPACES)).toEqual(before);
  });
});

describe("another tenant's listings, searches and jobs", () => {
  const asGlobex = (req: RouteRequest) => send(req, `Bearer ${fx.keys.globexAdmin}`);
  const json = (method: string, path: string, body: unknown): RouteRequest => ({ method, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const acmeSecrets = () => secretsOf(fx.tenants.acme);

  it('lists, searches and shows facts of its own namespace only, whatever namespace it names', async () => {
    const requests: RouteRequest[] = [
      { method: 'GET', path: '/v1/sessions' },
      { method: 'GET', path: '/v1/sessions?namespace=%61cme' },
      { method: 'GET', path: '/v1/sessions?namespace=globex&namespace=acme' },
      { method: 'GET', path: '/v1/sessions?namespace=acme&namespace=globex' },
      { method: 'GET', path: '/v1/facts?history=true' },
      { method: 'GET', path: '/v1/facts?namespace=globex&namespace=acme&history=true' },
      json('POST', '/v1/search', { query: 'Brackenholt marzipanology Vellichor zorbing live love' }),
      json('POST', '/v1/search', { namespace: 'acme', query: 'Brackenholt' }),
      json('POST', '/v1/search', { namespace: ['acme'], query: 'Brackenholt' }),
      json('POST', '/v1/search', { namespace: 'globex', query: 'Brackenholt', namespaces: ['acme'] }),
    ];
    for (const req of requests) {
      const res = await asGlobex(req);
      expect(res.status, `${req.method} ${req.path}: ${res.text}`).toBeLessThan(500);
      expect(findLeaks(res.text, acmeSecrets(), req), `${req.method} ${req.path} ${req.body ?? ''}`).toEqual([]);
    }
    const own = JSON.parse((await asGlobex({ method: 'GET', path: '/v1/sessions' })).text) as { sessions: { id: string; namespace: string }[] };
    expect(own.sessions.map((s) => s.id).sort()).toEqual(fx.tenants.globex.sessions.map((s) => s.id).sort());
    const facts = JSON.parse((await asGlobex({ method: 'GET', path: '/v1/facts?history=true' })).text) as { facts: { id: string }[] };
    expect(facts.facts.map((f) => f.id).sort()).toEqual(fx.tenants.globex.facts.map((f) => f.id).sort());
  });

  it("never shows acme's pending jobs or token usage in /v1/status, /v1/flush or /metrics, which acme itself sees", async () => {
    const held = fx.tenants.acmeHeld.id;
    expect((await fx.memory.pending()).map((job) => job.sessionId)).toContain(held);
    expect(Object.keys(fx.memory.stats().derivation.byNamespace)).toContain('acme');
    const status = { method: 'GET', path: '/v1/status' };
    const flush = json('POST', '/v1/flush', {});
    const metrics = { method: 'GET', path: '/metrics' };
    for (const req of [status, flush, metrics]) {
      const res = await asGlobex(req);
      expect(res.status, res.text).toBe(200);
      expect(findLeaks(res.text, acmeSecrets(), req)).toEqual([]);
      if (req !== metrics) expect((JSON.parse(res.text) as { pending: unknown[] }).pending).toEqual([]);
    }
    const stats = (res: RawResponse) => (JSON.parse(res.text) as { stats: { derivation: { byNamespace: Record<string, unknown> } } }).stats.derivation;
    expect(Object.keys(stats(await asGlobex(status)).byNamespace)).toEqual(['globex']);
    const own = await send(status, `Bearer ${fx.keys.acmeAdmin}`);
    expect((JSON.parse(own.text) as { pending: { sessionId: string }[] }).pending.map((job) => job.sessionId)).toContain(held);
    expect(Object.keys(stats(own).byNamespace)).toEqual(['acme']);
    expect((await send(metrics, `Bearer ${fx.keys.acmeAdmin}`)).text).toMatch(/^strata_model_tokens_by_namespace_total\{direction="input",namespace="acme"\} [1-9]/m);
  });

  it('lets a prefix key reach team/a and team/b, and its owner reach acme (the 404s above are not blanket)', async () => {
    for (const tenant of [fx.tenants.teamA, fx.tenants.teamB]) {
      const res = await send({ method: 'GET', path: `/v1/sessions/${idsOf(tenant).sessionId}` }, `Bearer ${fx.keys.team}`);
      expect(res.status, res.text).toBe(200);
      const listed = await send({ method: 'GET', path: `/v1/sessions?namespace=${encodeURIComponent(tenant.namespace)}` }, `Bearer ${fx.keys.team}`);
      expect(listed.text).toContain(idsOf(tenant).sessionId);
    }
    const teamList = { method: 'GET', path: '/v1/sessions' };
    expect(findLeaks((await send(teamList, `Bearer ${fx.keys.team}`)).text, [...secretsOf(fx.tenants.teamx), ...acmeSecrets()], teamList)).toEqual([]);
    const own = await send({ method: 'GET', path: `/v1/sessions/${idsOf(fx.tenants.acme).sessionId}/messages` }, `Bearer ${fx.keys.acmeAdmin}`);
    expect(own.status).toBe(200);
    expect(own.text).toContain(idsOf(fx.tenants.acme).messageId);
  });

  it("answers globex's MCP tool calls on acme's session without acme's data", async () => {
    const acme = idsOf(fx.tenants.acme);
    const calls = [
      { name: 'get_context', arguments: { sessionId: acme.sessionId, query: 'where do I live', budgetTokens: 800 } },
      { name: 'recall', arguments: { query: 'Brackenholt marzipanology', k: 10 } },
      { name: 'list_sessions', arguments: {} },
      { name: 'forget', arguments: { messageIds: [acme.messageId] } },
    ];
    const messages = [
      ...calls.map((params) => ({ method: 'tools/call', params })),
      { method: 'resources/read', params: { uri: `strata://sessions/${encodeURIComponent(acme.sessionId)}/transcript` } },
      { method: 'resources/read', params: { uri: 'strata://facts' } },
      { method: 'resources/list', params: {} },
    ];
    const answers: string[] = [];
    for (const [i, message] of messages.entries()) {
      const req = {
        ...json('POST', '/mcp', { jsonrpc: '2.0', id: i + 1, ...message }),
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      };
      const res = await asGlobex(req);
      expect(res.status, res.text).toBeLessThan(500);
      expect(findLeaks(res.text, acmeSecrets(), req), `${message.method}: ${res.text.slice(0, 500)}`).toEqual([]);
      answers.push(res.text);
    }
    // list_sessions answered with globex's own session: the calls reached the tools
    expect(answers[2]).toContain(fx.tenants.globex.sessions[0]!.id);
    expect(await snapshotMemory(fx.memory, NAMESPACES)).toEqual(before);
  });
});

describe("another tenant's ids inside a body", () => {
  const asGlobex = (req: RouteRequest) => send(req, `Bearer ${fx.keys.globexAdmin}`);
  const json = (method: string, path: string, body: unknown): RouteRequest => ({ method, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  /** An export bundle of a new globex session whose messages carry the given ids. */
  async function bundleWith(sessionId: string, messageIds: string[]): Promise<unknown> {
    const scratch = await createMemory();
    await scratch.sessions.create({ namespace: 'globex', id: sessionId });
    await scratch.append(
      sessionId,
      messageIds.map((id) => ({ id, role: 'user' as const, content: 'a globex turn' })),
    );
    const bundle = JSON.parse(await scratch.export(sessionId, { format: 'json' })) as unknown;
    await scratch.close();
    return bundle;
  }

  it('answers creates, appends and imports that collide with acme ids without naming anything else of acme, and writes nothing', async () => {
    const acme = idsOf(fx.tenants.acme);
    const globexSession = fx.tenants.globex.sessions[0]!.id;
    const requests: RouteRequest[] = [
      json('POST', '/v1/sessions', { id: acme.sessionId, title: 'mine now' }),
      json('POST', `/v1/sessions/${globexSession}/messages`, { messages: [{ id: acme.messageId, role: 'user', content: 'collide' }] }),
      {
        ...json('POST', `/v1/sessions/${globexSession}/messages`, { messages: [{ id: acme.messageId, role: 'user', content: 'collide' }] }),
        headers: { 'content-type': 'application/json', 'idempotency-key': 'collide' },
      },
      json('POST', '/v1/import?merge=true', await bundleWith(acme.sessionId, [`msg_${randomBytes(16).toString('hex')}`])),
      json('POST', '/v1/import', await bundleWith(acme.sessionId, [`msg_${randomBytes(16).toString('hex')}`])),
    ];
    for (const req of requests) {
      const res = await asGlobex(req);
      expect(res.status, `${req.method} ${req.path}: ${res.text}`).toBeLessThan(500);
      expect(findLeaks(res.text, secretsOf(fx.tenants.acme), req), `${req.method} ${req.path}: ${res.text.slice(0, 400)}`).toEqual([]);
    }
    const now = await snapshotMemory(fx.memory, NAMESPACES);
    expect(now.namespaces.find((t) => t.namespace === 'acme')).toEqual(before.namespaces.find((t) => t.namespace === 'acme'));
  });

  it("answers an import whose message id is acme's without naming the acme session that holds it", async () => {
    const acme = idsOf(fx.tenants.acme);
    const req = json('POST', '/v1/import', await bundleWith(`ses_${randomBytes(16).toString('hex')}`, [acme.messageId]));
    const res = await asGlobex(req);
    expect(res.status, res.text).toBeLessThan(500);
    expect(findLeaks(res.text, secretsOf(fx.tenants.acme), req), res.text).toEqual([]);
    expect(await snapshotMemory(fx.memory, NAMESPACES)).toEqual(before);
  });

  it("answers DELETE of acme's message under globex's own session as it answers a missing message", async () => {
    const acme = idsOf(fx.tenants.acme);
    const own = fx.tenants.globex.sessions[0]!.id;
    const missing = `msg_${randomBytes(16).toString('hex')}`;
    const res = await asGlobex({ method: 'DELETE', path: `/v1/sessions/${own}/messages/${acme.messageId}` });
    const control = await asGlobex({ method: 'DELETE', path: `/v1/sessions/${own}/messages/${missing}` });
    expectProblem(res, 404, 'NOT_FOUND');
    expect(res.text.split(acme.messageId).join(missing)).toBe(control.text);
    expect(await snapshotMemory(fx.memory, NAMESPACES)).toEqual(before);
  });

  it("lets a prefix key name no namespace outside its reach by path tricks ('team/../acme', 'team/' + NUL)", async () => {
    for (const namespace of ['team/../acme', 'team/..%2facme', 'team/\u0000acme', 'team/\u200bacme']) {
      const req = { method: 'GET', path: `/v1/sessions?namespace=${encodeURIComponent(namespace)}` };
      const res = await send(req, `Bearer ${fx.keys.team}`);
      expect(res.status, res.text).toBeLessThan(500);
      expect(findLeaks(res.text, secretsOf(fx.tenants.acme), req)).toEqual([]);
      if (res.status === 200) expect((JSON.parse(res.text) as { sessions: unknown[] }).sessions).toEqual([]);
    }
  });
});

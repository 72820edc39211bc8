import { request } from 'node:http';
import type { DerivationStats, Memory, MessageInput, PendingJob } from '@strata/core';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createStrataServer, type ServerLimits, startStrataServer } from '../src/index.js';
import { call, createTestMemory, overriding, TestKeyStore } from './test-memory.js';

const opened: Memory[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((memory) => memory.close()));
});

/** A server over a fresh in-memory core memory, with an acme key holding every scope; rate limiting off unless `limits` says. */
async function serve(options: { limits?: ServerLimits; memory?: Memory } = {}) {
  const memory = options.memory ?? (await createTestMemory());
  opened.push(memory);
  const keys = new TestKeyStore();
  const app = createStrataServer({ memory, auth: { keys }, limits: { rateLimit: false, ...options.limits } });
  const acme = await keys.bearer('acme', ['read', 'write', 'forget', 'admin']);
  return { app, memory, keys, acme };
}

const turns = (...contents: string[]): MessageInput[] => contents.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content }));

describe('sessions', () => {
  it("creates a session in the exact key's namespace, reads, renames, lists and deletes it", async () => {
    const { app, acme } = await serve();
    const created = await call(app, 'POST', '/v1/sessions', { auth: acme, json: { title: 'Trip', metadata: { topic: 'travel' } } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ namespace: 'acme', title: 'Trip', metadata: { topic: 'travel' }, lastSeq: 0 });
    const path = `/v1/sessions/${created.data.id}`;
    expect((await call(app, 'GET', path, { auth: acme })).data).toEqual(created.data);
    const renamed = await call(app, 'PATCH', path, { auth: acme, json: { title: 'Lisbon trip' } });
    expect([renamed.status, renamed.data.title]).toEqual([200, 'Lisbon trip']);
    const listed = await call(app, 'GET', '/v1/sessions', { auth: acme });
    expect(listed.data).toEqual({ sessions: [renamed.data], nextCursor: null });
    const deleted = await call(app, 'DELETE', path, { auth: acme });
    expect([deleted.status, deleted.data.sessions]).toEqual([200, 1]);
    expect((await call(app, 'GET', path, { auth: acme })).status).toBe(404);
  });

  const clocks: [string, () => () => number][] = [
    ['every session in one millisecond', () => () => 1_700_000_000_000],
    [
      'three sessions per millisecond',
      () => {
        let tick = 0;
        return () => 1_700_000_000_000 + Math.floor(tick++ / 3);
      },
    ],
  ];
  it.each(clocks)('pages sessions with %s: each once, in list order, ties at page boundaries included', async (_name, clock) => {
    const memory = await createTestMemory({ clock: { now: clock() } });
    const { app, acme } = await serve({ memory });
    for (let i = 0; i < 8; i++) await memory.sessions.create({ namespace: 'acme', title: `s${i}` });
    await memory.sessions.create({ namespace: 'globex', title: 'not acme' });
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page = await call(app, 'GET', `/v1/sessions?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { auth: acme });
      expect(page.status).toBe(200);
      pages.push(page.data.sessions.map((s: { id: string }) => s.id));
      cursor = page.data.nextCursor;
    } while (cursor !== null && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
    expect(pages.flat()).toEqual((await memory.sessions.list({ namespace: 'acme' })).map((s) => s.id));
  });
});

describe('messages', () => {
  it('appends 201 and pages by seq with nextCursor until the last seq', async () => {
    const { app, acme, memory } = await serve();
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    const appended = await call(app, 'POST', `/v1/sessions/${id}/messages`, { auth: acme, json: { messages: turns('one', 'two', 'three', 'four', 'five') } });
    expect(appended.status).toBe(201);
    expect(appended.data.messages.map((m: { seq: number }) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    const page = async (query: string) => (await call(app, 'GET', `/v1/sessions/${id}/messages${query}`, { auth: acme })).data;
    const first = await page('?limit=2');
    expect([first.messages.map((m: { content: string }) => m.content), first.nextCursor]).toEqual([['one', 'two'], 3]);
    expect((await page('?fromSeq=3&limit=2')).nextCursor).toBe(5);
    const last = await page('?fromSeq=5&limit=2');
    expect([last.messages.map((m: { seq: number }) => m.seq), last.nextCursor]).toEqual([[5], null]);
    expect((await page('')).messages).toHaveLength(5);
  });

  it('deletes a message of the session named in the path, and not one of another session', async () => {
    const { app, acme, memory } = await serve();
    const [one, two] = [await memory.sessions.create({ namespace: 'acme' }), await memory.sessions.create({ namespace: 'acme' })];
    const [kept, gone] = await memory.append(one.id, turns('keep me', 'forget me'));
    const wrongSession = await call(app, 'DELETE', `/v1/sessions/${two.id}/messages/${gone!.id}`, { auth: acme });
    expect(wrongSession.status).toBe(404);
    const deleted = await call(app, 'DELETE', `/v1/sessions/${one.id}/messages/${gone!.id}`, { auth: acme });
    expect([deleted.status, deleted.data.messages]).toEqual([200, 1]);
    expect((await memory.messages(one.id)).map((m) => m.id)).toEqual([kept!.id]);
  });
});

describe('Idempotency-Key', () => {
  const append = (app: Awaited<ReturnType<typeof serve>>['app'], auth: string, sessionId: string, key: string, contents: string[]) =>
    call(app, 'POST', `/v1/sessions/${sessionId}/messages`, { auth, json: { messages: turns(...contents) }, headers: { 'idempotency-key': key } });

  it('stores an append once: the repeat answers 200, Idempotent-Replayed: true, with the same body', async () => {
    const { app, acme, memory } = await serve();
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    const first = await append(app, acme, id, 'retry-1', ['hello', 'hi']);
    const again = await append(app, acme, id, 'retry-1', ['hello', 'hi']);
    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(again.data).toEqual(first.data);
    expect(await memory.messages(id)).toHaveLength(2);
  });

  it('replays on another server over the same memory: nothing is kept in the process', async () => {
    const { app, acme, memory, keys } = await serve();
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    const first = await append(app, acme, id, 'restart', ['before the restart']);
    const restarted = createStrataServer({ memory, auth: { keys }, limits: { rateLimit: false } });
    const again = await append(restarted, acme, id, 'restart', ['before the restart']);
    expect([again.status, again.data]).toEqual([200, first.data]);
    expect(await memory.messages(id)).toHaveLength(1);
  });

  it('answers 409 to a key reused with another body, and stores nothing more', async () => {
    const { app, acme, memory } = await serve();
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    await append(app, acme, id, 'reused', ['original']);
    const changed = await append(app, acme, id, 'reused', ['changed']);
    expect([changed.status, changed.data.code]).toEqual([409, 'CONFLICT']);
    expect(changed.data.hint).toMatch(/Idempotency-Key/);
    expect((await memory.messages(id)).map((m) => m.content)).toEqual(['original']);
  });

  it('keeps the ids a caller gives, and tells the same key of two API keys apart', async () => {
    const { app, acme, memory, keys } = await serve();
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    const other = await keys.bearer('acme', ['write']);
    const given = await call(app, 'POST', `/v1/sessions/${id}/messages`, { auth: acme, json: { messages: [{ id: 'msg_mine', role: 'user', content: 'mine' }] }, headers: { 'idempotency-key': 'k' } });
    expect(given.data.messages[0].id).toBe('msg_mine');
    expect((await append(app, acme, id, 'shared', ['same words'])).status).toBe(201);
    expect((await append(app, other, id, 'shared', ['same words'])).status).toBe(201);
    expect(await memory.messages(id)).toHaveLength(3);
  });
});

describe('context, search, facts, forget, transfer', () => {
  it('assembles a context, with or without a body', async () => {
    const { app, acme, memory } = await serve();
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    await memory.append(id, turns('I live in Lisbon.', 'Noted.', 'Where do I live?'));
    const context = await call(app, 'POST', `/v1/sessions/${id}/context`, { auth: acme, json: { query: 'Where do I live?', budgetTokens: 500 } });
    expect(context.status).toBe(200);
    expect(context.data).toMatchObject({ budgetTokens: 500, query: 'Where do I live?', overBudget: false });
    expect(context.data.messages.map((m: { content: string }) => m.content)).toContain('Where do I live?');
    const bare = await call(app, 'POST', `/v1/sessions/${id}/context`, { auth: acme });
    expect([bare.status, bare.data.query]).toEqual([200, 'Where do I live?']);
  });

  it('searches, lists facts and forgets one, after a flush', async () => {
    const { app, acme, memory } = await serve();
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    const [said] = await memory.append(id, turns('I live in Lisbon.'));
    expect((await call(app, 'POST', '/v1/flush', { auth: acme, json: {} })).data).toMatchObject({ settled: true, pending: [], derivation: { results: 1, failedTries: 0 } });
    const search = await call(app, 'POST', '/v1/search', { auth: acme, json: { query: 'Lisbon', kinds: ['turn'] } });
    expect(search.data.hits.map((h: { id: string }) => h.id)).toContain(said!.id);
    const facts = (await call(app, 'GET', '/v1/facts', { auth: acme })).data.facts;
    expect(facts.map((f: { sourceMessageIds: string[] }) => f.sourceMessageIds)).toContainEqual([said!.id]);
    const forgotten = await call(app, 'DELETE', `/v1/facts/${facts[0].id}`, { auth: acme });
    expect([forgotten.status, forgotten.data.facts]).toEqual([200, 1]);
    expect((await call(app, 'GET', '/v1/facts?history=true', { auth: acme })).data.facts.map((f: { id: string }) => f.id)).not.toContain(facts[0].id);
  });

  it('forgets messages, a session, and a whole namespace (admin only)', async () => {
    const { app, acme, memory, keys } = await serve();
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    const [first] = await memory.append(id, turns('one', 'two'));
    expect((await call(app, 'POST', '/v1/forget', { auth: acme, json: { messageIds: [first!.id] } })).data.messages).toBe(1);
    const forgetter = await keys.bearer('acme', ['forget']);
    expect((await call(app, 'POST', '/v1/forget', { auth: forgetter, json: { namespace: 'acme' } })).status).toBe(403);
    expect((await call(app, 'POST', '/v1/forget', { auth: forgetter, json: { sessionId: id } })).data.sessions).toBe(1);
    await memory.sessions.create({ namespace: 'acme' });
    expect((await call(app, 'POST', '/v1/forget', { auth: acme, json: { namespace: 'acme' } })).data.sessions).toBe(1);
  });

  it('exports in each format and imports a bundle into the exact key’s own namespace', async () => {
    const { app, acme, memory } = await serve();
    const { id } = await memory.sessions.create({ namespace: 'acme', title: 'Exported' });
    await memory.append(id, turns('I live in Lisbon.'));
    const json = await call(app, 'GET', `/v1/sessions/${id}/export?format=json`, { auth: acme });
    expect([json.headers.get('content-type'), json.data.format]).toEqual(['application/json; charset=utf-8', 'strata-bundle']);
    const markdown = await call(app, 'GET', `/v1/sessions/${id}/export?format=markdown`, { auth: acme });
    expect([markdown.headers.get('content-type'), markdown.text.includes('I live in Lisbon.')]).toEqual(['text/markdown; charset=utf-8', true]);
    const elsewhere = await createTestMemory();
    opened.push(elsewhere);
    const source = await elsewhere.sessions.create({ namespace: 'elsewhere' });
    await elsewhere.append(source.id, turns('imported turn'));
    const bundle = await elsewhere.export(source.id, { format: 'json' });
    expect((await call(app, 'POST', '/v1/import?namespace=globex', { auth: acme, body: bundle, headers: { 'content-type': 'application/json' } })).status).toBe(404);
    const imported = await call(app, 'POST', '/v1/import', { auth: acme, body: bundle, headers: { 'content-type': 'application/json' } });
    expect([imported.status, imported.data.sessionIds]).toEqual([200, [source.id]]);
    expect((await memory.sessions.get(source.id))?.namespace).toBe('acme');
  });
});

describe('tenancy', () => {
  it("answers another tenant's session exactly as a missing one, and checks reach before scope", async () => {
    const { app, memory, keys } = await serve();
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    const globex = await keys.bearer('globex', ['read']);
    const foreign = await call(app, 'GET', `/v1/sessions/${id}`, { auth: globex });
    const missing = await call(app, 'GET', '/v1/sessions/ses_missing', { auth: globex });
    expect(foreign.status).toBe(404);
    expect(foreign.text.replaceAll(id, 'ses_missing')).toBe(missing.text);
    expect((await call(app, 'DELETE', `/v1/sessions/${id}`, { auth: globex })).status).toBe(404);
    expect((await call(app, 'DELETE', `/v1/sessions/${id}`, { auth: await keys.bearer('acme', ['read']) })).status).toBe(403);
  });

  it("names only the caller's own ids when an append or an import collides with another tenant's message id", async () => {
    const { app, memory, keys } = await serve();
    const acmeSession = await memory.sessions.create({ namespace: 'acme' });
    const [taken] = await memory.append(acmeSession.id, turns('acme only'));
    const globex = await keys.bearer('globex', ['read', 'write']);
    const own = await memory.sessions.create({ namespace: 'globex' });
    const appended = await call(app, 'POST', `/v1/sessions/${own.id}/messages`, { auth: globex, json: { messages: [{ id: taken!.id, role: 'user', content: 'x' }] } });
    expect(appended.status).toBe(409);
    const scratch = await createTestMemory();
    opened.push(scratch);
    const source = await scratch.sessions.create({ namespace: 'globex' });
    await scratch.append(source.id, [{ id: taken!.id, role: 'user', content: 'x' }]);
    const bundle = await scratch.export(source.id, { format: 'json' });
    const imported = await call(app, 'POST', '/v1/import', { auth: globex, body: bundle, headers: { 'content-type': 'application/json' } });
    expect([imported.status, imported.data.detail]).toEqual([409, `an id of this bundle is stored already ("${taken!.id}"); nothing was imported`]);
    for (const answer of [appended, imported]) expect(answer.text).not.toContain(acmeSession.id);
  });

  it('lets a prefix key reach the namespaces that start with it, and only those', async () => {
    const { app, memory, keys } = await serve();
    const team = await keys.bearer('team/', ['read', 'write'], 'prefix');
    const inside = await memory.sessions.create({ namespace: 'team/a' });
    const outside = await memory.sessions.create({ namespace: 'teamx' });
    expect((await call(app, 'GET', `/v1/sessions/${inside.id}`, { auth: team })).status).toBe(200);
    expect((await call(app, 'GET', `/v1/sessions/${outside.id}`, { auth: team })).status).toBe(404);
    expect((await call(app, 'POST', '/v1/sessions', { auth: team, json: { namespace: 'team/b' } })).status).toBe(201);
    expect((await call(app, 'POST', '/v1/sessions', { auth: team, json: { namespace: 'teamx' } })).status).toBe(404);
    const unnamed = await call(app, 'GET', '/v1/sessions', { auth: team });
    expect([unnamed.status, unnamed.data.detail]).toEqual([400, 'namespace is required with a prefix key']);
  });

  it('lists only the pending jobs and the namespaces’ token usage in the key’s reach, in /v1/status and /v1/flush', async () => {
    const base = await createTestMemory();
    const [mine, theirs] = [await base.sessions.create({ namespace: 'acme' }), await base.sessions.create({ namespace: 'globex' })];
    const job = (sessionId: string): PendingJob => ({ key: `ingest:${sessionId}`, type: 'ingest', sessionId, fromSeq: 1, toSeq: 1, state: 'failed', attempts: 3 });
    const jobs = [job(mine.id), job(theirs.id), job('ses_gone')];
    const usage = (inputTokens: number) => ({ inputTokens, outputTokens: 1, calls: 1 });
    const byNamespace = { acme: usage(10), 'acme-2': usage(20), globex: usage(30) };
    const derivation: DerivationStats = { ...base.stats().derivation, inputTokens: 60, outputTokens: 3, modelCalls: 3, byModel: { m: usage(60) }, byNamespace };
    const memory = overriding(base, { pending: async () => jobs, flush: async () => ({ settled: true, pending: jobs, derivation }), stats: () => ({ derivation }) });
    opened.push(base);
    const keys = new TestKeyStore();
    const app = createStrataServer({ memory, auth: { keys }, limits: { rateLimit: false } });
    const acme = await keys.bearer('acme', ['read', 'write']);
    const status = (await call(app, 'GET', '/v1/status', { auth: acme })).data;
    expect(status.pending).toEqual([job(mine.id)]);
    // the process-wide counters as they are, by namespace only acme's (exact: not acme-2)
    expect(status.stats.derivation).toEqual({ ...derivation, byNamespace: { acme: usage(10) } });
    const flushed = (await call(app, 'POST', '/v1/flush', { auth: acme })).data;
    expect([flushed.pending, flushed.derivation]).toEqual([[job(mine.id)], { ...derivation, byNamespace: { acme: usage(10) } }]);
    const prefix = await keys.bearer('acme', ['read'], 'prefix');
    expect((await call(app, 'GET', '/v1/status', { auth: prefix })).data.stats.derivation.byNamespace).toEqual({ acme: usage(10), 'acme-2': usage(20) });
    expect((await call(app, 'GET', '/v1/status?namespace=acme-2', { auth: prefix })).data.stats.derivation.byNamespace).toEqual({ 'acme-2': usage(20) });
    const open = createStrataServer({ memory, limits: { rateLimit: false } });
    expect((await call(open, 'GET', '/v1/status')).data).toEqual({ pending: jobs, stats: { derivation } });
  });
});

describe('CORS, metrics, mounting', () => {
  it('sends no CORS headers by default, and allows only the configured origins', async () => {
    const { app, acme } = await serve();
    const plain = await call(app, 'GET', '/v1/sessions', { auth: acme, headers: { origin: 'https://app.example' } });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    const { app: withCors } = await serve({ limits: { corsOrigins: ['https://app.example'] } });
    const preflight = { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' };
    const allowed = await call(withCors, 'OPTIONS', '/v1/sessions', { headers: preflight });
    expect([allowed.status, allowed.headers.get('access-control-allow-origin')]).toEqual([204, 'https://app.example']);
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    const other = await call(withCors, 'GET', '/healthz', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('counts requests by route and status in a registry of its own, for admin keys', async () => {
    const { app, acme, keys } = await serve();
    const { app: otherApp, acme: otherAcme } = await serve();
    await call(app, 'POST', '/v1/sessions', { auth: acme, json: {} });
    await call(app, 'GET', '/v1/sessions/ses_missing', { auth: acme });
    const metrics = await call(app, 'GET', '/metrics', { auth: acme });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('strata_http_requests_total{method="POST",route="/v1/sessions",status="201"} 1');
    expect(metrics.text).toContain('strata_http_requests_total{method="GET",route="/v1/sessions/:id",status="404"} 1');
    expect(metrics.text).toMatch(/strata_http_request_duration_seconds_count\{method="POST",route="\/v1\/sessions"\} 1/);
    expect(metrics.text).toContain('strata_derivation_backlog 0');
    expect((await call(otherApp, 'GET', '/metrics', { auth: otherAcme })).text).not.toContain('route="/v1/sessions"');
    expect((await call(app, 'GET', '/metrics', { auth: await keys.bearer('acme', ['read']) })).status).toBe(403);
  });

  it('serves the same routes mounted under a path of another Hono app', async () => {
    const { app, acme } = await serve();
    const parent = new Hono().route('/memory', app);
    expect((await call(parent, 'GET', '/memory/healthz')).data).toEqual({ status: 'ok' });
    expect((await call(parent, 'POST', '/memory/v1/sessions', { auth: acme, json: { title: 'mounted' } })).status).toBe(201);
    expect((await call(parent, 'GET', '/memory/v1/sessions', { auth: acme })).data.sessions).toHaveLength(1);
  });
});

describe('startStrataServer (on loopback)', () => {
  it('stops accepting on close, lets the request in flight finish, then runs onClose', async () => {
    const events: string[] = [];
    let release = () => {};
    let entered = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const app = new Hono().get('/slow', async (c) => {
      entered();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return c.text('done');
    });
    const server = await startStrataServer({ app, port: 0, onClose: () => void events.push('onClose') });
    const slow = fetch(`${server.url}/slow`);
    await inside;
    const closed = server.close().then(() => events.push('closed'));
    await expect(fetch(`${server.url}/slow`)).rejects.toThrow();
    events.push('released');
    release();
    expect(await (await slow).text()).toBe('done');
    await closed;
    expect(events).toEqual(['released', 'onClose', 'closed']);
  });

  it('answers a request the adapter refuses (a backslash in the path) with a 400 problem', async () => {
    const { app } = await serve();
    const server = await startStrataServer({ app, port: 0 });
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/v1/sessions/a\\..\\b', agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      });
      req.on('error', reject);
      req.end();
    });
    await server.close();
    expect([answer.status, answer.type, JSON.parse(answer.body).code]).toEqual([400, 'application/problem+json', 'INVALID_INPUT']);
  });
});

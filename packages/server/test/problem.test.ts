import { type Memory, StrataError, type StrataErrorCode } from '@strata/core';
import { HTTPException } from 'hono/http-exception';
import { afterEach, describe, expect, it } from 'vitest';
import { problemOf, withoutInternals } from '../src/http/problem.js';
import { createStrataServer, type ServerLimits, type StrataServerOptions } from '../src/index.js';
import { call, createTestMemory, overriding, TestKeyStore } from './test-memory.js';

const opened: Memory[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((memory) => memory.close()));
});

async function serve(options: { limits?: ServerLimits; wrap?: (memory: Memory) => StrataServerOptions['memory']; onError?: StrataServerOptions['onError'] } = {}) {
  const memory = await createTestMemory();
  opened.push(memory);
  const keys = new TestKeyStore();
  const app = createStrataServer({
    memory: options.wrap?.(memory) ?? memory,
    auth: { keys },
    limits: { rateLimit: false, ...options.limits },
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const acme = await keys.bearer('acme', ['read', 'write', 'forget', 'admin']);
  const session = await memory.sessions.create({ namespace: 'acme' });
  return { app, memory, keys, acme, session };
}

/** Checks the shape every failed answer has, and returns the problem document. */
function expectProblem(answer: Awaited<ReturnType<typeof call>>, status: number, code: StrataErrorCode) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/problem+json');
  expect(answer.data).toMatchObject({ type: `urn:strata:problem:${code.toLowerCase().replaceAll('_', '-')}`, status, code });
  expect(answer.data.title.length * answer.data.detail.length * answer.data.hint.length).toBeGreaterThan(0);
  expect(answer.text).not.toMatch(/\n\s+at |node_modules|file:\/\/|\/work\//);
  return answer.data as { detail: string; hint: string };
}

describe('problemOf', () => {
  const statuses: [StrataErrorCode, number][] = [
    ['INVALID_INPUT', 400],
    ['UNAUTHORIZED', 401],
    ['FORBIDDEN', 403],
    ['NOT_FOUND', 404],
    ['CONFLICT', 409],
    ['RATE_LIMITED', 429],
    ['CONFIG_INVALID', 500],
    ['INTERNAL', 500],
    ['BACKEND_UNAVAILABLE', 503],
    ['CLOSED', 503],
  ];
  it.each(statuses)('answers %s with %i', (code, status) => {
    const { problem } = problemOf(new StrataError(code, 'what failed', { hint: 'how to fix it' }));
    expect([problem.status, problem.code, problem.type]).toEqual([status, code, `urn:strata:problem:${code.toLowerCase().replaceAll('_', '-')}`]);
    // the request's own failures keep the memory's words; the server's do not show them
    expect(problem.detail === 'what failed').toBe(status < 500);
  });

  it('keeps message and hint of a 4xx, and adds the challenge or the wait it needs', () => {
    expect(problemOf(new StrataError('NOT_FOUND', 'no session with id "x"', { hint: 'list them' })).problem).toMatchObject({ detail: 'no session with id "x"', hint: 'list them' });
    expect(problemOf(new StrataError('UNAUTHORIZED', 'no key', { hint: 'send one' })).headers['www-authenticate']).toMatch(/^Bearer/);
    expect(problemOf(new StrataError('BACKEND_UNAVAILABLE', 'down', { hint: 'retry' })).headers['retry-after']).toBe('5');
  });

  it('shows nothing of an unknown error, and no path of a backend hint', () => {
    const unknown = problemOf(new Error('ENOENT: open /srv/strata/data.db'));
    expect(unknown.problem).toMatchObject({ status: 500, code: 'INTERNAL', detail: 'internal error' });
    expect(JSON.stringify(unknown)).not.toContain('/srv/');
    expect(withoutInternals('Check the socket "/var/run/postgresql/.s.PGSQL.5432" or file:///srv/x.db\n    at connect (pg.js:1:2)')).toBe('Check the socket "…" or …');
  });

  it("turns Hono's 415 and malformed-JSON exceptions into INVALID_INPUT 400", () => {
    expect(problemOf(new HTTPException(415, { message: 'Unsupported Media Type' })).problem).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(problemOf(new HTTPException(400, { message: 'Malformed JSON in request body' })).problem.detail).toBe('Malformed JSON in request body');
  });
});

describe('problem answers of the app', () => {
  it('400 for a body its schema rejects, naming the field', async () => {
    const { app, acme, session } = await serve();
    const answer = await call(app, 'POST', `/v1/sessions/${session.id}/messages`, { auth: acme, json: { messages: [{ role: 'robot', content: 'hi' }] } });
    expect(expectProblem(answer, 400, 'INVALID_INPUT').detail).toMatch(/^the request body is invalid: messages\[0\]\.role: /);
    const query = await call(app, 'GET', '/v1/sessions?limit=0', { auth: acme });
    expect(expectProblem(query, 400, 'INVALID_INPUT').detail).toMatch(/query is invalid: limit/);
  });

  const bodies: [string, string | Uint8Array, string][] = [
    ['malformed JSON', '{"messages":[{"role":"user","content":"cut', 'application/json'],
    ['bad UTF-8', new Uint8Array([...Buffer.from('{"messages":[{"role":"user","content":"'), 0xff, 0xfe, ...Buffer.from('"}]}')]), 'application/json'],
    ['a UTF-16 charset', '{"messages":[{"role":"user","content":"hi"}]}', 'application/json; charset=utf-16'],
    ['a wrong content type', '{"messages":[{"role":"user","content":"hi"}]}', 'text/plain'],
    ['an empty body', '', 'application/json'],
    ['JSON nested too deep', `${'['.repeat(5000)}${']'.repeat(5000)}`, 'application/json'],
  ];
  it.each(bodies)('400, never 500, for %s, and nothing stored', async (_name, body, contentType) => {
    const { app, acme, session, memory } = await serve();
    const answer = await call(app, 'POST', `/v1/sessions/${session.id}/messages`, { auth: acme, body, headers: { 'content-type': contentType } });
    expectProblem(answer, 400, 'INVALID_INPUT');
    expect(await memory.messages(session.id)).toEqual([]);
  });

  it('401 with a Bearer challenge for no key, a bad key and a revoked key', async () => {
    const { app, keys } = await serve();
    const revoked = await keys.create({ namespace: 'acme', scopes: ['read'] });
    await keys.revoke(revoked.key.id);
    for (const auth of [undefined, 'Basic YWNtZTpzZWNyZXQ=', 'Bearer sk_strata_0000000000000000_nope', `Bearer ${revoked.secret}`]) {
      const answer = await call(app, 'GET', '/v1/sessions', { ...(auth ? { auth } : {}) });
      expectProblem(answer, 401, 'UNAUTHORIZED');
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    }
    expect((await call(app, 'GET', '/healthz')).status).toBe(200);
  });

  it('403 for a missing scope, 404 for an unknown route, 405 with Allow for a wrong method, 409 for a taken id', async () => {
    const { app, acme, keys, session } = await serve();
    expectProblem(await call(app, 'POST', '/v1/sessions', { auth: await keys.bearer('acme', ['read']), json: {} }), 403, 'FORBIDDEN');
    expectProblem(await call(app, 'GET', '/v1/nothing-here', { auth: acme }), 404, 'NOT_FOUND');
    const wrongMethod = await call(app, 'PUT', `/v1/sessions/${session.id}`, { auth: acme, json: {} });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE');
    expect(wrongMethod.data.code).toBe('INVALID_INPUT');
    expectProblem(await call(app, 'POST', '/v1/sessions', { auth: acme, json: { id: session.id } }), 409, 'CONFLICT');
  });

  it('413 for a body over limits.bodyBytes', async () => {
    const { app, acme, session } = await serve({ limits: { bodyBytes: 1024 } });
    const answer = await call(app, 'POST', `/v1/sessions/${session.id}/messages`, { auth: acme, json: { messages: [{ role: 'user', content: 'x'.repeat(2048) }] } });
    expectProblem(answer, 413, 'INVALID_INPUT');
  });

  it('429 with Retry-After once a key has spent its burst; another key still passes', async () => {
    const { app, acme, keys } = await serve({ limits: { rateLimit: { perSecond: 0.01, burst: 2 } } });
    expect((await call(app, 'GET', '/v1/sessions', { auth: acme })).status).toBe(200);
    expect((await call(app, 'GET', '/v1/sessions', { auth: acme })).status).toBe(200);
    const limited = await call(app, 'GET', '/v1/sessions', { auth: acme });
    expectProblem(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await call(app, 'GET', '/v1/sessions', { auth: await keys.bearer('acme', ['read']) })).status).toBe(200);
  });

  it('503 with Retry-After when the memory reports its backend unavailable, without its words', async () => {
    const down = new StrataError('BACKEND_UNAVAILABLE', 'connect ECONNREFUSED /var/run/postgresql/.s.PGSQL.5432', { hint: 'Check that PostgreSQL runs at /var/run/postgresql.' });
    const { app, acme } = await serve({ wrap: (memory) => overriding(memory, { sessions: { list: () => Promise.reject(down) } }), onError: () => {} });
    const answer = await call(app, 'GET', '/v1/sessions', { auth: acme });
    expectProblem(answer, 503, 'BACKEND_UNAVAILABLE');
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.text).not.toMatch(/ECONNREFUSED|\/var\/run/);
    const ready = await call(app, 'GET', '/readyz');
    expectProblem(ready, 503, 'BACKEND_UNAVAILABLE');
    expect(ready.headers.get('retry-after')).toBe('5');
  });

  it('500 with a generic detail, no stack and no path, and tells onError', async () => {
    const told: unknown[] = [];
    const broken = new Error("ENOENT: no such file or directory, open '/work/data/strata.db'");
    const { app, acme, session } = await serve({ wrap: (memory) => overriding(memory, { getContext: () => Promise.reject(broken) }), onError: (error) => told.push(error) });
    const answer = await call(app, 'POST', `/v1/sessions/${session.id}/context`, { auth: acme, json: {} });
    expect(expectProblem(answer, 500, 'INTERNAL').detail).toBe('internal error');
    expect(answer.text).not.toMatch(/ENOENT|strata\.db|stack/);
    expect(told).toEqual([broken]);
  });
});

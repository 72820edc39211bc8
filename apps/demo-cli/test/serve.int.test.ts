import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createPostgresSessionStore } from '@strata/store-postgres';
import { requireService } from '@strata/testkit';
import { createSandbox, json, runCli } from './support/cli.js';
import { call, holdRequest, type ServeProcess, startServe } from './support/serve-process.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

const sandboxes: ReturnType<typeof createSandbox>[] = [];
const running: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of running.splice(0)) {
    if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
    await serve.exited;
  }
  for (const sandbox of sandboxes.splice(0)) sandbox.dispose();
});

function sandbox() {
  const made = createSandbox('serve');
  sandboxes.push(made);
  return made;
}

async function serve(args: string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const started = await startServe(['serve', '--port', '0', ...args], env);
  running.push(started);
  return started;
}

interface ListedKey {
  id: string;
  namespace: string;
  match: string;
  scopes: string[];
  name?: string;
  revokedAt?: number;
}

describe('strata serve', () => {
  it('serves the memory file on loopback in open mode, answers /healthz, and exits 0 on SIGTERM', async () => {
    const { env } = sandbox();
    const server = await serve([], env);
    expect(server.line).toMatch(/^strata serve: listening on http:\/\/127\.0\.0\.1:\d+ \(.*memory\.sqlite.*, open: loopback only\)$/);
    expect(await call(server.url, 'GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const created = await call(server.url, 'POST', '/v1/sessions', { body: { namespace: 'open' } });
    expect(created.status).toBe(201);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toMatch(/SIGTERM: finishing requests in flight[^\n]*\nstrata serve: stopped\n$/);
  });

  it('limits each key to --rate-limit requests per second (429 with Retry-After beyond the burst), or not at all with off', async () => {
    const { env } = sandbox();
    const limited = await serve(['--rate-limit', '1,3'], env);
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 6; i++) {
      const answer = await call(limited.url, 'GET', '/v1/sessions?namespace=rl');
      statuses.push(answer.status);
      if (answer.status === 429) retryAfter ??= answer.headers.get('retry-after') ?? undefined;
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    const unlimited = await serve(['--rate-limit', 'off'], env);
    const answers = await Promise.all(Array.from({ length: 150 }, () => call(unlimited.url, 'GET', '/v1/sessions?namespace=rl')));
    expect(answers.map((a) => a.status).filter((status) => status !== 200)).toEqual([]);
    for (const bad of ['0', '-5', 'fast', '10,0', '10,2.5', '1,2,3']) {
      const refused = await runCli(['serve', '--port', '0', '--rate-limit', bad], { env });
      expect(refused.code, bad).not.toBe(0);
      expect(refused.stderr).toMatch(/--rate-limit/);
    }
  });

  it('refuses a non-loopback host without an API key, naming the command that makes one', async () => {
    const { env } = sandbox();
    for (const host of ['0.0.0.0', '::']) {
      const refused = await runCli(['serve', '--host', host, '--port', '0'], { env });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(new RegExp(`error: strata serve refuses to listen on ${host.replace('.', '\\.')} without an API key`));
      expect(refused.stderr).toMatch(/hint: Create a key first: strata keys create --namespace NS --scope read,write/);
    }
    const asJson = await runCli(['serve', '--host', '0.0.0.0', '--json'], { env });
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stderr)).toMatchObject({ error: { code: 'CONFIG_INVALID', hint: expect.stringContaining('strata keys create --namespace NS --scope read,write') } });
  });

  it('creates, lists and revokes keys; a running server refuses a revoked key at once, and any host is allowed with a key', async () => {
    const { env } = sandbox();
    const made = await runCli(['keys', 'create', '--namespace', 'acme', '--scope', 'read,write', '--name', 'ci'], { env });
    expect(made.code, made.stderr).toBe(0);
    const secret = made.stdout.trim();
    expect(secret).toMatch(/^sk_strata_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(made.stderr).toMatch(/will not be shown again/);
    const team = json<{ key: ListedKey; secret: string }>(await runCli(['keys', 'create', '-n', 'team/', '--prefix', '--scope', 'read', '--json'], { env }));
    expect(team.key).toMatchObject({ namespace: 'team/', match: 'prefix', scopes: ['read'] });

    const listed = await runCli(['keys', 'list', '--json'], { env });
    expect(listed.stdout).not.toMatch(/sk_strata_|hash/);
    const keys = json<{ keys: ListedKey[] }>(listed).keys;
    expect(keys.map((k) => [k.namespace, k.match, k.scopes.join(','), k.name])).toEqual([
      ['acme', 'exact', 'read,write', 'ci'],
      ['team/', 'prefix', 'read', undefined],
    ]);
    const table = await runCli(['keys'], { env });
    expect(table.stdout).toContain(keys[0]?.id);
    expect(table.stdout).not.toContain('sk_strata_');

    const server = await serve([], env);
    expect(server.line).toMatch(/, keys: 2 keys\)$/);
    expect((await call(server.url, 'GET', '/v1/sessions')).status).toBe(401);
    expect((await call(server.url, 'POST', '/v1/sessions', { key: secret, body: {} })).status).toBe(201);
    expect((await call(server.url, 'GET', '/v1/sessions', { key: secret })).status).toBe(200);

    const revoked = await runCli(['keys', 'revoke', keys[0]?.id ?? ''], { env });
    expect(revoked.code, revoked.stderr).toBe(0);
    const refused = await call(server.url, 'GET', '/v1/sessions', { key: secret });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await call(server.url, 'GET', '/v1/sessions?namespace=team%2Fa', { key: team.secret })).status).toBe(200);
    expect(json<{ keys: ListedKey[] }>(await runCli(['keys', 'list', '--json'], { env })).keys[0]?.revokedAt).toEqual(expect.any(Number));

    const unknown = await runCli(['keys', 'revoke', '0123456789abcdef'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no key with id "0123456789abcdef"[^\n]*\nhint: List the keys/);

    // one active key is enough for another interface
    const wide = await serve(['--host', '0.0.0.0'], env);
    expect(wide.line).toMatch(/^strata serve: listening on http:\/\/0\.0\.0\.0:\d+ .*, keys: 1 key\)$/);
    const loopback = wide.url.replace('0.0.0.0', '127.0.0.1');
    expect((await call(loopback, 'GET', '/v1/sessions', { key: secret })).status).toBe(401);
    expect((await call(loopback, 'GET', '/v1/sessions?namespace=team%2Fb', { key: team.secret })).status).toBe(200);
  });

  it('finishes a request in flight on SIGTERM, refuses new connections, then exits 0', async () => {
    const { env } = sandbox();
    const server = await serve([], env);
    const session = await call(server.url, 'POST', '/v1/sessions', { body: { namespace: 'drain' } });
    const held = await holdRequest(
      server.url,
      `/v1/sessions/${session.body.id as string}/messages`,
      { messages: [{ role: 'user', content: 'sent while the server stops' }] },
      { 'idempotency-key': 'drain-1' },
    );
    server.child.kill('SIGTERM');
    await server.waitForStderr(/SIGTERM: finishing requests in flight/);
    const port = Number(new URL(server.url).port);
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve('connected'));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    const answer = await held.finish();
    expect(answer.status, answer.text).toBe(201);
    expect(JSON.parse(answer.text).messages[0].content).toBe('sent while the server stops');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('exits at once with 130 on a second signal, while a request is still in flight', async () => {
    const { env } = sandbox();
    const server = await serve([], env);
    const session = await call(server.url, 'POST', '/v1/sessions', { body: { namespace: 'impatient' } });
    await holdRequest(server.url, `/v1/sessions/${session.body.id as string}/messages`, { messages: [{ role: 'user', content: 'never finished' }] });
    server.child.kill('SIGINT');
    await server.waitForStderr(/SIGINT: finishing requests in flight/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 130, signal: null });
    expect(server.stderr()).not.toMatch(/strata serve: stopped/);
  });

  it('keeps every acknowledged append exactly once across a SIGKILL', async () => {
    const { env } = sandbox();
    const first = await serve([], env);
    const sessionId = (await call(first.url, 'POST', '/v1/sessions', { body: { namespace: 'crash' } })).body.id as string;
    const append = (i: number) =>
      call(first.url, 'POST', `/v1/sessions/${sessionId}/messages`, {
        headers: { 'idempotency-key': `burst-${i}` },
        body: {
          messages: [
            { role: 'user', content: `burst ${i} a` },
            { role: 'assistant', content: `burst ${i} b` },
          ],
        },
      });
    const acknowledged = await Promise.all(Array.from({ length: 40 }, (_, i) => append(i)));
    expect(acknowledged.map((a) => a.status)).toEqual(acknowledged.map(() => 201));
    // more appends on their way as the process dies: each may be kept or not, but never twice
    const unsettled = Array.from({ length: 10 }, (_, i) => append(100 + i).catch(() => undefined));
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    await Promise.all(unsettled);

    const second = await serve([], env);
    const stored = await call(second.url, 'GET', `/v1/sessions/${sessionId}/messages?limit=1000`);
    expect(stored.status).toBe(200);
    const contents = (stored.body.messages as { content: string; seq: number }[]).map((m) => m.content);
    for (let i = 0; i < 40; i++) for (const part of ['a', 'b']) expect(contents.filter((c) => c === `burst ${i} ${part}`)).toHaveLength(1);
    expect(new Set(contents).size).toBe(contents.length);
    expect((stored.body.messages as { seq: number }[]).map((m) => m.seq)).toEqual(contents.map((_, i) => i + 1));
  });
});

const postgresUrl = process.env.STRATA_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const chromaUrl = process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765';
const schema = `strata_serve_${randomBytes(5).toString('hex')}`;
const skipReason =
  (await requireService('PostgreSQL', async () => {
    const store = await createPostgresSessionStore({ url: postgresUrl, schema, poolTimeoutMs: 3000 });
    await store.close();
  })) ??
  (await requireService('Chroma', async () => {
    const response = await fetch(`${chromaUrl}/api/v2/heartbeat`);
    if (!response.ok) throw new Error(`heartbeat answered ${response.status}`);
  }));
let proxy: TcpProxy | undefined;
afterAll(async () => {
  await proxy?.close();
  if (skipReason !== null) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

describe.skipIf(skipReason !== null)(`strata serve --store postgres://...${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('answers 503 with Retry-After while PostgreSQL is out of reach, and 2xx again by itself once it is back', async () => {
    const target = new URL(postgresUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(postgresUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    viaProxy.searchParams.set('schema', schema);
    const { env } = sandbox();
    const server = await serve([], { ...env, STRATA_STORE: viaProxy.toString(), STRATA_CHROMA_URL: chromaUrl });
    expect(server.line).toMatch(/PostgreSQL session store.*Chroma.*open: loopback only\)$/);
    const sessionId = (await call(server.url, 'POST', '/v1/sessions', { body: { namespace: 'pg' } })).body.id as string;
    expect(sessionId).toEqual(expect.any(String));

    await proxy.cut();
    for (const [method, path, body] of [
      ['GET', '/v1/sessions?namespace=pg', undefined],
      ['POST', `/v1/sessions/${sessionId}/messages`, { messages: [{ role: 'user', content: 'while the store is away' }] }],
      ['GET', '/readyz', undefined],
    ] as const) {
      const answer = await call(server.url, method, path, { ...(body ? { body } : {}), headers: { 'idempotency-key': 'away-1' } });
      expect({ path, status: answer.status }).toEqual({ path, status: 503 });
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      if (path !== '/readyz') expect(answer.body).toMatchObject({ status: 503, code: 'BACKEND_UNAVAILABLE' });
    }

    await proxy.restore();
    await vi.waitFor(async () => expect((await call(server.url, 'GET', '/v1/sessions?namespace=pg')).status).toBe(200), { timeout: 30_000, interval: 200 });
    const appended = await call(server.url, 'POST', `/v1/sessions/${sessionId}/messages`, {
      headers: { 'idempotency-key': 'back-1' },
      body: { messages: [{ role: 'user', content: 'after the store is back' }] },
    });
    expect(appended.status).toBe(201);
    expect((await call(server.url, 'GET', '/readyz')).status).toBe(200);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  }, 120_000);

  it('shares one memory between two serve processes: what one stores the other reads, what one forgets the other no longer serves', async () => {
    const shared = new URL(postgresUrl);
    shared.searchParams.set('schema', schema);
    const { env, dataDir } = sandbox();
    const withStore = { ...env, STRATA_STORE: shared.toString(), STRATA_CHROMA_URL: chromaUrl };
    const created = await runCli(['keys', 'create', '--namespace', 'shared', '--scope', 'read,write,forget', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const headers = { authorization: `Bearer ${json<{ secret: string }>(created).secret}` };
    const [one, two] = await Promise.all([serve(['--keys', `${dataDir}/keys.json`], withStore), serve(['--keys', `${dataDir}/keys.json`], withStore)]);
    const sessionId = (await call(one!.url, 'POST', '/v1/sessions', { headers, body: {} })).body.id as string;
    const appended = await call(two!.url, 'POST', `/v1/sessions/${sessionId}/messages`, {
      headers: { ...headers, 'idempotency-key': 'two-1' },
      body: { messages: [{ role: 'user', content: 'The greenhouse thermostat is set to eighteen degrees.' }] },
    });
    expect(appended.status).toBe(201);
    // the same Idempotency-Key sent to the other process stores nothing twice
    const retried = await call(one!.url, 'POST', `/v1/sessions/${sessionId}/messages`, {
      headers: { ...headers, 'idempotency-key': 'two-1' },
      body: { messages: [{ role: 'user', content: 'The greenhouse thermostat is set to eighteen degrees.' }] },
    });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const read = await call(one!.url, 'GET', `/v1/sessions/${sessionId}/messages`, { headers });
    expect((read.body.messages as { content: string }[]).map((m) => m.content)).toEqual(['The greenhouse thermostat is set to eighteen degrees.']);
    const context = await call(one!.url, 'POST', `/v1/sessions/${sessionId}/context`, { headers, body: { query: 'greenhouse thermostat' } });
    expect(JSON.stringify(context.body.messages)).toContain('eighteen degrees');
    const messageId = (appended.body.messages as { id: string }[])[0]!.id;
    expect((await call(one!.url, 'DELETE', `/v1/sessions/${sessionId}/messages/${messageId}`, { headers })).status).toBe(200);
    const after = await call(two!.url, 'GET', `/v1/sessions/${sessionId}/messages`, { headers });
    expect(after.body.messages).toEqual([]);
    const search = await call(two!.url, 'POST', '/v1/search', { headers, body: { query: 'greenhouse thermostat' } });
    expect(JSON.stringify(search.body)).not.toContain('eighteen degrees');
    for (const server of [one!, two!]) server.child.kill('SIGTERM');
    expect((await one!.exited).code).toBe(0);
    expect((await two!.exited).code).toBe(0);
  }, 120_000);
});

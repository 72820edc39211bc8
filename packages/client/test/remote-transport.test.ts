import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StrataError, createMemory, type Memory } from '@strata/core';
import { type ApiKey, type KeyStore, createStrataServer } from '@strata/server';
import { createRemoteMemory } from '../src/index.js';
import { type ServedMemory, serveOverHttp } from './support/serve-over-http.js';

const rejection = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => error,
  );

const SECRET = 'sk_strata_00112233445566aa_c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0IHNlY3JldA';

/** A port nothing listens on: one the system gave and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Keys held in a map: secret -> key. */
function keysOf(entries: Record<string, Omit<ApiKey, 'createdAt'>>): KeyStore {
  const fail = () => Promise.reject(new Error('not used by these tests'));
  return { verify: async (secret) => (entries[secret] ? { ...entries[secret], createdAt: 0 } : null), create: fail, list: fail, revoke: fail };
}

describe('createRemoteMemory: transport', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function serve(options: Parameters<typeof serveOverHttp>[1] = {}): Promise<{ local: Memory; served: ServedMemory }> {
    const local = await createMemory();
    const served = await serveOverHttp(local, options);
    cleanup.push(
      () => local.close(),
      () => served.close(),
    );
    return { local, served };
  }

  it('sends a fresh Idempotency-Key with each append, and after a lost answer the same key once more: stored once', async () => {
    const { local, served } = await serve();
    const keys: (string | null)[] = [];
    let loseAnswers = 1;
    const remote = createRemoteMemory({
      url: served.url,
      fetch: async (input) => {
        const request = input as Request;
        const isAppend = request.method === 'POST' && request.url.endsWith('/messages');
        if (isAppend) keys.push(request.headers.get('idempotency-key'));
        const response = await fetch(request);
        // the server stored the turns, then the connection broke before its answer arrived
        if (isAppend && loseAnswers-- > 0) throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
        return response;
      },
    });
    cleanup.push(() => remote.close());
    const session = await remote.sessions.create({ namespace: 'retry' });
    const stored = await remote.append(session.id, [
      { role: 'user', content: 'I live in Lisbon.' },
      { role: 'assistant', content: 'Noted.' },
    ]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await local.messages(session.id)).toEqual(stored);
    await remote.append(session.id, { role: 'user', content: 'And I have a cat.' });
    expect(keys).toHaveLength(3);
    expect(keys[2]).not.toBe(keys[0]);
    expect((await local.messages(session.id)).map((m) => m.content)).toEqual(['I live in Lisbon.', 'Noted.', 'And I have a cat.']);
  });

  it('gives up after one retry: BACKEND_UNAVAILABLE, and a read is not retried', async () => {
    const { served } = await serve();
    const sent: string[] = [];
    const remote = createRemoteMemory({
      url: served.url,
      fetch: async (input) => {
        sent.push((input as Request).method);
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
      },
    });
    const error = await rejection(remote.append('ses_any', { role: 'user', content: 'x' }));
    expect(StrataError.is(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect(sent).toEqual(['POST', 'POST']);
    expect(StrataError.is(await rejection(remote.sessions.list()), 'BACKEND_UNAVAILABLE')).toBe(true);
    expect(sent).toEqual(['POST', 'POST', 'GET']);
  });

  it('a server that cannot be reached is BACKEND_UNAVAILABLE, retryable, naming the url and never the key', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const remote = createRemoteMemory({ url, apiKey: SECRET });
    const error = (await rejection(remote.sessions.list())) as StrataError;
    expect(StrataError.is(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect(error.retryable).toBe(true);
    expect(error.hint).toContain(url);
    expect(error.message).toContain(url);
    expect(error.message).toContain('ECONNREFUSED');
    expect(`${error.message} ${error.hint}`).not.toContain('c2VjcmV0');
  });

  it('sends the key as a Bearer token: its reach and scopes apply, and a wrong key is UNAUTHORIZED', async () => {
    const keys = keysOf({ [SECRET]: { id: '00112233445566aa', namespace: 'u1', match: 'exact', scopes: ['read'] } });
    const { local, served } = await serve({ auth: { keys } });
    const mine = await local.sessions.create({ namespace: 'u1', title: 'mine' });
    const theirs = await local.sessions.create({ namespace: 'u2', title: 'theirs' });
    const remote = createRemoteMemory({ url: served.url, apiKey: SECRET });
    expect(await remote.sessions.get(mine.id)).toEqual(mine);
    // out of the key's reach is the same as unknown
    expect(await remote.sessions.get(theirs.id)).toBeNull();
    expect(await remote.sessions.list()).toEqual([mine]);
    // usage of its own namespace only; another's is NOT_FOUND, as a session of it is
    expect(await remote.usage({ namespace: 'u1' })).toEqual(await local.usage({ namespace: 'u1' }));
    for (const filter of [{ namespace: 'u2' }, { namespace: 'u1', sessionId: theirs.id }]) expect(StrataError.is(await rejection(remote.usage(filter)), 'NOT_FOUND')).toBe(true);
    const forbidden = (await rejection(remote.append(mine.id, { role: 'user', content: 'x' }))) as StrataError;
    expect(StrataError.is(forbidden, 'FORBIDDEN')).toBe(true);
    expect(forbidden.hint).toMatch(/write/);
    for (const apiKey of [`${SECRET}x`, undefined]) {
      const stranger = createRemoteMemory({ url: served.url, ...(apiKey === undefined ? {} : { apiKey }) });
      const error = (await rejection(stranger.sessions.list())) as StrataError;
      expect(StrataError.is(error, 'UNAUTHORIZED')).toBe(true);
      expect(error.hint).toMatch(/strata keys create/);
    }
  });

  it('reaches a server mounted under a path, through the fetch it is given', async () => {
    const local = await createMemory();
    cleanup.push(() => local.close());
    const app = createStrataServer({ memory: local });
    const paths: string[] = [];
    const remote = createRemoteMemory({
      url: 'http://strata.internal/memory/',
      fetch: async (input) => {
        const request = input as Request;
        const url = new URL(request.url);
        paths.push(url.pathname);
        url.pathname = url.pathname.replace(/^\/memory/, '');
        return app.fetch(new Request(url, request));
      },
    });
    const session = await remote.sessions.create({ namespace: 'mounted' });
    expect(await local.sessions.get(session.id)).toEqual(session);
    expect(paths).toEqual(['/memory/v1/sessions']);
  });

  it('refuses a url that is not http(s) or carries credentials, and a malformed key, with CONFIG_INVALID, never showing a secret', () => {
    for (const url of ['not a url', 'ftp://127.0.0.1/', '', 'http://user:hunter2@127.0.0.1:8787']) {
      expect(() => createRemoteMemory({ url })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.not.stringContaining('hunter2') }));
    }
    const error = (() => {
      try {
        createRemoteMemory({ url: 'http://127.0.0.1:8787', apiKey: 'sk_strata_abc def' });
      } catch (e) {
        return e as StrataError;
      }
    })();
    expect(StrataError.is(error, 'CONFIG_INVALID')).toBe(true);
    expect(`${error?.message} ${error?.hint}`).not.toContain('abc def');
  });
});

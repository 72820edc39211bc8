import { request } from 'node:http';
import type { StoredMessage } from '@strata/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectProblem } from './support/expect-problem.js';
import { type RawRequest, sendRaw } from './support/raw-request.js';
import { startTenantFixture, type TenantFixture } from './support/tenant-fixture.js';

let fx: TenantFixture;

beforeAll(async () => {
  fx = await startTenantFixture();
});

afterAll(async () => {
  await fx?.close();
});

const turns = (label: string) => [
  { role: 'user', content: `${label}: first turn` },
  { role: 'assistant', content: `${label}: second turn` },
];

function append(sessionId: string, key: string, messages: unknown, secret = fx.keys.acmeAdmin): RawRequest {
  return {
    method: 'POST',
    path: `/v1/sessions/${encodeURIComponent(sessionId)}/messages`,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ messages }),
  };
}

/**
 * Writes the whole request, then closes the connection before any byte of the answer is read.
 * Resolves with what the client saw of the hang-up (a socket error, never an answer).
 */
function sendAndHangUp(port: number, req: RawRequest): Promise<{ answered: boolean; error?: Error }> {
  return new Promise((resolve) => {
    const body = req.body ?? '';
    const seen: { answered: boolean; error?: Error } = { answered: false };
    const outgoing = request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers: { ...req.headers, 'content-length': Buffer.byteLength(body) }, agent: false });
    outgoing.on('response', (incoming) => {
      seen.answered = true;
      incoming.destroy();
    });
    outgoing.on('error', (error) => {
      seen.error = error;
    });
    outgoing.on('close', () => resolve(seen));
    outgoing.on('finish', () => outgoing.destroy());
    outgoing.end(body);
  });
}

const idsOf = (text: string) => (JSON.parse(text) as { messages: StoredMessage[] }).messages.map((m) => m.id);

async function newSession(): Promise<string> {
  return (await fx.memory.sessions.create({ namespace: 'acme' })).id;
}

describe('Idempotency-Key on POST /v1/sessions/{id}/messages', () => {
  it('replays a completed append: 200, Idempotent-Replayed: true, the same body, stored once', async () => {
    const sessionId = await newSession();
    const first = await sendRaw(fx.server.port, append(sessionId, 'plain-retry', turns('plain')));
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await sendRaw(fx.server.port, append(sessionId, 'plain-retry', turns('plain')));
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(JSON.parse(again.text)).toEqual(JSON.parse(first.text));
    expect((await fx.memory.messages(sessionId)).map((m) => m.id)).toEqual(idsOf(first.text));
  });

  it('stores once when the first attempt was cut after the write and is retried on a new connection', async () => {
    const sessionId = await newSession();
    const cut = await sendAndHangUp(fx.server.port, append(sessionId, 'cut-after-write', turns('cut')));
    expect(cut.answered).toBe(false);
    await vi.waitFor(async () => expect(await fx.memory.messages(sessionId)).toHaveLength(2), { timeout: 10_000, interval: 20 });
    const retry = await sendRaw(fx.server.port, append(sessionId, 'cut-after-write', turns('cut')));
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const stored = await fx.memory.messages(sessionId);
    expect(stored.map((m) => m.content)).toEqual(['cut: first turn', 'cut: second turn']);
    expect(idsOf(retry.text)).toEqual(stored.map((m) => m.id));
  });

  it('treats the same key on another session as another append', async () => {
    const [one, two] = [await newSession(), await newSession()];
    const first = await sendRaw(fx.server.port, append(one, 'shared-key', turns('shared')));
    const second = await sendRaw(fx.server.port, append(two, 'shared-key', turns('shared')));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(idsOf(second.text)).toEqual((await fx.memory.messages(two)).map((m) => m.id));
    expect(idsOf(second.text)).not.toEqual(idsOf(first.text));
    expect(await fx.memory.messages(one)).toHaveLength(2);
  });

  it('stores once when two requests with the same key arrive at once', async () => {
    const sessionId = await newSession();
    const answers = await Promise.all([0, 1, 2].map(() => sendRaw(fx.server.port, append(sessionId, 'concurrent', turns('concurrent')))));
    const stored = await fx.memory.messages(sessionId);
    expect(stored.map((m) => m.content)).toEqual(['concurrent: first turn', 'concurrent: second turn']);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const answer of answers) {
      // a duplicate still in flight may be refused (409) or wait for the first and replay it (200)
      if (answer.status === 409) expectProblem(answer, 409, 'CONFLICT');
      else expect(idsOf(answer.text)).toEqual(stored.map((m) => m.id));
    }
  });

  it('answers 409 to the same key with another body, and stores nothing more', async () => {
    const sessionId = await newSession();
    expect((await sendRaw(fx.server.port, append(sessionId, 'changed-body', turns('original')))).status).toBe(201);
    const changed = await sendRaw(fx.server.port, append(sessionId, 'changed-body', turns('changed')));
    expectProblem(changed, 409, 'CONFLICT');
    expect((await fx.memory.messages(sessionId)).map((m) => m.content)).toEqual(['original: first turn', 'original: second turn']);
  });

  it("never replays another tenant's append: the same key and body on acme's session from globex is 404", async () => {
    const sessionId = await newSession();
    const first = await sendRaw(fx.server.port, append(sessionId, 'cross-tenant', turns('cross')));
    expect(first.status).toBe(201);
    const foreign = await sendRaw(fx.server.port, append(sessionId, 'cross-tenant', turns('cross'), fx.keys.globexAdmin));
    expectProblem(foreign, 404, 'NOT_FOUND');
    for (const id of idsOf(first.text)) expect(foreign.text).not.toContain(id);
    expect(foreign.text).not.toContain('cross: first turn');
  });

  it('rejects an Idempotency-Key of more than 200 characters with 400, and stores nothing', async () => {
    const sessionId = await newSession();
    expectProblem(await sendRaw(fx.server.port, append(sessionId, 'k'.repeat(201), turns('long key'))), 400, 'INVALID_INPUT');
    expect(await fx.memory.messages(sessionId)).toEqual([]);
  });
});

import type { Memory } from '@strata/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStrataServer } from '../src/index.js';
import { call, createTestMemory, TestKeyStore } from './test-memory.js';

/** Every route of the API, by path (OpenAPI form) and methods. */
const ROUTES: Record<string, string[]> = {
  '/v1/sessions': ['get', 'post'],
  '/v1/sessions/{id}': ['delete', 'get', 'patch'],
  '/v1/sessions/{id}/messages': ['get', 'post'],
  '/v1/sessions/{id}/messages/{messageId}': ['delete'],
  '/v1/sessions/{id}/context': ['post'],
  '/v1/sessions/{id}/export': ['get'],
  '/v1/search': ['post'],
  '/v1/facts': ['get'],
  '/v1/facts/{factId}': ['delete'],
  '/v1/forget': ['post'],
  '/v1/import': ['post'],
  '/v1/flush': ['post'],
  '/v1/status': ['get'],
  '/v1/usage': ['get'],
  '/healthz': ['get'],
  '/readyz': ['get'],
  '/metrics': ['get'],
  '/mcp': ['post'],
};

interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; schema: Record<string, unknown> }[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }>; securitySchemes: Record<string, unknown> };
}

let memory: Memory;
let app: ReturnType<typeof createStrataServer>;
let doc: Document;
let auth: string;

beforeAll(async () => {
  memory = await createTestMemory();
  const keys = new TestKeyStore();
  app = createStrataServer({ memory, auth: { keys }, limits: { rateLimit: false } });
  auth = await keys.bearer('acme', ['read', 'write']);
  const answer = await call(app, 'GET', '/openapi.json');
  expect(answer.status).toBe(200);
  doc = answer.data;
});

afterAll(async () => {
  await memory.close();
});

const parameter = (path: string, method: string, name: string) => doc.paths[path]?.[method]?.parameters?.find((p) => p.name === name)?.schema ?? {};

describe('the OpenAPI document at /openapi.json', () => {
  it('is OpenAPI 3.1, served without a key, with every route of the API', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const found = Object.fromEntries(Object.entries(doc.paths).map(([path, item]) => [path, Object.keys(item).sort()]));
    expect(found).toEqual(ROUTES);
  });

  it('puts every keyed route under the bearer scheme and describes its failures as problem documents', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, methods] of Object.entries(ROUTES)) {
      for (const method of methods) {
        const operation = doc.paths[path]![method]!;
        const keyed = !['/healthz', '/readyz'].includes(path);
        expect(operation.security ?? [], `${method} ${path}`).toEqual(keyed ? [{ bearer: [] }] : []);
        if (path.startsWith('/v1/')) expect(Object.keys(operation.responses['404']?.content ?? {}), `${method} ${path}`).toEqual(['application/problem+json']);
      }
    }
  });

  it('states the bounds that validation enforces: a request at the bound passes, one past it is refused', async () => {
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    const limit = parameter('/v1/sessions', 'get', 'limit');
    expect((await call(app, 'GET', `/v1/sessions?limit=${limit.maximum}`, { auth })).status).toBe(200);
    expect((await call(app, 'GET', `/v1/sessions?limit=${Number(limit.maximum) + 1}`, { auth })).data.detail).toMatch(/query is invalid: limit/);
    const keyLength = Number(parameter('/v1/sessions/{id}/messages', 'post', 'idempotency-key').maxLength);
    const append = (key: string, messages: unknown[]) => call(app, 'POST', `/v1/sessions/${id}/messages`, { auth, json: { messages }, headers: { 'idempotency-key': key } });
    expect((await append('k'.repeat(keyLength + 1), [{ role: 'user', content: 'hi' }])).data.detail).toMatch(/header is invalid: idempotency-key/);
    const maxMessages = Number(doc.components.schemas.AppendRequest?.properties?.messages?.maxItems);
    const many = Array.from({ length: maxMessages + 1 }, (_, i) => ({ role: 'user', content: `turn ${i}` }));
    expect((await append('too-many', many)).data.detail).toMatch(/body is invalid: messages: /);
    expect((await append('at-the-bound', many.slice(1))).status).toBe(201);
  });

  it('lists the roles validation accepts, and no other', async () => {
    const { id } = await memory.sessions.create({ namespace: 'acme' });
    const roles = doc.components.schemas.MessageInput?.properties?.role?.enum as string[];
    expect(roles).toEqual(['user', 'assistant', 'system', 'tool']);
    const send = (role: string) => call(app, 'POST', `/v1/sessions/${id}/messages`, { auth, json: { messages: [{ role, content: 'x', ...(role === 'tool' ? { toolCallId: 'call_1' } : {}) }] } });
    for (const role of roles) expect((await send(role)).status, role).toBe(201);
    expect((await send('robot')).data.detail).toMatch(/messages\[0\]\.role/);
  });
});

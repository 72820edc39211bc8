import { createRoute } from '@hono/zod-openapi';
import { namespaceOf, requireScope, sessionInReach } from '../http/access.js';
import { jsonBody, sentBody } from '../http/json-body.js';
import { ForgetReportSchema, SessionParams } from '../schemas/common.js';
import { problemResponses } from '../schemas/problem.js';
import { SessionCreateSchema, SessionListQuery, SessionPageSchema, SessionRenameSchema, SessionSchema } from '../schemas/session.js';
import { BEARER, jsonAnswer, jsonRequest, type RouteDeps } from './route-deps.js';
import { decodeCursor, sessionPage } from './session-pages.js';

const tags = ['sessions'];

const create = createRoute({
  method: 'post',
  path: '/v1/sessions',
  tags,
  summary: 'Create a session (scope write)',
  security: BEARER,
  middleware: [jsonBody()] as const,
  request: { body: jsonRequest(SessionCreateSchema) },
  responses: { 201: jsonAnswer(SessionSchema, 'The new session'), ...problemResponses },
});

const list = createRoute({
  method: 'get',
  path: '/v1/sessions',
  tags,
  summary: 'List sessions, most recently updated first (scope read)',
  security: BEARER,
  request: { query: SessionListQuery },
  responses: { 200: jsonAnswer(SessionPageSchema, 'One page of sessions'), ...problemResponses },
});

const get = createRoute({
  method: 'get',
  path: '/v1/sessions/{id}',
  tags,
  summary: 'Get a session (scope read)',
  security: BEARER,
  request: { params: SessionParams },
  responses: { 200: jsonAnswer(SessionSchema, 'The session'), ...problemResponses },
});

const rename = createRoute({
  method: 'patch',
  path: '/v1/sessions/{id}',
  tags,
  summary: 'Rename a session (scope write)',
  security: BEARER,
  middleware: [jsonBody()] as const,
  request: { params: SessionParams, body: jsonRequest(SessionRenameSchema) },
  responses: { 200: jsonAnswer(SessionSchema, 'The renamed session'), ...problemResponses },
});

const remove = createRoute({
  method: 'delete',
  path: '/v1/sessions/{id}',
  tags,
  summary: 'Forget a session and everything derived from it (scope forget)',
  security: BEARER,
  request: { params: SessionParams },
  responses: { 200: jsonAnswer(ForgetReportSchema, 'What was forgotten'), ...problemResponses },
});

/** POST, GET /v1/sessions and GET, PATCH, DELETE /v1/sessions/{id}. */
export function addSessionRoutes({ app, memory }: RouteDeps): void {
  app.openapi(create, async (c) => {
    const input = sentBody(c, c.req.valid('json'));
    const namespace = namespaceOf(c.var.caller, input.namespace);
    requireScope(c.var.caller, 'write');
    return c.json(await memory.sessions.create({ ...input, namespace: namespace as string }), 201);
  });
  app.openapi(list, async (c) => {
    const query = c.req.valid('query');
    const namespace = namespaceOf(c.var.caller, query.namespace);
    requireScope(c.var.caller, 'read');
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    return c.json(await sessionPage(memory, { namespace, limit: query.limit ?? 50, ...(cursor ? { cursor } : {}) }), 200);
  });
  app.openapi(get, async (c) => c.json(await sessionInReach(memory, c.var.caller, c.req.valid('param').id, 'read'), 200));
  app.openapi(rename, async (c) => {
    const { id } = c.req.valid('param');
    await sessionInReach(memory, c.var.caller, id, 'write');
    return c.json(await memory.sessions.rename(id, sentBody(c, c.req.valid('json')).title), 200);
  });
  app.openapi(remove, async (c) => {
    const { id } = c.req.valid('param');
    await sessionInReach(memory, c.var.caller, id, 'forget');
    return c.json(await memory.sessions.delete(id), 200);
  });
}

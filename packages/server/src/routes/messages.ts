import { createRoute } from '@hono/zod-openapi';
import type { MessageInput } from '@strata/core';
import { idsNotFound, sessionInReach } from '../http/access.js';
import { jsonBody, sentBody } from '../http/json-body.js';
import { ForgetReportSchema, SessionParams } from '../schemas/common.js';
import { AppendHeaders, AppendResultSchema, AppendSchema, MessageListQuery, MessagePageSchema, MessageParams } from '../schemas/message.js';
import { problemResponses } from '../schemas/problem.js';
import { appendOnce } from './idempotent-append.js';
import { BEARER, jsonAnswer, jsonRequest, type RouteDeps } from './route-deps.js';

const tags = ['messages'];

const append = createRoute({
  method: 'post',
  path: '/v1/sessions/{id}/messages',
  tags,
  summary: 'Append messages, all or nothing (scope write)',
  description: 'With an Idempotency-Key, a repeat of the same request stores nothing more and answers 200 with what the first stored, and `Idempotent-Replayed: true`.',
  security: BEARER,
  middleware: [jsonBody()] as const,
  request: { params: SessionParams, headers: AppendHeaders, body: jsonRequest(AppendSchema) },
  responses: {
    201: jsonAnswer(AppendResultSchema, 'The stored messages, with their seq'),
    200: { ...jsonAnswer(AppendResultSchema, 'A replay: what the first request with this Idempotency-Key stored'), headers: { 'Idempotent-Replayed': { schema: { type: 'string', enum: ['true'] } } } },
    ...problemResponses,
  },
});

const list = createRoute({
  method: 'get',
  path: '/v1/sessions/{id}/messages',
  tags,
  summary: 'Read a session’s messages by seq, oldest first (scope read)',
  security: BEARER,
  request: { params: SessionParams, query: MessageListQuery },
  responses: { 200: jsonAnswer(MessagePageSchema, 'One page of messages'), ...problemResponses },
});

const remove = createRoute({
  method: 'delete',
  path: '/v1/sessions/{id}/messages/{messageId}',
  tags,
  summary: 'Forget one message and what was derived from it (scope forget)',
  security: BEARER,
  request: { params: MessageParams },
  responses: { 200: jsonAnswer(ForgetReportSchema, 'What was forgotten'), ...problemResponses },
});

/** POST, GET /v1/sessions/{id}/messages and DELETE /v1/sessions/{id}/messages/{messageId}. */
export function addMessageRoutes({ app, memory }: RouteDeps): void {
  app.openapi(append, async (c) => {
    const { id } = c.req.valid('param');
    await sessionInReach(memory, c.var.caller, id, 'write');
    const { messages } = sentBody(c, c.req.valid('json'));
    const outcome = await appendOnce(memory, c.var.caller.keyId, id, messages as MessageInput[], c.req.valid('header')['idempotency-key']);
    if (outcome.replayed) return c.json({ messages: outcome.messages }, 200, { 'Idempotent-Replayed': 'true' });
    return c.json({ messages: outcome.messages }, 201);
  });
  app.openapi(list, async (c) => {
    const { id } = c.req.valid('param');
    const session = await sessionInReach(memory, c.var.caller, id, 'read');
    const { fromSeq = 1, limit = 100 } = c.req.valid('query');
    const toSeq = Math.min(Number.MAX_SAFE_INTEGER, fromSeq + limit - 1);
    const messages = await memory.messages(id, { fromSeq, toSeq });
    return c.json({ messages, nextCursor: toSeq < session.lastSeq ? toSeq + 1 : null }, 200);
  });
  app.openapi(remove, async (c) => {
    const { id, messageId } = c.req.valid('param');
    const session = await sessionInReach(memory, c.var.caller, id, 'forget');
    // the memory forgets by id within a namespace; the path names the session too
    if (!(await memory.messages(id)).some((m) => m.id === messageId)) throw idsNotFound('message', [messageId]);
    return c.json(await memory.forget({ messageIds: [messageId], namespace: session.namespace }), 200);
  });
}

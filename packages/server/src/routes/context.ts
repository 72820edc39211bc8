import { createRoute } from '@hono/zod-openapi';
import { sessionInReach } from '../http/access.js';
import { jsonBody, sentBody } from '../http/json-body.js';
import { SessionParams } from '../schemas/common.js';
import { ContextRequestSchema, ContextResultSchema } from '../schemas/context.js';
import { problemResponses } from '../schemas/problem.js';
import { BEARER, jsonAnswer, jsonRequest, type RouteDeps } from './route-deps.js';

const context = createRoute({
  method: 'post',
  path: '/v1/sessions/{id}/context',
  tags: ['context'],
  summary: 'The context for the next model call, within a token budget (scope read)',
  security: BEARER,
  middleware: [jsonBody({ empty: {} })] as const,
  request: { params: SessionParams, body: jsonRequest(ContextRequestSchema) },
  responses: { 200: jsonAnswer(ContextResultSchema, 'Messages, manifest and pending derivation'), ...problemResponses },
});

/** POST /v1/sessions/{id}/context. */
export function addContextRoutes({ app, memory }: RouteDeps): void {
  app.openapi(context, async (c) => {
    const { id } = c.req.valid('param');
    await sessionInReach(memory, c.var.caller, id, 'read');
    return c.json(await memory.getContext(id, sentBody(c, c.req.valid('json'))), 200);
  });
}

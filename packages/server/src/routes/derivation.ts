import { createRoute } from '@hono/zod-openapi';
import { namespaceOf, pendingInReach, requireScope } from '../http/access.js';
import { jsonBody } from '../http/json-body.js';
import { FlushReportSchema, FlushRequestSchema, StatusQuery, StatusSchema } from '../schemas/derivation.js';
import { problemResponses } from '../schemas/problem.js';
import { BEARER, jsonAnswer, jsonRequest, type RouteDeps } from './route-deps.js';

const tags = ['derivation'];

const flush = createRoute({
  method: 'post',
  path: '/v1/flush',
  tags,
  summary: 'Wait until derivation enqueued so far has been applied (scope write)',
  security: BEARER,
  middleware: [jsonBody({ empty: {} })] as const,
  request: { body: jsonRequest(FlushRequestSchema) },
  responses: { 200: jsonAnswer(FlushReportSchema, 'What is left, in the key’s reach'), ...problemResponses },
});

const status = createRoute({
  method: 'get',
  path: '/v1/status',
  tags,
  summary: 'Derivation not yet applied, and the memory’s counters (scope read)',
  security: BEARER,
  request: { query: StatusQuery },
  responses: { 200: jsonAnswer(StatusSchema, 'Pending jobs in the key’s reach'), ...problemResponses },
});

/** POST /v1/flush and GET /v1/status: pending jobs are only those of sessions in the key's reach. */
export function addDerivationRoutes({ app, memory }: RouteDeps): void {
  app.openapi(flush, async (c) => {
    c.req.valid('json');
    requireScope(c.var.caller, 'write');
    const report = await memory.flush();
    return c.json({ settled: report.settled, pending: await pendingInReach(memory, c.var.caller, report.pending) }, 200);
  });
  app.openapi(status, async (c) => {
    const given = c.req.valid('query').namespace;
    const namespace = given === undefined ? undefined : namespaceOf(c.var.caller, given);
    requireScope(c.var.caller, 'read');
    return c.json({ pending: await pendingInReach(memory, c.var.caller, await memory.pending(), namespace), stats: memory.stats() }, 200);
  });
}

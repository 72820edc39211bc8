import { createRoute } from '@hono/zod-openapi';
import { derivationInReach, namespaceOf, pendingInReach, requireScope } from '../http/access.js';
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
  description:
    'Answers the jobs left (failed for good, or still queued when it gave up) of sessions in the key’s reach, and what the memory counted while it ran: those counters are of every namespace, except `byNamespace`, which lists only the namespaces in the key’s reach.',
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
  description:
    'Pending jobs of sessions in the key’s reach (of `namespace`, when given). The counters are the memory’s since the process started, of every namespace, except `stats.derivation.byNamespace`, which lists only the namespaces in the key’s reach (only `namespace`, when given).',
  security: BEARER,
  request: { query: StatusQuery },
  responses: { 200: jsonAnswer(StatusSchema, 'Pending jobs in the key’s reach'), ...problemResponses },
});

/** POST /v1/flush and GET /v1/status: pending jobs, and token usage by namespace, are only those in the key's reach. */
export function addDerivationRoutes({ app, memory }: RouteDeps): void {
  app.openapi(flush, async (c) => {
    c.req.valid('json');
    requireScope(c.var.caller, 'write');
    const report = await memory.flush();
    const pending = await pendingInReach(memory, c.var.caller, report.pending);
    return c.json({ settled: report.settled, pending, derivation: derivationInReach(report.derivation, c.var.caller) }, 200);
  });
  app.openapi(status, async (c) => {
    const given = c.req.valid('query').namespace;
    const namespace = given === undefined ? undefined : namespaceOf(c.var.caller, given);
    requireScope(c.var.caller, 'read');
    const pending = await pendingInReach(memory, c.var.caller, await memory.pending(), namespace);
    return c.json({ pending, stats: { derivation: derivationInReach(memory.stats().derivation, c.var.caller, namespace) } }, 200);
  });
}

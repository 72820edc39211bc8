import { createRoute } from '@hono/zod-openapi';
import { namespaceOf, requireScope } from '../http/access.js';
import { problemResponses } from '../schemas/problem.js';
import { UsageQuery, UsageReportSchema } from '../schemas/usage.js';
import { BEARER, jsonAnswer, type RouteDeps } from './route-deps.js';

const usage = createRoute({
  method: 'get',
  path: '/v1/usage',
  tags: ['derivation'],
  summary: 'Token usage of the jobs applied to a namespace, or to one of its sessions (scope read)',
  description:
    'Summed from the job ledger: it counts every process that derived for the namespace and survives restarts, for as long as the sessions are kept. A `sessionId` that is not a session of the namespace is 404, as a missing one is.',
  security: BEARER,
  request: { query: UsageQuery },
  responses: { 200: jsonAnswer(UsageReportSchema, 'In total, by job type, by model and by session'), ...problemResponses },
});

/** GET /v1/usage: the memory checks that the session is of the namespace, so one in reach is all the key can reach. */
export function addUsageRoutes({ app, memory }: RouteDeps): void {
  app.openapi(usage, async (c) => {
    const query = c.req.valid('query');
    const namespace = namespaceOf(c.var.caller, query.namespace);
    requireScope(c.var.caller, 'read');
    const filter = { namespace: namespace as string, ...(query.sessionId === undefined ? {} : { sessionId: query.sessionId }) };
    return c.json(await memory.usage(filter), 200);
  });
}

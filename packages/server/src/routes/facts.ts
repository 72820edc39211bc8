import { createRoute } from '@hono/zod-openapi';
import { namespaceOf, requireScope } from '../http/access.js';
import { ForgetReportSchema } from '../schemas/common.js';
import { FactForgetQuery, FactListQuery, FactListSchema, FactParams } from '../schemas/fact.js';
import { problemResponses } from '../schemas/problem.js';
import { forgetIds } from './forget-ids.js';
import { BEARER, jsonAnswer, type RouteDeps } from './route-deps.js';

const tags = ['facts'];

const list = createRoute({
  method: 'get',
  path: '/v1/facts',
  tags,
  summary: 'The facts of a namespace, oldest first (scope read)',
  security: BEARER,
  request: { query: FactListQuery },
  responses: { 200: jsonAnswer(FactListSchema, 'Current facts (and superseded ones with history=true)'), ...problemResponses },
});

const remove = createRoute({
  method: 'delete',
  path: '/v1/facts/{factId}',
  tags,
  summary: 'Forget a fact (scope forget)',
  security: BEARER,
  request: { params: FactParams, query: FactForgetQuery },
  responses: { 200: jsonAnswer(ForgetReportSchema, 'What was forgotten'), ...problemResponses },
});

/** GET /v1/facts and DELETE /v1/facts/{factId}. */
export function addFactRoutes({ app, memory }: RouteDeps): void {
  app.openapi(list, async (c) => {
    const query = c.req.valid('query');
    const namespace = namespaceOf(c.var.caller, query.namespace);
    requireScope(c.var.caller, 'read');
    return c.json({ facts: await memory.facts.list({ namespace: namespace as string, includeSuperseded: query.history === 'true' }) }, 200);
  });
  app.openapi(remove, async (c) => c.json(await forgetIds(memory, c.var.caller, 'fact', [c.req.valid('param').factId], c.req.valid('query').namespace), 200));
}

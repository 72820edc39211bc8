import { createRoute } from '@hono/zod-openapi';
import { namespaceOf, requireScope } from '../http/access.js';
import { jsonBody, sentBody } from '../http/json-body.js';
import { problemResponses } from '../schemas/problem.js';
import { SearchRequestSchema, SearchResultSchema } from '../schemas/search.js';
import { BEARER, jsonAnswer, jsonRequest, type RouteDeps } from './route-deps.js';

const search = createRoute({
  method: 'post',
  path: '/v1/search',
  tags: ['search'],
  summary: 'Hybrid search over a namespace’s turns, summaries and facts (scope read)',
  security: BEARER,
  middleware: [jsonBody()] as const,
  request: { body: jsonRequest(SearchRequestSchema) },
  responses: { 200: jsonAnswer(SearchResultSchema, 'Hits, best first'), ...problemResponses },
});

/** POST /v1/search. */
export function addSearchRoutes({ app, memory }: RouteDeps): void {
  app.openapi(search, async (c) => {
    const request = sentBody(c, c.req.valid('json'));
    const namespace = namespaceOf(c.var.caller, request.namespace);
    requireScope(c.var.caller, 'read');
    return c.json({ hits: await memory.search({ ...request, namespace: namespace as string }) }, 200);
  });
}

import { createRoute, z } from '@hono/zod-openapi';
import { requireScope } from '../http/access.js';
import type { ServerMetrics } from '../http/metrics.js';
import { problem, problemResponse } from '../http/problem.js';
import { HealthSchema, ReadySchema } from '../schemas/health.js';
import { problemResponses } from '../schemas/problem.js';
import { BEARER, jsonAnswer, type RouteDeps } from './route-deps.js';

const tags = ['operations'];

const healthz = createRoute({ method: 'get', path: '/healthz', tags, summary: 'The process answers (no key)', responses: { 200: jsonAnswer(HealthSchema, 'Alive') } });

const readyz = createRoute({
  method: 'get',
  path: '/readyz',
  tags,
  summary: 'The memory answers (no key)',
  responses: { 200: jsonAnswer(ReadySchema, 'Ready'), 503: problemResponses[503] },
});

const metricsRoute = createRoute({
  method: 'get',
  path: '/metrics',
  tags,
  summary: 'Prometheus metrics (scope admin)',
  description:
    'Requests, the derivation backlog and the token counters of the memory since the process started, of every namespace, except strata_model_tokens_by_namespace_total, which lists only the namespaces in the key’s reach.',
  security: BEARER,
  responses: { 200: { description: 'Prometheus text exposition', content: { 'text/plain': { schema: z.string() } } }, ...problemResponses },
});

/** GET /healthz, /readyz (`ready` rejecting is 503 with Retry-After) and /metrics. */
export function addHealthRoutes({ app }: RouteDeps, ready: () => Promise<void>, metrics: ServerMetrics): void {
  app.openapi(healthz, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(readyz, async (c) => {
    try {
      await ready();
    } catch {
      // a probe that fails is an answer, not a server error: nothing to log for each probe
      const doc = problem('BACKEND_UNAVAILABLE', 'the memory is not ready', 'Retry later; check that the memory’s store is running and reachable.');
      return problemResponse({ problem: doc, headers: { 'retry-after': '5' } }) as never;
    }
    return c.json({ status: 'ready' as const }, 200);
  });
  app.openapi(metricsRoute, async (c) => {
    requireScope(c.var.caller, 'admin');
    return c.body(await metrics.scrape(c.var.caller), 200, { 'content-type': metrics.registry.contentType }) as never;
  });
}

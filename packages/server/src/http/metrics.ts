import type { MemoryApi } from '@strata/core';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { derivationInReach } from './access.js';
import type { Caller } from './caller.js';
import { namespaceTokenMetrics, registerTokenMetrics } from './token-metrics.js';

/** The Prometheus metrics of one server: its own registry, the middleware that counts requests, and a scrape as one caller may see it. */
export interface ServerMetrics {
  registry: Registry;
  middleware: MiddlewareHandler;
  /** The exposition text of every metric, with token usage by namespace only for the namespaces in the caller's reach. */
  scrape(caller: Caller): Promise<string>;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route pattern that answered (`/v1/sessions/:id`), or `unmatched`: ids never become labels. */
function routeOf(c: Context): string {
  const handlers = matchedRoutes(c).filter((route) => !route.path.endsWith('*'));
  return handlers.at(-1)?.path ?? 'unmatched';
}

/**
 * strata_http_requests_total{method,route,status}, strata_http_request_duration_seconds{method,route},
 * strata_derivation_backlog (jobs `memory.pending()` lists, read at each scrape) and the token
 * counters of `memory.stats()` (see token-metrics.ts), in a registry of this server's own, so
 * that two servers in one process count apart.
 */
export function createServerMetrics(memory: MemoryApi): ServerMetrics {
  const registry = new Registry();
  const requests = new Counter({ name: 'strata_http_requests_total', help: 'HTTP requests answered, by method, route and status.', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({
    name: 'strata_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route.',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  new Gauge({
    name: 'strata_derivation_backlog',
    help: 'Derivation jobs queued, running or failed (memory.pending()).',
    registers: [registry],
    async collect() {
      this.set((await memory.pending()).length);
    },
  });
  registerTokenMetrics(registry, memory);
  const middleware: MiddlewareHandler = async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const method = METHODS.has(c.req.method) ? c.req.method : 'OTHER';
      const route = routeOf(c);
      requests.inc({ method, route, status: String(c.res.status) });
      duration.observe({ method, route }, (performance.now() - started) / 1000);
    }
  };
  const scrape = (caller: Caller) => {
    const { byNamespace } = derivationInReach(memory.stats().derivation, caller);
    return Registry.merge([registry, namespaceTokenMetrics(byNamespace)]).metrics();
  };
  return { registry, middleware, scrape };
}

import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { authenticate } from './http/authenticate.js';
import { limitBody } from './http/body-limit.js';
import type { ServerEnv } from './http/caller.js';
import { createServerMetrics } from './http/metrics.js';
import { problem, problemOf, problemResponse } from './http/problem.js';
import { rateLimit } from './http/rate-limit.js';
import { requestTimeout } from './http/request-timeout.js';
import { type ResolvedServerOptions, resolveServerOptions, type StrataServerOptions } from './http/server-options.js';
import { validationHook } from './http/validation-hook.js';
import { addContextRoutes } from './routes/context.js';
import { addDerivationRoutes } from './routes/derivation.js';
import { addFactRoutes } from './routes/facts.js';
import { addForgetRoutes } from './routes/forget.js';
import { addHealthRoutes } from './routes/health.js';
import { addMcpRoute } from './routes/mcp.js';
import { addMessageRoutes } from './routes/messages.js';
import { addSearchRoutes } from './routes/search.js';
import { addSessionRoutes } from './routes/sessions.js';
import { addTransferRoutes } from './routes/transfer.js';
import { addUsageRoutes } from './routes/usage.js';

/** The paths that take a key; /healthz, /readyz and /openapi.json do not. */
const KEYED_PATHS = ['/v1/*', '/metrics', '/mcp'];

/** Problem answers, 404 and 405 included, and the middleware every request goes through, outermost first. */
function addHttpLayer(app: OpenAPIHono<ServerEnv>, options: ResolvedServerOptions, metrics: MiddlewareHandler): void {
  app.onError((error, c) => {
    const answer = problemOf(error);
    if (answer.problem.status >= 500) options.onError(error, c.req.raw);
    return problemResponse(answer);
  });
  app.notFound((c) =>
    problemResponse({ problem: problem('NOT_FOUND', `no route for ${c.req.method} ${c.req.path.slice(0, 200)}`, 'See the routes in the OpenAPI document (/openapi.json).'), headers: {} }),
  );
  app.use('*', metrics);
  const notAllowed = (c: { req: { method: string } }, methods: string[]) =>
    problemResponse({ problem: problem('INVALID_INPUT', `${c.req.method} is not allowed here`, `Use ${methods.join(', ')}.`, 405), headers: { allow: methods.join(', ') } });
  app.use('*', methodNotAllowed({ app, onMethodNotAllowed: notAllowed }));
  if (options.corsOrigins.length) {
    const exposeHeaders = ['Idempotent-Replayed', 'Retry-After', 'WWW-Authenticate'];
    app.use(
      '*',
      cors({ origin: options.corsOrigins, allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'], exposeHeaders, allowMethods: ['GET', 'POST', 'PATCH', 'DELETE'], maxAge: 600 }),
    );
  }
  app.use('*', requestTimeout(options.requestTimeoutMs));
  const tooLarge = `the request body is larger than ${options.bodyBytes} bytes (limits.bodyBytes)`;
  // the rest of the body is not read: the connection closes rather than carry it into the next request
  const refuse = () => problemResponse({ problem: problem('INVALID_INPUT', tooLarge, 'Send a smaller body, e.g. append in several calls.', 413), headers: { connection: 'close' } });
  app.use('*', limitBody(options.bodyBytes, refuse));
  const limiter = options.rateLimit === false ? undefined : rateLimit(options.rateLimit);
  for (const path of KEYED_PATHS) {
    app.use(path, authenticate(options.keys));
    if (limiter) app.use(path, limiter);
  }
}

/**
 * The strata HTTP API over a memory: /v1 routes validated by the zod schemas that also make
 * the OpenAPI 3.1 document (/openapi.json), API keys bound to namespaces, problem+json errors,
 * /healthz, /readyz, /metrics and MCP at /mcp. The app can be served alone or mounted in
 * another Hono app. It does not close the memory.
 * @throws StrataError CONFIG_INVALID for bad options.
 * @example
 * const memory = await createMemory({ store: 'sqlite:./strata.db' });
 * const app = createStrataServer({ memory, auth: { keys: await createFileKeyStore({ path: './keys.json' }) } });
 * const server = await startStrataServer({ app, host: '127.0.0.1', port: 8787, onClose: () => memory.close() });
 * // or mounted: parent.route('/memory', app)
 */
export function createStrataServer(options: StrataServerOptions): OpenAPIHono<ServerEnv> {
  const resolved = resolveServerOptions(options);
  const { memory } = resolved;
  const app = new OpenAPIHono<ServerEnv>({ defaultHook: validationHook });
  const metrics = createServerMetrics(memory);
  addHttpLayer(app, resolved, metrics.middleware);
  const deps = { app, memory };
  addHealthRoutes(deps, resolved.ready, metrics);
  addSessionRoutes(deps);
  addMessageRoutes(deps);
  addContextRoutes(deps);
  addTransferRoutes(deps);
  addSearchRoutes(deps);
  addFactRoutes(deps);
  addForgetRoutes(deps);
  addDerivationRoutes(deps);
  addUsageRoutes(deps);
  addMcpRoute(deps, resolved.onError);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'An API key secret (sk_strata_…) from `strata keys create`.' });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'strata', version: '1.0.0', description: 'Memory for LLM apps: sessions, messages, context, search, facts. Errors are application/problem+json (RFC 9457).' },
  });
  return app;
}

import { createRoute } from '@hono/zod-openapi';
import { namespaceOf, requireScope, sessionInReach } from '../http/access.js';
import { jsonBody, sentBody } from '../http/json-body.js';
import { ForgetReportSchema } from '../schemas/common.js';
import { ForgetRequestSchema } from '../schemas/forget.js';
import { problemResponses } from '../schemas/problem.js';
import { forgetIds } from './forget-ids.js';
import { BEARER, jsonAnswer, jsonRequest, type RouteDeps } from './route-deps.js';

const forget = createRoute({
  method: 'post',
  path: '/v1/forget',
  tags: ['forget'],
  summary: 'Forget messages, facts, a session (scope forget) or a whole namespace (scope admin)',
  security: BEARER,
  middleware: [jsonBody()] as const,
  request: { body: jsonRequest(ForgetRequestSchema) },
  responses: { 200: jsonAnswer(ForgetReportSchema, 'What was forgotten'), ...problemResponses },
});

/** POST /v1/forget. */
export function addForgetRoutes({ app, memory }: RouteDeps): void {
  app.openapi(forget, async (c) => {
    const target = sentBody(c, c.req.valid('json'));
    const { caller } = c.var;
    if ('messageIds' in target) return c.json(await forgetIds(memory, caller, 'message', target.messageIds, target.namespace), 200);
    if ('factIds' in target) return c.json(await forgetIds(memory, caller, 'fact', target.factIds, target.namespace), 200);
    if ('sessionId' in target) {
      await sessionInReach(memory, caller, target.sessionId, 'forget');
      return c.json(await memory.forget({ sessionId: target.sessionId }), 200);
    }
    const namespace = namespaceOf(caller, target.namespace) as string;
    requireScope(caller, 'admin');
    return c.json(await memory.forget({ namespace }), 200);
  });
}

import { z } from '@hono/zod-openapi';

/** GET /healthz: the process answers. */
export const HealthSchema = z.object({ status: z.literal('ok') }).openapi('Health');

/** GET /readyz: the memory answers. */
export const ReadySchema = z.object({ status: z.literal('ready') }).openapi('Ready');

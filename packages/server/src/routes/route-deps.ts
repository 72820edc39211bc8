import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { MemoryApi } from '@strata/core';
import type { ServerEnv } from '../http/caller.js';

/** The app the route files add their routes to, and the memory they answer from. */
export interface RouteDeps {
  app: OpenAPIHono<ServerEnv>;
  memory: MemoryApi;
}

/** Every /v1 route takes the Bearer key (the `bearer` security scheme). */
export const BEARER = [{ bearer: [] }];

/** A JSON answer of `schema`, for a route's `responses`. */
export const jsonAnswer = <S extends z.ZodType>(schema: S, description: string) => ({ description, content: { 'application/json': { schema } } });

/** A required JSON body of `schema`, for a route's `request.body`. */
export const jsonRequest = <S extends z.ZodType>(schema: S) => ({ required: true, content: { 'application/json': { schema } } });

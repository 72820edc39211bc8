import { z } from '@hono/zod-openapi';

/** The RFC 9457 problem document of every failed answer (`application/problem+json`). */
export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: 'urn:strata:problem:not-found' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(['INVALID_INPUT', 'CONFIG_INVALID', 'NOT_FOUND', 'CONFLICT', 'BACKEND_UNAVAILABLE', 'CLOSED', 'INTERNAL', 'UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMITED']),
    hint: z.string(),
    instance: z.string().optional(),
  })
  .openapi('Problem');

const problemContent = { 'application/problem+json': { schema: ProblemSchema } };

/** The problem answers every route may give, for its `responses`. */
export const problemResponses = {
  400: { description: 'Invalid input (validation failure, malformed JSON, wrong content type)', content: problemContent },
  401: { description: 'No key, or a bad or revoked one', content: problemContent },
  403: { description: 'The key lacks the scope', content: problemContent },
  404: { description: 'Not found, or not in the key’s reach', content: problemContent },
  409: { description: 'Conflict', content: problemContent },
  413: { description: 'Body too large', content: problemContent },
  429: { description: 'Rate limited (Retry-After)', content: problemContent },
  500: { description: 'Internal error', content: problemContent },
  503: { description: 'Backend unavailable (Retry-After)', content: problemContent },
} as const;

import { z } from '@hono/zod-openapi';
import { namespaceSchema } from './common.js';

/** POST /v1/search. */
export const SearchRequestSchema = z
  .object({
    namespace: namespaceSchema.optional(),
    query: z.string(),
    k: z.number().int().min(1).max(1000).optional().openapi({ description: 'Hits to return (default 10).' }),
    kinds: z
      .array(z.enum(['turn', 'summary', 'fact']))
      .min(1)
      .optional(),
    contextDepth: z.number().int().min(0).max(50).optional().openapi({ description: 'Turns of each turn hit’s thread path to return.' }),
    touch: z.boolean().optional(),
  })
  .openapi('SearchRequest');

const ThreadStepSchema = z.object({ id: z.string(), seq: z.number().int(), role: z.enum(['user', 'assistant', 'system', 'tool']), content: z.string(), createdAt: z.number() }).openapi('ThreadStep');

/** A search result, best first. */
export const SearchHitSchema = z
  .object({
    kind: z.enum(['turn', 'summary', 'fact']),
    id: z.string(),
    text: z.string(),
    score: z.number(),
    sessionId: z.string().nullable(),
    messageIds: z.array(z.string()),
    createdAt: z.number(),
    thread: z.array(ThreadStepSchema).optional(),
    via: z.string().optional().openapi({ description: 'What brought it in, when only a query expansion found it (a person the query names, a fact object, a name in a matching turn).' }),
  })
  .openapi('SearchHit');

/** The hits of a search. */
export const SearchResultSchema = z.object({ hits: z.array(SearchHitSchema) }).openapi('SearchResult');

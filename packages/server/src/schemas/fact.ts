import { z } from '@hono/zod-openapi';
import { flagSchema, idSchema, namespaceSchema } from './common.js';

/** A long-term fact of a namespace, with the messages that state it. */
export const FactSchema = z
  .object({
    id: z.string(),
    namespace: z.string(),
    subject: z.string(),
    predicate: z.string(),
    object: z.string(),
    text: z.string(),
    sourceMessageIds: z.array(z.string()),
    validFrom: z.number(),
    validTo: z.number().optional(),
    supersededBy: z.string().optional(),
    confidence: z.number(),
    createdAt: z.number(),
    degraded: z.boolean(),
  })
  .openapi('Fact');

/** GET /v1/facts query. */
export const FactListQuery = z.object({
  namespace: namespaceSchema.optional(),
  history: flagSchema.optional().openapi({ description: 'true: superseded facts too.' }),
});

/** The facts of a namespace. */
export const FactListSchema = z.object({ facts: z.array(FactSchema) }).openapi('FactList');

/** `{ factId }` in the path. */
export const FactParams = z.object({ factId: idSchema.openapi({ param: { name: 'factId', in: 'path' } }) });

/** DELETE /v1/facts/{factId} query. */
export const FactForgetQuery = z.object({ namespace: namespaceSchema.optional() });

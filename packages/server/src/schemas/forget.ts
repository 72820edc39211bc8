import { z } from '@hono/zod-openapi';
import { namespaceSchema } from './common.js';

const ids = z.array(z.string().min(1).max(1024)).min(1).max(100_000);

/** POST /v1/forget: exactly one target (a namespace-wide forget needs the admin scope). */
export const ForgetRequestSchema = z
  .union(
    [
      z.object({ messageIds: ids, namespace: namespaceSchema.optional() }).strict(),
      z.object({ factIds: ids, namespace: namespaceSchema.optional() }).strict(),
      z.object({ sessionId: z.string().min(1).max(1024) }).strict(),
      z.object({ namespace: namespaceSchema }).strict(),
    ],
    { error: 'pass exactly one of { messageIds, namespace? }, { factIds, namespace? }, { sessionId }, { namespace }' },
  )
  .openapi('ForgetRequest');

import { z } from '@hono/zod-openapi';
import { bodyIdSchema, metadataSchema, namespaceSchema } from './common.js';

/** A conversation of a namespace. */
export const SessionSchema = z
  .object({
    id: z.string(),
    namespace: z.string(),
    title: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()),
    createdAt: z.number().openapi({ description: 'Epoch ms.' }),
    updatedAt: z.number().openapi({ description: 'Epoch ms.' }),
    lastSeq: z.number().int().openapi({ description: 'Highest seq ever assigned in this session.' }),
  })
  .openapi('Session');

/** POST /v1/sessions. */
export const SessionCreateSchema = z
  .object({
    namespace: namespaceSchema.optional(),
    id: bodyIdSchema.optional().openapi({ description: 'Your own id; default a fresh `ses_…` id.' }),
    title: z.string().optional(),
    metadata: metadataSchema.optional(),
  })
  .openapi('SessionCreate');

/** PATCH /v1/sessions/{id}. */
export const SessionRenameSchema = z.object({ title: z.string() }).openapi('SessionRename');

/** GET /v1/sessions query. */
export const SessionListQuery = z.object({
  namespace: namespaceSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional().openapi({ description: 'Sessions per page (1..500).', example: 50 }),
  cursor: z.string().min(1).max(2048).optional().openapi({ description: 'The `nextCursor` of the previous page.' }),
});

/** One page of sessions, most recently updated first (ties by id). */
export const SessionPageSchema = z
  .object({
    sessions: z.array(SessionSchema),
    nextCursor: z.string().nullable().openapi({ description: 'Pass it as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('SessionPage');

import { z } from '@hono/zod-openapi';
import { bodyIdSchema, idSchema, metadataSchema } from './common.js';

const roleSchema = z.enum(['user', 'assistant', 'system', 'tool']);

/** A tool call an assistant message requests. */
export const ToolCallSchema = z.object({ id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) }).openapi('ToolCall');

/** A tool call as the app hands it in (`args` defaults to `{}`). */
const ToolCallInputSchema = z.object({ id: z.string(), name: z.string(), args: metadataSchema.optional() }).openapi('ToolCallInput');

/** A message as the app hands it in; the memory checks the rules (size, names, times). */
export const MessageInputSchema = z
  .object({
    role: roleSchema,
    content: z.string(),
    id: bodyIdSchema.optional().openapi({ description: 'Your own id; default derived from the Idempotency-Key, or a fresh `msg_…` id.' }),
    name: z.string().optional(),
    toolCalls: z.array(ToolCallInputSchema).optional(),
    toolCallId: z.string().optional(),
    createdAt: z.union([z.number(), z.string()]).optional().openapi({ description: 'Epoch ms or an ISO date; default now.' }),
    metadata: metadataSchema.optional(),
  })
  .openapi('MessageInput');

/** A stored message, verbatim, with its per-session seq. */
export const StoredMessageSchema = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    namespace: z.string(),
    seq: z.number().int(),
    role: roleSchema,
    content: z.string(),
    name: z.string().optional(),
    toolCalls: z.array(ToolCallSchema).optional(),
    toolCallId: z.string().optional(),
    createdAt: z.number(),
    metadata: z.record(z.string(), z.unknown()),
    tokens: z.object({ counter: z.string(), count: z.number().int() }).optional(),
  })
  .openapi('StoredMessage');

/** POST /v1/sessions/{id}/messages. */
export const AppendSchema = z.object({ messages: z.array(MessageInputSchema).min(1).max(1000) }).openapi('AppendRequest');

/** What an append stored (or, replayed, had stored). */
export const AppendResultSchema = z.object({ messages: z.array(StoredMessageSchema) }).openapi('AppendResult');

/** The Idempotency-Key header of an append. */
export const AppendHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'Makes a retried append store its messages once: a repeat answers 200 with what was stored, and `Idempotent-Replayed: true`.' }),
});

/** GET /v1/sessions/{id}/messages query. */
export const MessageListQuery = z.object({
  fromSeq: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().openapi({ description: 'First seq of the page (default 1).' }),
  limit: z.coerce.number().int().min(1).max(1000).optional().openapi({ description: 'Messages per page (1..1000, default 100).' }),
});

/** One page of a session's messages. */
export const MessagePageSchema = z
  .object({
    messages: z.array(StoredMessageSchema),
    nextCursor: z.number().int().nullable().openapi({ description: 'The `fromSeq` of the next page; null on the last page.' }),
  })
  .openapi('MessagePage');

/** `{ id, messageId }` in the path. */
export const MessageParams = z.object({
  id: idSchema.openapi({ param: { name: 'id', in: 'path' } }),
  messageId: idSchema.openapi({ param: { name: 'messageId', in: 'path' } }),
});

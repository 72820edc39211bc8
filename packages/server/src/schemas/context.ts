import { z } from '@hono/zod-openapi';
import { StoredMessageSchema } from './message.js';

/** POST /v1/sessions/{id}/context. */
export const ContextRequestSchema = z
  .object({
    query: z.string().optional().openapi({ description: 'Text to select for; default the newest user turn.' }),
    budgetTokens: z.number().int().optional(),
    systemPrompt: z.string().optional(),
    touch: z.boolean().optional().openapi({ description: 'false: a look that is not a use (topics are not touched).' }),
  })
  .openapi('ContextRequest');

/** A derivation job not yet applied. */
export const PendingJobSchema = z
  .object({
    key: z.string(),
    type: z.enum(['ingest', 'summarize', 'consolidate']),
    sessionId: z.string(),
    fromSeq: z.number().int(),
    toSeq: z.number().int(),
    state: z.enum(['queued', 'running', 'failed']),
    attempts: z.number().int(),
    error: z.string().optional(),
  })
  .openapi('PendingJob');

const MemoryMessageSchema = z.object({ role: z.literal('system'), content: z.string(), memory: z.literal(true) }).openapi('MemoryMessage');

const ManifestItemSchema = z
  .object({
    kind: z.enum(['turn', 'summary', 'synopsis', 'fact']),
    id: z.string(),
    tier: z.enum(['immediate', 'working', 'long-term', 'session']),
    score: z.number().optional(),
    tokens: z.number(),
    included: z.boolean(),
    reason: z.string(),
    sourceMessageIds: z.array(z.string()),
  })
  .openapi('ManifestItem');

/** The context for the next model call, and why each candidate is in or out. */
export const ContextResultSchema = z
  .object({
    messages: z.array(z.union([MemoryMessageSchema, StoredMessageSchema])),
    manifest: z.array(ManifestItemSchema),
    tokens: z.number(),
    budgetTokens: z.number(),
    overBudget: z.boolean(),
    query: z.string(),
    pending: z.object({ jobs: z.array(PendingJobSchema), watermarkSeq: z.number(), uncoveredMessages: z.number(), unlistedThroughSeq: z.number() }).openapi('PendingReport'),
  })
  .openapi('ContextResult');

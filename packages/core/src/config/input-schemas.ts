import { z } from 'zod';
import type { DerivationProgressListener } from '../services/derivation-progress.js';

const nonEmpty = (what: string) =>
  z.string({ error: `${what} must be a string` }).trim().min(1, `${what} must be a non-empty string`);

export const sessionIdSchema = nonEmpty('sessionId');
export const namespaceSchema = nonEmpty('namespace').max(256);
const metadataSchema = z.record(z.string(), z.unknown());

export const createSessionSchema = z.object({
  namespace: namespaceSchema,
  id: nonEmpty('id').max(256).optional(),
  title: z.string().max(500).optional(),
  metadata: metadataSchema.optional(),
});

const toolCallSchema = z.object({
  id: nonEmpty('toolCalls[].id'),
  name: nonEmpty('toolCalls[].name'),
  args: z.record(z.string(), z.unknown()).default({}),
});

const timeSchema = z.union([
  z.number().finite().nonnegative(),
  z.date().refine((d) => !Number.isNaN(d.getTime()), 'createdAt must be a valid date'),
  z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'createdAt must be an ISO date string'),
]);

export const messageInputSchema = z
  .object({
    role: z.enum(['user', 'assistant', 'system', 'tool'], {
      error: "role must be one of 'user', 'assistant', 'system', 'tool'",
    }),
    content: z.string({ error: 'content must be a string' }),
    id: nonEmpty('id').max(256).optional(),
    name: z.string().max(256).optional(),
    toolCalls: z.array(toolCallSchema).optional(),
    toolCallId: nonEmpty('toolCallId').optional(),
    createdAt: timeSchema.optional(),
    metadata: metadataSchema.optional(),
  })
  .refine((m) => m.role !== 'tool' || m.toolCallId !== undefined, {
    message: "a 'tool' message needs toolCallId (the id of the tool call it answers)",
    path: ['toolCallId'],
  })
  .refine((m) => m.content.length > 0 || (m.toolCalls?.length ?? 0) > 0, {
    message: 'content must not be empty (unless the message carries toolCalls)',
    path: ['content'],
  });

export const messagesInputSchema = z.array(messageInputSchema).min(1, 'append needs at least one message').max(10_000);

export const getContextSchema = z.object({
  query: z.string().optional(),
  budgetTokens: z.number().int().positive().max(2_000_000).optional(),
});

export const searchSchema = z.object({
  namespace: namespaceSchema,
  query: z.string(),
  k: z.number().int().positive().max(1000).default(10),
  kinds: z.array(z.enum(['turn', 'summary', 'fact'])).min(1).optional(),
  /** Turns of each turn hit's thread path to return (its ancestors); none when absent. */
  contextDepth: z.number().int().min(0).max(50).optional(),
});

export const factsListSchema = z.object({
  namespace: namespaceSchema,
  includeSuperseded: z.boolean().default(false),
});

export const forgetSchema = z.union([
  z.object({ messageIds: z.array(nonEmpty('messageIds[]')).min(1) }).strict(),
  z.object({ sessionId: sessionIdSchema }).strict(),
  z.object({ namespace: namespaceSchema }).strict(),
]);

export const listSessionsSchema = z.object({
  namespace: namespaceSchema.optional(),
  limit: z.number().int().positive().max(100_000).optional(),
});

export const exportSchema = z.object({
  format: z.enum(['json', 'jsonl', 'markdown', 'text']),
});

export const pruneSchema = z.object({
  olderThanDays: z.number().positive().max(100_000),
  namespace: namespaceSchema.optional(),
});

export const listMessagesSchema = z.object({
  fromSeq: z.number().int().positive().optional(),
  last: z.number().int().positive().optional(),
});

/** Options of `memory.flush()`. */
export const flushSchema = z.object({
  /** Called with each progress event while derivation catches up; see `DerivationProgress`. */
  onProgress: z
    .custom<DerivationProgressListener>((value) => typeof value === 'function', { error: 'onProgress must be a function' })
    .optional(),
  /**
   * How often progress is measured while `onProgress` is set (one ledger read per followed session).
   * @defaultValue 200
   */
  progressIntervalMs: z.number().int().min(10).max(60_000).default(200),
});

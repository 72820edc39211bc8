import { z } from '@hono/zod-openapi';
import { namespaceSchema } from './common.js';
import { PendingJobSchema } from './context.js';

/** POST /v1/flush (no options). */
export const FlushRequestSchema = z.object({}).openapi('FlushRequest');

/** What a flush left: jobs failed for good, or still queued when it gave up (only those in the key's reach). */
export const FlushReportSchema = z.object({ settled: z.boolean(), pending: z.array(PendingJobSchema) }).openapi('FlushReport');

/** GET /v1/status query. */
export const StatusQuery = z.object({ namespace: namespaceSchema.optional() });

const MemoryStatsSchema = z
  .object({
    derivation: z.object({
      inputTokens: z.number(),
      outputTokens: z.number(),
      modelCalls: z.number(),
      results: z.number(),
      degradedResults: z.number(),
      rederivedResults: z.number(),
      droppedItems: z.number(),
    }),
  })
  .openapi('MemoryStats');

/** Pending derivation in the key's reach, and the memory's counters. */
export const StatusSchema = z.object({ pending: z.array(PendingJobSchema), stats: MemoryStatsSchema }).openapi('Status');

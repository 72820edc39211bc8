import { z } from '@hono/zod-openapi';
import { namespaceSchema } from './common.js';
import { PendingJobSchema } from './context.js';
import { TokenUsageSchema, UsageByJobTypeSchema, usageByNameSchema } from './usage.js';

/** POST /v1/flush (no options). */
export const FlushRequestSchema = z.object({}).openapi('FlushRequest');

/**
 * The derivation counters of the server's memory, as `memory.stats()` and a flush report give
 * them: of every namespace the process served (no namespace is named in them), except
 * `byNamespace`, which lists only the namespaces in the key's reach.
 */
const DerivationStatsSchema = z
  .object({
    inputTokens: z.number().int().openapi({ description: 'Input (prompt) tokens the models reported for applied results and thread selection (every namespace).' }),
    outputTokens: z.number().int().openapi({ description: 'Output (completion) tokens the models reported for applied results and thread selection (every namespace).' }),
    modelCalls: z.number().int().openapi({ description: 'Model calls that reported usage (every namespace).' }),
    threadSelection: TokenUsageSchema.openapi({ description: 'Of those, the thread selector’s calls (not jobs: GET /v1/usage, which reads the job ledger, leaves them out).' }),
    byJobType: UsageByJobTypeSchema,
    byModel: usageByNameSchema.openapi({ description: 'Token usage by model name (every namespace); calls whose model gave no name are in the totals only.' }),
    byNamespace: usageByNameSchema.openapi({ description: 'Token usage by namespace: only the namespaces in the key’s reach (only `namespace`, when GET /v1/status names one).' }),
    results: z.number().int().openapi({ description: 'Results written to the store.' }),
    degradedResults: z.number().int().openapi({ description: 'Of those, produced by an offline fallback because the model failed.' }),
    rederivedResults: z.number().int().openapi({ description: 'Of those, re-derivations that replaced degraded artefacts.' }),
    droppedItems: z.number().int().openapi({ description: 'Items of model answers left out because they did not validate.' }),
    failedTries: z.number().int().openapi({ description: 'Tries of derivation jobs that failed (a model endpoint down, timing out or refusing; a store busy).' }),
  })
  .openapi('DerivationStats', {
    description:
      'Derivation counters of the server’s memory (since it was created in `Status`; while the flush ran in `FlushReport`). They count the work of every namespace, except `byNamespace`, which lists only the namespaces in the key’s reach.',
  });

/** What a flush left (jobs failed for good, or still queued when it gave up: only those in the key's reach), and what the memory counted while it ran. */
export const FlushReportSchema = z
  .object({
    settled: z.boolean(),
    pending: z.array(PendingJobSchema),
    derivation: DerivationStatsSchema,
  })
  .openapi('FlushReport');

/** GET /v1/status query. */
export const StatusQuery = z.object({ namespace: namespaceSchema.optional() });

const MemoryStatsSchema = z.object({ derivation: DerivationStatsSchema }).openapi('MemoryStats');

/** Pending derivation in the key's reach, and the memory's counters. */
export const StatusSchema = z.object({ pending: z.array(PendingJobSchema), stats: MemoryStatsSchema }).openapi('Status');

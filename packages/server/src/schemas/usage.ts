import { z } from '@hono/zod-openapi';
import { namespaceSchema } from './common.js';

/** Tokens of a number of model calls, as the models reported them. */
export const TokenUsageSchema = z
  .object({
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    calls: z.number().int().openapi({ description: 'Model calls that reported usage.' }),
  })
  .openapi('TokenUsage');

/** Token usage by job type; a type no job of which reported usage is left out. */
export const UsageByJobTypeSchema = z.object({ ingest: TokenUsageSchema.optional(), summarize: TokenUsageSchema.optional(), consolidate: TokenUsageSchema.optional() }).openapi('UsageByJobType');

/** Token usage by name (model, namespace or session). */
export const usageByNameSchema = z.record(z.string(), TokenUsageSchema);

/** GET /v1/usage query. */
export const UsageQuery = z.object({
  namespace: namespaceSchema.optional(),
  sessionId: z.string().max(1024).optional().openapi({ description: 'Narrow the report to this session of the namespace.', example: 'ses_3k9dX0aQ' }),
});

/** The token usage of the jobs applied to a namespace (or one of its sessions), from the job ledger. */
export const UsageReportSchema = z
  .object({
    namespace: z.string(),
    sessionId: z.string().optional().openapi({ description: 'The session it was narrowed to, if it was.' }),
    jobs: z.number().int().openapi({ description: 'Applied jobs of those sessions (re-derivations included).' }),
    jobsWithUsage: z.number().int().openapi({ description: 'Of those, the jobs whose models reported usage.' }),
    total: TokenUsageSchema,
    byJobType: UsageByJobTypeSchema,
    byModel: usageByNameSchema.openapi({ description: 'By model name; calls whose model gave no name are in the total only.' }),
    bySession: usageByNameSchema.openapi({ description: 'By session id.' }),
  })
  .openapi('UsageReport');

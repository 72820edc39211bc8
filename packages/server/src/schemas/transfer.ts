import { z } from '@hono/zod-openapi';
import { flagSchema, namespaceSchema } from './common.js';

/** GET /v1/sessions/{id}/export query. */
export const ExportQuery = z.object({
  format: z.enum(['json', 'jsonl', 'markdown', 'text']).optional().openapi({ description: '`json` (default) is the lossless bundle /v1/import reads back.' }),
});

/** The bundle `export?format=json` writes; the memory checks every record on import. */
export const ExportBundleSchema = z.record(z.string(), z.unknown()).openapi('ExportBundle', {
  description: 'The JSON written by GET /v1/sessions/{id}/export?format=json, unchanged.',
  example: { format: 'strata-bundle', version: 2, exportedAt: '2025-01-01T00:00:00.000Z', sessions: [], facts: [] },
});

/** POST /v1/import query. */
export const ImportQuery = z.object({
  namespace: namespaceSchema.optional().openapi({ description: 'Where to import: an exact key always imports into its own; a prefix key names one in its reach.' }),
  merge: flagSchema.optional().openapi({ description: 'true: skip sessions and facts that exist already instead of CONFLICT.' }),
});

/** What an import wrote. */
export const ImportReportSchema = z
  .object({
    sessions: z.number().int(),
    sessionIds: z.array(z.string()),
    messages: z.number().int(),
    summaries: z.number().int(),
    facts: z.number().int(),
    skipped: z.object({ sessions: z.number().int(), facts: z.number().int() }),
    superseded: z.number().int(),
  })
  .openapi('ImportReport');

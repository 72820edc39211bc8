import { z } from '@hono/zod-openapi';

/** An id in a path (session, message, fact): compared exactly, as the memory stores it. */
export const idSchema = z.string().min(1).max(1024);

/** An id of your own in a body; the memory checks its naming rules (and says how to fix it). */
export const bodyIdSchema = z.string().max(1024);

/** A namespace in a query or body; optional for an exact key (its own) and in open mode. The memory checks its naming rules. */
export const namespaceSchema = z.string().max(1024).openapi({
  description: 'The namespace (tenant, user, agent). An exact key may omit it (its own namespace); a prefix key names one in its reach.',
  example: 'user-42',
});

/** Free JSON metadata, checked by the memory (plain JSON, size limit). */
export const metadataSchema = z.record(z.string(), z.unknown()).openapi({ description: 'Plain JSON object.' });

/** `{ id }` of a session in the path. */
export const SessionParams = z.object({ id: idSchema.openapi({ param: { name: 'id', in: 'path' }, example: 'ses_3k9dX0aQ' }) });

/** A query flag written `true` or `false`. */
export const flagSchema = z.enum(['true', 'false']);

/** What `forget` removed. */
export const ForgetReportSchema = z
  .object({
    messages: z.number().int(),
    sessions: z.number().int(),
    summaries: z.number().int(),
    facts: z.number().int().openapi({ description: 'Facts deleted because every message they came from is gone.' }),
    factsTrimmed: z.number().int().openapi({ description: 'Facts kept with a shorter provenance.' }),
    factsRestored: z.number().int().openapi({ description: 'Facts current again because the fact that superseded them was forgotten.' }),
    sessionsToRederive: z.array(z.string()),
  })
  .openapi('ForgetReport');

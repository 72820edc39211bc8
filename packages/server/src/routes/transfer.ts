import { createRoute, z } from '@hono/zod-openapi';
import { type ExportFormat, StrataError } from '@strata/core';
import { namespaceOf, requireScope, sessionInReach } from '../http/access.js';
import { jsonBody } from '../http/json-body.js';
import { SessionParams } from '../schemas/common.js';
import { problemResponses } from '../schemas/problem.js';
import { ExportBundleSchema, ExportQuery, ImportQuery, ImportReportSchema } from '../schemas/transfer.js';
import { BEARER, jsonAnswer, jsonRequest, type RouteDeps } from './route-deps.js';

const tags = ['transfer'];

const MEDIA_TYPES: Record<ExportFormat, string> = {
  json: 'application/json; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
};

const exported = createRoute({
  method: 'get',
  path: '/v1/sessions/{id}/export',
  tags,
  summary: 'Export a session: the lossless JSON bundle, JSONL, Markdown or text (scope read)',
  security: BEARER,
  request: { params: SessionParams, query: ExportQuery },
  responses: {
    200: {
      description: 'The export, as text',
      content: {
        'application/json': { schema: ExportBundleSchema },
        'application/x-ndjson': { schema: z.string() },
        'text/markdown': { schema: z.string() },
        'text/plain': { schema: z.string() },
      },
    },
    ...problemResponses,
  },
});

const imported = createRoute({
  method: 'post',
  path: '/v1/import',
  tags,
  summary: 'Import an export bundle, all or nothing (scope write)',
  security: BEARER,
  middleware: [jsonBody()] as const,
  request: { query: ImportQuery, body: jsonRequest(ExportBundleSchema) },
  responses: { 200: jsonAnswer(ImportReportSchema, 'What was imported'), ...problemResponses },
});

type BundleShape = { sessions?: { session?: { id?: unknown }; messages?: { id?: unknown }[] }[]; facts?: { id?: unknown }[] };

/** The session, message and fact ids a bundle holds. */
function idsOf(bundle: unknown): string[] {
  const { sessions, facts } = (bundle ?? {}) as BundleShape;
  const records = [...(Array.isArray(sessions) ? sessions.flatMap((s) => [s?.session, ...(Array.isArray(s?.messages) ? s.messages : [])]) : []), ...(Array.isArray(facts) ? facts : [])];
  return records.map((record) => record?.id).filter((id): id is string => typeof id === 'string');
}

/**
 * The CONFLICT of an import, naming only ids of the bundle: the memory's words may name the
 * session of another tenant that holds a message id.
 */
function importConflict(error: StrataError, bundle: unknown): StrataError {
  const named = [...new Set(idsOf(bundle).filter((id) => error.message.includes(id)))].slice(0, 5);
  const which = named.length ? ` (${named.map((id) => JSON.stringify(id)).join(', ')})` : '';
  return new StrataError('CONFLICT', `an id of this bundle is stored already${which}; nothing was imported`, {
    hint: 'merge=true skips sessions and facts stored already; message ids are unique across sessions: forget those messages first, or import into another memory.',
    cause: error,
  });
}

/** GET /v1/sessions/{id}/export and POST /v1/import. */
export function addTransferRoutes({ app, memory }: RouteDeps): void {
  app.openapi(exported, async (c) => {
    const { id } = c.req.valid('param');
    await sessionInReach(memory, c.var.caller, id, 'read');
    const format = c.req.valid('query').format ?? 'json';
    return c.body(await memory.export(id, { format }), 200, { 'content-type': MEDIA_TYPES[format] }) as never;
  });
  app.openapi(imported, async (c) => {
    c.req.valid('json');
    const query = c.req.valid('query');
    // an exact key imports into its own namespace, whatever namespace the bundle names
    const namespace = namespaceOf(c.var.caller, query.namespace);
    requireScope(c.var.caller, 'write');
    const options = { ...(namespace === undefined ? {} : { namespace }), ...(query.merge === undefined ? {} : { merge: query.merge === 'true' }) };
    try {
      return c.json(await memory.import(c.var.body, options), 200);
    } catch (error) {
      throw StrataError.is(error, 'CONFLICT') ? importConflict(error, c.var.body) : error;
    }
  });
}

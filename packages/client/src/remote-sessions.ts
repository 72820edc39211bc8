import { StrataError, type MemoryApi, type Session } from '@strata/core';
import { canBeInUrl, checkOptions, pathId } from './input-checks.js';
import { jsonBody } from './json-body.js';
import type { RemoteTransport } from './remote-transport.js';

/** Largest page the server's GET /v1/sessions answers. */
const SESSION_PAGE = 500;

/** `memory.sessions` over HTTP: create, get (null when unknown), list (every page), rename, delete. */
export function remoteSessions(t: RemoteTransport): MemoryApi['sessions'] {
  return {
    create: (input) => t.send(() => t.client.POST('/v1/sessions', { body: jsonBody(input, 'session') })),
    get: async (id) => {
      try {
        const sessionId = pathId(id, 'sessionId');
        return await t.send(() => t.client.GET('/v1/sessions/{id}', { params: { path: { id: sessionId } } }));
      } catch (error) {
        // as in process: an unknown session (or one out of the key's reach, which the server answers the same) is null
        if (StrataError.is(error, 'NOT_FOUND')) return null;
        throw error;
      }
    },
    list: (filter = {}) => listSessions(t, filter),
    rename: async (id, title) => {
      const sessionId = pathId(id, 'sessionId');
      return t.send(() => t.client.PATCH('/v1/sessions/{id}', { params: { path: { id: sessionId } }, body: jsonBody({ title }, 'rename') }));
    },
    delete: async (id) => {
      const sessionId = pathId(id, 'sessionId');
      return t.send(() => t.client.DELETE('/v1/sessions/{id}', { params: { path: { id: sessionId } } }));
    },
  };
}

/**
 * Every session of the filter, page after page (`updatedAt` DESC, ties by id, as in process),
 * until `limit` are found. The server takes no `updatedBefore`: the newer sessions are paged
 * past here.
 */
async function listSessions(t: RemoteTransport, filter: { namespace?: string; limit?: number; updatedBefore?: number }): Promise<Session[]> {
  checkOptions(filter, 'session filter', { namespace: 'string', limit: 'positive', updatedBefore: 'integer' }, 'Pass { namespace?: string, limit?: number, updatedBefore?: epoch ms }.');
  const { namespace, limit, updatedBefore } = filter;
  // no session can be in a namespace a URL cannot carry (names are well-formed text)
  if (namespace !== undefined && !canBeInUrl(namespace)) return [];
  const found: Session[] = [];
  let cursor: string | undefined;
  do {
    const wanted = limit === undefined || updatedBefore !== undefined ? SESSION_PAGE : Math.min(SESSION_PAGE, limit - found.length);
    const query = { limit: wanted, ...(namespace === undefined ? {} : { namespace }), ...(cursor === undefined ? {} : { cursor }) };
    const page = await t.send(() => t.client.GET('/v1/sessions', { params: { query } }));
    for (const session of page.sessions) if (updatedBefore === undefined || session.updatedAt < updatedBefore) found.push(session);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && (limit === undefined || found.length < limit));
  return limit === undefined ? found : found.slice(0, limit);
}

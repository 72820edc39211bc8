import { StrataError, type UsageReport } from '@strata/core';
import { canBeInUrl, checkOptions } from './input-checks.js';
import type { RemoteTransport } from './remote-transport.js';

const USAGE_HINT = 'Pass { namespace: string, sessionId?: string }.';

/**
 * `memory.usage` over HTTP (GET /v1/usage), checked as in process first. A name no URL can
 * carry (a lone surrogate) is one no record holds: the in-process answer, an empty report or
 * NOT_FOUND for the session, is given without a request.
 * @throws StrataError INVALID_INPUT for a malformed filter; NOT_FOUND when `sessionId` is not a session of `namespace`.
 */
export async function usageRemote(t: RemoteTransport, filter: { namespace: string; sessionId?: string }): Promise<UsageReport> {
  checkOptions(filter, 'usage filter', { namespace: 'string', sessionId: 'string' }, USAGE_HINT);
  const { namespace, sessionId } = filter;
  if (namespace === undefined) throw new StrataError('INVALID_INPUT', 'usage filter is invalid: namespace must be a string (got undefined)', { hint: USAGE_HINT });
  if (sessionId !== undefined && !(canBeInUrl(sessionId) && canBeInUrl(namespace))) {
    throw new StrataError('NOT_FOUND', `no session with id ${JSON.stringify(sessionId)} in namespace ${JSON.stringify(namespace)}`, {
      hint: 'Pass the id returned by memory.sessions.create(). List sessions with memory.sessions.list({ namespace }).',
    });
  }
  if (!canBeInUrl(namespace)) return { namespace, jobs: 0, jobsWithUsage: 0, total: { inputTokens: 0, outputTokens: 0, calls: 0 }, byJobType: {}, byModel: {}, bySession: {} };
  const query = { namespace, ...(sessionId === undefined ? {} : { sessionId }) };
  return t.send(() => t.client.GET('/v1/usage', { params: { query } }));
}

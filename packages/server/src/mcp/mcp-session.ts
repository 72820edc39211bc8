import { StrataError, type MemoryApi, type Session } from '@strata/core';

/** The title of the session that MCP tools write to when the caller names none. */
export const MCP_SESSION_TITLE = 'MCP';

/** Every remember touches the MCP session, so it is almost always among the most recent ones. */
const RECENT = 100;

/**
 * The namespace's MCP session: the most recently updated session titled "MCP", created on first
 * use. The recent sessions are looked at first, every session only when they do not hold it.
 * Two clients that create it at the same moment may make two; the newer one is used from then on.
 */
export async function mcpSession(memory: MemoryApi, namespace: string): Promise<Session> {
  const isMcp = (s: Session) => s.title === MCP_SESSION_TITLE;
  const recent = await memory.sessions.list({ namespace, limit: RECENT });
  const found = recent.find(isMcp) ?? (recent.length < RECENT ? undefined : (await memory.sessions.list({ namespace })).find(isMcp));
  return found ?? memory.sessions.create({ namespace, title: MCP_SESSION_TITLE });
}

/** A session the caller named, only if it is of this namespace: another namespace's session answers like an unknown id. */
export async function ownSession(memory: MemoryApi, namespace: string, sessionId: string | undefined): Promise<Session> {
  if (sessionId === undefined) return mcpSession(memory, namespace);
  const session = await memory.sessions.get(sessionId);
  if (session && session.namespace === namespace) return session;
  throw new StrataError('NOT_FOUND', `no session with id ${JSON.stringify(sessionId)}`, { hint: 'Pass an id that list_sessions returns, or omit sessionId to use the MCP session.' });
}

import { StrataError, type MemoryApi, type Session } from '@strata/core';

/** What a session created on first use gets. */
export interface NewSessionSpec {
  /** Namespace of the session when it must be created; without it an unknown session is NOT_FOUND. */
  namespace?: string;
  title?: string;
  metadata?: Record<string, unknown>;
}

/**
 * The session `sessionId`, created first when it does not exist yet and `spec.namespace` says
 * where it belongs. An existing session in another namespace than `spec.namespace` is refused:
 * a chat id shared by mistake must not hand one user's memory to another. (The same rule as
 * `@strata/langchain`'s; adapters do not import each other.)
 * @throws StrataError NOT_FOUND for an unknown session without a namespace to create it in.
 * @throws StrataError CONFLICT when the session exists in another namespace.
 */
export async function ensureSession(memory: MemoryApi, sessionId: string, spec: NewSessionSpec = {}): Promise<Session> {
  const existing = await findSession(memory, sessionId, spec.namespace);
  if (existing) return existing;
  if (spec.namespace === undefined) {
    throw new StrataError('NOT_FOUND', `session ${JSON.stringify(sessionId)} does not exist`, {
      hint: 'Pass the namespace option to create unknown sessions on first use, or create it first with memory.sessions.create({ namespace, id }).',
    });
  }
  try {
    return await memory.sessions.create({
      namespace: spec.namespace,
      id: sessionId,
      ...(spec.title === undefined ? {} : { title: spec.title }),
      ...(spec.metadata === undefined ? {} : { metadata: spec.metadata }),
    });
  } catch (error) {
    // Two first uses racing: the other one created it, which is all we wanted.
    if (!StrataError.is(error, 'CONFLICT')) throw error;
    const created = await memory.sessions.get(sessionId);
    if (!created) throw error;
    return checkNamespace(created, spec.namespace);
  }
}

/**
 * The session `sessionId`, or null when it does not exist.
 * @throws StrataError CONFLICT when it exists in another namespace than `namespace` (when given).
 */
export async function findSession(memory: MemoryApi, sessionId: string, namespace?: string): Promise<Session | null> {
  const session = await memory.sessions.get(sessionId);
  return session && checkNamespace(session, namespace);
}

function checkNamespace(session: Session, namespace: string | undefined): Session {
  if (namespace === undefined || session.namespace === namespace) return session;
  throw new StrataError('CONFLICT', `session ${JSON.stringify(session.id)} belongs to namespace ${JSON.stringify(session.namespace)}, not ${JSON.stringify(namespace)}`, {
    hint: 'Use a chat or session id of this namespace (e.g. crypto.randomUUID() per conversation), or leave out namespace to use the session where it is.',
  });
}

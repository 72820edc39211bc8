import { createHash } from 'node:crypto';
import { StrataError, type MemoryApi, type Session } from '@strata/core';

/** The session metadata field holding the LangGraph namespace a store session stands for. */
export const NAMESPACE_FIELD = 'langgraphNamespace';

/**
 * The strata session of a LangGraph namespace: derived from the strata namespace and the
 * labels, so every StrataStore over the same memory finds it without a lookup table, and
 * always a valid id whatever the labels hold (their text is kept in the session's metadata).
 */
export function storeSessionId(namespace: string, labels: readonly string[]): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([namespace, ...labels]))
    .digest('base64url');
  return `lgs_${digest.slice(0, 32)}`;
}

/**
 * The LangGraph namespace a session of the store's strata namespace stands for, or undefined
 * for any other session (a conversation sharing the namespace is not an item of the store).
 */
export function labelsOf(session: Session): string[] | undefined {
  const labels = session.metadata[NAMESPACE_FIELD];
  if (!Array.isArray(labels) || !labels.every((label): label is string => typeof label === 'string')) return undefined;
  return storeSessionId(session.namespace, labels) === session.id ? labels : undefined;
}

/** Creates the session of a LangGraph namespace unless it exists; returns its id. */
export async function ensureStoreSession(memory: MemoryApi, namespace: string, labels: readonly string[]): Promise<string> {
  const id = storeSessionId(namespace, labels);
  if (await memory.sessions.get(id)) return id;
  const title = `LangGraph store ${labels.join('/')}`;
  try {
    await memory.sessions.create({ namespace, id, ...(title.length <= 500 ? { title } : {}), metadata: { [NAMESPACE_FIELD]: [...labels] } });
  } catch (error) {
    // Another store created it between the two calls, which is all we wanted.
    if (!StrataError.is(error, 'CONFLICT')) throw error;
  }
  return id;
}

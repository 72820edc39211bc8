import { StrataError, type DerivationStats, type MemoryApi, type PendingJob, type Session } from '@strata/core';
import type { Scope } from '../keys/api-key.js';
import { type Caller, holds, reaches } from './caller.js';

/*
 * What a key reaches, checked before what it may do: anything outside its reach answers what
 * an unknown id answers (same status, same words), so that no answer tells another tenant's
 * records from records that do not exist.
 */

const quote = (value: string) => JSON.stringify(value);

/** The NOT_FOUND of a session that is not stored, or not in the key's reach. */
export function sessionNotFound(id: string): StrataError {
  return new StrataError('NOT_FOUND', `no session with id ${quote(id)}`, {
    hint: "Pass the id of a session in this key's reach (GET /v1/sessions lists them); ids are compared exactly.",
  });
}

/** The NOT_FOUND of a namespace outside the key's reach (whether anything is stored there or not). */
export function namespaceNotFound(namespace: string): StrataError {
  return new StrataError('NOT_FOUND', `no namespace ${quote(namespace)} in this key's reach`, {
    hint: 'Name a namespace this key reaches (its own, or one starting with it for a prefix key); namespaces are compared exactly.',
  });
}

/** The NOT_FOUND of ids to forget, worded as the memory words it, when none can be in the key's reach. */
export function idsNotFound(kind: 'message' | 'fact', ids: string[]): StrataError {
  const unique = [...new Set(ids)];
  const shown = unique.slice(0, 5).map(quote).join(', ');
  const more = unique.length > 5 ? ` (and ${unique.length - 5} more)` : '';
  return new StrataError('NOT_FOUND', `no ${kind} with id ${shown}${more}; nothing was forgotten`, {
    hint: `Pass ids of ${kind}s in this key's reach; a prefix key also names their namespace.`,
  });
}

/** FORBIDDEN unless the caller holds `scope`. Call it after the reach check. */
export function requireScope(caller: Caller, scope: Scope): void {
  if (holds(caller, scope)) return;
  throw new StrataError('FORBIDDEN', `this API key lacks the ${quote(scope)} scope`, {
    hint: `Use a key with the ${scope} scope (strata keys create --namespace NS --scope ${scope}).`,
  });
}

/**
 * The namespace a request names, in the caller's reach (NOT_FOUND otherwise). Omitted, it is
 * the key's own for an exact key, undefined in open mode (the memory decides, as in process),
 * and INVALID_INPUT for a prefix key, which reaches many.
 */
export function namespaceOf(caller: Caller, given: string | undefined): string | undefined {
  if (given !== undefined) {
    if (!reaches(caller, given)) throw namespaceNotFound(given);
    return given;
  }
  if (caller.open) return undefined;
  if (caller.match === 'exact') return caller.namespace;
  throw new StrataError('INVALID_INPUT', 'namespace is required with a prefix key', {
    hint: `This key reaches every namespace starting with ${quote(caller.namespace)}: name one (namespace=${caller.namespace}…).`,
  });
}

/** The session, when it is stored and in the caller's reach (NOT_FOUND otherwise), and the caller holds `scope` (FORBIDDEN otherwise). */
export async function sessionInReach(memory: MemoryApi, caller: Caller, id: string, scope: Scope): Promise<Session> {
  const session = await memory.sessions.get(id);
  if (!session || !reaches(caller, session.namespace)) throw sessionNotFound(id);
  requireScope(caller, scope);
  return session;
}

/**
 * The jobs of sessions in the caller's reach (of `namespace` only, when given). A job of a
 * session that is gone is shown in open mode only: its namespace is unknown.
 */
export async function pendingInReach(memory: MemoryApi, caller: Caller, jobs: PendingJob[], namespace?: string): Promise<PendingJob[]> {
  if (caller.open && namespace === undefined) return jobs;
  const namespaces = new Map<string, string | null>();
  for (const sessionId of new Set(jobs.map((job) => job.sessionId))) namespaces.set(sessionId, (await memory.sessions.get(sessionId))?.namespace ?? null);
  return jobs.filter((job) => {
    const ns = namespaces.get(job.sessionId);
    return typeof ns === 'string' && reaches(caller, ns) && (namespace === undefined || ns === namespace);
  });
}

/**
 * The memory's derivation counters as the caller may see them: `byNamespace` keeps only the
 * namespaces in its reach (only `namespace`, when given). The other counters are process-wide
 * totals, with no namespace in them; a key sees them whatever its reach, as it always has.
 */
export function derivationInReach(stats: DerivationStats, caller: Caller, namespace?: string): DerivationStats {
  const byNamespace = Object.fromEntries(Object.entries(stats.byNamespace).filter(([ns]) => reaches(caller, ns) && (namespace === undefined || ns === namespace)));
  return { ...stats, byNamespace };
}

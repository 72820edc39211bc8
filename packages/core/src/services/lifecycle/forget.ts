import type { Fact, Summary } from '../../domain/derived.js';
import { jobKey } from '../../engine/ids.js';
import { spliceOutOfHistory } from '../../engine/derivation/splice-history.js';
import type { StoreOp } from '../../ports/session-store.js';
import type { MemoryDeps } from '../deps.js';
import { StrataError } from '../../errors/strata-error.js';
import { degradedMarkerKey } from '../derivation/rederive.js';

/**
 * What `Memory.forget` deletes: exactly one of some messages by id, some facts by id, one
 * session, or a whole namespace. With `namespace` beside ids, an id outside that namespace
 * is NOT_FOUND exactly like an id that does not exist (a tenant cannot reach another's records).
 */
export type ForgetTarget = { messageIds: string[]; namespace?: string } | { factIds: string[]; namespace?: string } | { sessionId: string } | { namespace: string };

/**
 * What `Memory.forget` deleted: counts of messages, sessions, summaries and facts, the facts
 * kept or made current again, and the sessions whose summaries are re-derived.
 */
export interface ForgetReport {
  messages: number;
  sessions: number;
  summaries: number;
  /** Facts deleted because every message they came from is gone. */
  facts: number;
  /** Facts kept with a shorter provenance (other messages still state them). */
  factsTrimmed: number;
  /** Facts current again because the fact that superseded them was forgotten. */
  factsRestored: number;
  /** Sessions whose summaries will be re-derived without the forgotten turns. */
  sessionsToRederive: string[];
}

/**
 * Deletes messages and everything derived from them (provenance), in the store and the KB,
 * in one store transaction. Summaries built from a forgotten turn are deleted and their
 * ledger keys cleared so the scheduler re-derives them from the remaining turns; facts keep
 * their other sources or are deleted, and a fact they had superseded becomes current again.
 */
export async function forget(deps: MemoryDeps, target: ForgetTarget): Promise<ForgetReport> {
  const scope = await resolveScope(deps, target);
  const ids = new Set(scope.messageIds);
  const idList = [...ids];
  const [summaries, facts] = await Promise.all([
    idList.length ? summariesBuiltFrom(deps, scope) : Promise.resolve([]),
    scope.facts
      ? Promise.resolve(scope.facts)
      : scope.namespace
        ? deps.store.facts({ namespace: scope.namespace, includeSuperseded: true })
        : idList.length
          ? deps.store.facts({ sourceMessageIds: idList, includeSuperseded: true })
          : Promise.resolve([]),
  ]);
  if (scope.namespace !== undefined && scope.sessionIds.length === 0 && facts.length === 0) {
    throw new StrataError('NOT_FOUND', `nothing is stored in namespace ${JSON.stringify(scope.namespace)}`, {
      hint: "Namespaces are compared exactly: check the spelling (memory.sessions.list() shows each session's namespace).",
    });
  }
  const factPlan = scope.facts ? await planNamedFactForget(deps, scope.facts) : await planFactForget(deps, facts, ids, scope.namespace !== undefined);
  const ops: StoreOp[] = [
    {
      type: 'delete',
      sessions: scope.sessionIds,
      messages: idList,
      summaries: summaries.map((s) => s.id),
      facts: factPlan.deleted,
      jobs: summaries.flatMap((s) => summaryJobKeys(s.level, s.sessionId, s.fromSeq, s.toSeq)),
    },
    { type: 'putFacts', facts: factPlan.put },
  ];
  await deps.store.write({ ops });
  await deps.knowledge.delete({ ids: [...idList, ...summaries.map((s) => s.id), ...factPlan.deleted] });
  if (scope.namespace) await deps.knowledge.delete({ filter: { namespace: scope.namespace } });
  for (const sessionId of scope.sessionIds) await deps.knowledge.delete({ filter: { sessionId } });
  if (factPlan.restored.length) await deps.knowledge.setCurrent(factPlan.restored.map((id) => ({ id, current: true })));
  const gone = new Set(scope.sessionIds);
  return {
    messages: idList.length,
    sessions: scope.sessionIds.length,
    summaries: summaries.length,
    facts: factPlan.deleted.length,
    factsTrimmed: factPlan.trimmed,
    factsRestored: factPlan.restored.length,
    sessionsToRederive: [...new Set(summaries.map((s) => s.sessionId))].filter((id) => !gone.has(id)),
  };
}

/** The ledger keys of a summary's job and of its degraded marker, if any. */
function summaryJobKeys(level: 'batch' | 'synopsis', sessionId: string, fromSeq: number, toSeq: number): string[] {
  const key = jobKey(level === 'batch' ? 'summarize' : 'consolidate', sessionId, fromSeq, toSeq);
  return [key, degradedMarkerKey(key)];
}

interface Scope {
  messageIds: string[];
  sessionIds: string[];
  namespace?: string;
  /** Facts forgotten by id (their source turns stay). */
  facts?: Fact[];
  /** For forgotten turns of sessions that stay: the smallest forgotten seq of each session. */
  firstSeqBySession?: Map<string, number>;
}

/**
 * Summaries built from the forgotten turns: those naming one of them, and each synopsis that
 * covers one (a synopsis names only the turns of its last fold, and covers its session up to
 * its `toSeq`). Whole sessions and namespaces go with all their summaries.
 */
async function summariesBuiltFrom(deps: MemoryDeps, scope: Scope): Promise<Summary[]> {
  const named = await deps.store.summaries({ sourceMessageIds: scope.messageIds });
  const covering: Summary[] = [];
  for (const [sessionId, seq] of scope.firstSeqBySession ?? []) {
    const synopses = await deps.store.summaries({ sessionId, level: 'synopsis', minToSeq: seq });
    covering.push(...synopses.filter((s) => !named.some((n) => n.id === s.id)));
  }
  return [...named, ...covering];
}

/** NOT_FOUND naming the first few ids asked for that are not stored (or not in the namespace asked for). */
function assertAllFound(kind: 'message' | 'fact', asked: string[], found: { id: string }[], hint: string): void {
  const known = new Set(found.map((m) => m.id));
  const missing = [...new Set(asked)].filter((id) => !known.has(id));
  if (missing.length === 0) return;
  const shown = missing
    .slice(0, 5)
    .map((id) => JSON.stringify(id))
    .join(', ');
  throw new StrataError('NOT_FOUND', `no ${kind} with id ${shown}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}; nothing was forgotten`, { hint });
}

async function resolveScope(deps: MemoryDeps, target: ForgetTarget): Promise<Scope> {
  if ('factIds' in target) {
    const found = await deps.store.facts({ ids: target.factIds, includeSuperseded: true, ...(target.namespace === undefined ? {} : { namespace: target.namespace }) });
    assertAllFound('fact', target.factIds, found, 'Pass ids of stored facts (as memory.facts.list returns them); ids are compared exactly.');
    return { messageIds: [], sessionIds: [], facts: found };
  }
  if ('messageIds' in target) {
    const found = await deps.store.messages({ ids: target.messageIds, ...(target.namespace === undefined ? {} : { namespace: target.namespace }) });
    assertAllFound('message', target.messageIds, found, 'Pass ids of stored messages (as returned by memory.append or memory.messages); ids are compared exactly.');
    const firstSeqBySession = new Map<string, number>();
    for (const m of found) firstSeqBySession.set(m.sessionId, Math.min(m.seq, firstSeqBySession.get(m.sessionId) ?? Infinity));
    return { messageIds: found.map((m) => m.id), sessionIds: [], firstSeqBySession };
  }
  if ('sessionId' in target) {
    const [session] = await deps.store.sessions({ ids: [target.sessionId] });
    if (session === undefined) {
      throw new StrataError('NOT_FOUND', `no session with id ${JSON.stringify(target.sessionId)}; nothing was forgotten`, {
        hint: 'Pass the id of a stored session (memory.sessions.list() lists them); ids are compared exactly.',
      });
    }
    const messages = await deps.store.messages({ sessionId: target.sessionId });
    return { messageIds: messages.map((m) => m.id), sessionIds: [target.sessionId] };
  }
  const sessions = await deps.store.sessions({ namespace: target.namespace });
  const messages = await deps.store.messages({ namespace: target.namespace });
  return { messageIds: messages.map((m) => m.id), sessionIds: sessions.map((s) => s.id), namespace: target.namespace };
}

interface FactForgetPlan {
  deleted: string[];
  put: Fact[];
  trimmed: number;
  restored: string[];
}

async function planFactForget(deps: MemoryDeps, facts: Fact[], gone: Set<string>, wholeNamespace: boolean): Promise<FactForgetPlan> {
  if (wholeNamespace) return { deleted: facts.map((f) => f.id), put: [], trimmed: 0, restored: [] };
  const deleted = new Set<string>();
  const put = new Map<string, Fact>();
  let trimmed = 0;
  for (const fact of facts) {
    const remaining = fact.sourceMessageIds.filter((id) => !gone.has(id));
    if (remaining.length === 0) deleted.add(fact.id);
    else if (remaining.length < fact.sourceMessageIds.length) {
      put.set(fact.id, { ...fact, sourceMessageIds: remaining });
      trimmed++;
    }
  }
  const restored = await restoreSuperseded(
    deps,
    facts.filter((f) => deleted.has(f.id)),
    deleted,
    put,
  );
  return { deleted: [...deleted], put: [...put.values()], trimmed, restored };
}

/** Facts forgotten by id: each is deleted, and a fact it had superseded takes its place in the slot's history. */
async function planNamedFactForget(deps: MemoryDeps, facts: Fact[]): Promise<FactForgetPlan> {
  const deleted = new Set(facts.map((f) => f.id));
  const put = new Map<string, Fact>();
  const restored = await restoreSuperseded(deps, facts, deleted, put);
  return { deleted: [...deleted], put: [...put.values()], trimmed: 0, restored };
}

/** A fact whose successor is deleted takes its place in the slot's history (current again if it was current). */
async function restoreSuperseded(deps: MemoryDeps, removed: Fact[], deleted: Set<string>, put: Map<string, Fact>): Promise<string[]> {
  const restored: string[] = [];
  for (const fact of [...removed].sort((a, b) => a.validFrom - b.validFrom)) {
    const slot = await deps.store.facts({ namespace: fact.namespace, subject: fact.subject, predicate: fact.predicate, includeSuperseded: true });
    const predecessors = slot.map((f) => put.get(f.id) ?? f).filter((f) => f.supersededBy === fact.id && !deleted.has(f.id));
    for (const next of spliceOutOfHistory(fact, predecessors)) {
      if (next.validTo === undefined) restored.push(next.id);
      put.set(next.id, next);
    }
  }
  return restored;
}

import type { Fact, JobRecord, Summary, SummaryLevel } from '../../domain/derived.js';
import type { DeriveResult, JobRef } from '../../domain/jobs.js';
import { overlaps } from '../../engine/derivation/coverage.js';
import { stableId } from '../../engine/ids.js';
import { normalizeSlotPart, reconcileFacts, slotKey } from '../../engine/derivation/reconcile-facts.js';
import type { KnowledgeEntry } from '../../ports/knowledge-base.js';
import type { MemoryDeps } from '../deps.js';
import { indexesTurnVectors } from '../retrieval/reindex.js';
import { applyRederivedFacts, applyRederivedSummary, jobRecordOf } from './apply-rederive.js';
import { degradedMarkerKey } from './rederive.js';

/**
 * Applies a derivation result to the store, then indexes it. Idempotent: the store write is
 * guarded by the job key in the ledger, so a replay writes nothing. Results whose inputs
 * were forgotten meanwhile, or that overlap what is already applied, are dropped (the next
 * scheduling pass plans afresh). The KB is written after the store commit; if that fails,
 * `memory.reindex()` rebuilds it from the store.
 * @returns whether anything was written.
 */
/** DeriveResult narrowed by its job type (TS does not narrow on a nested discriminant). */
type ResultOf<T extends JobRef['type']> = Extract<DeriveResult, { job: { type: T } }>;

export async function applyResult(deps: MemoryDeps, result: DeriveResult): Promise<boolean> {
  if (result.job.rederive) {
    return result.job.type === 'ingest' ? applyRederivedFacts(deps, result as ResultOf<'ingest'>) : applyRederivedSummary(deps, result as ResultOf<'summarize' | 'consolidate'>);
  }
  switch (result.job.type) {
    case 'ingest':
      return applyIngest(deps, result as ResultOf<'ingest'>);
    case 'summarize':
      return applySummary(deps, result as ResultOf<'summarize'>);
    case 'consolidate':
      return applySynopsis(deps, result as ResultOf<'consolidate'>);
  }
}

/** The job's ledger record (with its token usage), plus a marker when its result is degraded (found later for re-derivation). */
function recordsOf(result: DeriveResult, now: number): JobRecord[] {
  const record = jobRecordOf(result, now);
  if (!result.degraded) return [record];
  const { usage: _counted, ...marker } = record;
  return [record, { ...marker, key: degradedMarkerKey(record.key) }];
}

async function existingIds(deps: MemoryDeps, ids: readonly string[]): Promise<Set<string>> {
  return new Set((await sourceTimes(deps, ids)).keys());
}

/** createdAt of each source message that still exists, by id. */
async function sourceTimes(deps: MemoryDeps, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const found = await deps.store.messages({ ids: [...new Set(ids)] });
  return new Map(found.map((m) => [m.id, m.createdAt]));
}

/** A summary is dated like the conversation it covers: the time of its newest turn. */
function newestTime(times: Map<string, number>, fallback: number): number {
  return times.size ? Math.max(...times.values()) : fallback;
}

async function applyIngest(deps: MemoryDeps, result: Extract<DeriveResult, { job: { type: 'ingest' } }>): Promise<boolean> {
  const { job } = result;
  const exists = await existingIds(deps, [...result.turnVectors.map((t) => t.id), ...result.facts.flatMap((f) => f.sourceMessageIds)]);
  const facts = result.facts.filter((f) => f.sourceMessageIds.length > 0 && f.sourceMessageIds.every((id) => exists.has(id)));
  const existing = await factsOfSlots(deps, job.namespace, facts);
  const now = deps.clock.now();
  const plan = reconcileFacts({ namespace: job.namespace, existing, incoming: facts, now, degraded: result.degraded });
  const receipt = await deps.store.write({
    unlessJobApplied: job.key,
    ops: [
      { type: 'putFacts', facts: plan.put },
      { type: 'recordJobs', jobs: recordsOf(result, now) },
    ],
  });
  if (!receipt.applied) return false;
  const vectorByText = new Map(facts.map((f) => [f.text, f.vector]));
  const created = plan.put.filter((f) => plan.created.includes(f.id));
  const entries: KnowledgeEntry[] = [
    ...(indexesTurnVectors(deps) ? result.turnVectors : []).filter((t) => exists.has(t.id) && t.vector.length > 0).map((t) => entry(t.id, 'turn', job.namespace, job.sessionId, t.vector, true, now)),
    ...created.map((f) => entry(f.id, 'fact', f.namespace, null, vectorByText.get(f.text) ?? [], f.validTo === undefined, f.createdAt)),
  ].filter((e) => e.vector.length > 0);
  if (entries.length) await deps.knowledge.upsert(entries);
  if (plan.superseded.length) await deps.knowledge.setCurrent(plan.superseded.map((id) => ({ id, current: false })));
  return true;
}

/**
 * The current facts of the slots the incoming facts touch. History is not read: it grows
 * without bound in busy slots, and is only needed to merge a repeat of an old value that
 * arrives out of order, which then lands as one more history row instead.
 */
async function factsOfSlots(deps: MemoryDeps, namespace: string, facts: readonly { subject: string; predicate: string }[]): Promise<Fact[]> {
  const slots = new Map(
    facts.map((f) => {
      const subject = normalizeSlotPart(f.subject);
      const predicate = normalizeSlotPart(f.predicate);
      return [slotKey(subject, predicate), { subject, predicate }] as const;
    }),
  );
  const lists = await Promise.all([...slots.values()].map(({ subject, predicate }) => deps.store.facts({ namespace, subject, predicate })));
  return lists.flat();
}

async function applySummary(deps: MemoryDeps, result: Extract<DeriveResult, { job: { type: 'summarize' } }>): Promise<boolean> {
  const { job } = result;
  const times = await sourceTimes(deps, result.sourceMessageIds);
  if (result.sourceMessageIds.some((id) => !times.has(id)) || times.size === 0) return false;
  const applied = await deps.store.summaries({ sessionId: job.sessionId, level: 'batch', minToSeq: job.fromSeq });
  if (applied.some((s) => overlaps(s, job))) return false;
  const now = deps.clock.now();
  const summary = summaryOf('batch', result, times, now);
  const receipt = await deps.store.write({
    unlessJobApplied: job.key,
    ops: [
      { type: 'putSummaries', summaries: [summary] },
      { type: 'recordJobs', jobs: recordsOf(result, now) },
    ],
  });
  if (!receipt.applied) return false;
  if (result.vector.length) await deps.knowledge.upsert([entry(summary.id, 'summary', job.namespace, job.sessionId, result.vector, true, summary.createdAt)]);
  return true;
}

async function applySynopsis(deps: MemoryDeps, result: Extract<DeriveResult, { job: { type: 'consolidate' } }>): Promise<boolean> {
  const { job } = result;
  const current = (await deps.store.summaries({ sessionId: job.sessionId, level: 'synopsis' }))[0];
  if (current?.id !== result.replacesSynopsisId) return false;
  // The sources are the turns this fold adds. Those of the synopsis it replaces were checked
  // when that landed, and forgetting one since would have deleted it (it is then not current).
  const times = await sourceTimes(deps, result.sourceMessageIds);
  if (result.sourceMessageIds.some((id) => !times.has(id))) return false;
  const now = deps.clock.now();
  const synopsis = summaryOf('synopsis', result, times, now);
  const receipt = await deps.store.write({
    unlessJobApplied: job.key,
    ops: [...(current ? [{ type: 'delete' as const, summaries: [current.id] }] : []), { type: 'putSummaries', summaries: [synopsis] }, { type: 'recordJobs', jobs: recordsOf(result, now) }],
  });
  if (!receipt.applied) return false;
  if (current) await deps.knowledge.delete({ ids: [current.id] });
  if (result.vector.length) await deps.knowledge.upsert([entry(synopsis.id, 'summary', job.namespace, job.sessionId, result.vector, true, synopsis.createdAt)]);
  return true;
}

/** A batch summary or synopsis from its result; its id depends on its sources, so a re-derivation is a new artefact. */
function summaryOf(level: SummaryLevel, result: ResultOf<'summarize' | 'consolidate'>, times: Map<string, number>, now: number): Summary {
  const { job } = result;
  return {
    id: stableId(level === 'batch' ? 'sum' : 'syn', job.key, ...result.sourceMessageIds),
    sessionId: job.sessionId,
    namespace: job.namespace,
    level,
    fromSeq: job.fromSeq,
    toSeq: job.toSeq,
    text: result.text,
    sourceMessageIds: result.sourceMessageIds,
    createdAt: newestTime(times, now),
    degraded: result.degraded,
  };
}

function entry(id: string, kind: KnowledgeEntry['kind'], namespace: string, sessionId: string | null, vector: number[], current: boolean, createdAt: number): KnowledgeEntry {
  return { id, kind, namespace, sessionId, vector, current, createdAt };
}

import type { Fact, JobRecord } from '../../domain/derived.js';
import type { DeriveResult, JobRef } from '../../domain/jobs.js';
import { planDegradedRemoval } from '../../engine/derivation/plan-degraded-removal.js';
import { normalizeSlotPart, reconcileFacts, slotKey } from '../../engine/derivation/reconcile-facts.js';
import type { KnowledgeEntry } from '../../ports/knowledge-base.js';
import type { MemoryDeps } from '../deps.js';

type ResultOf<T extends JobRef['type']> = Extract<DeriveResult, { job: { type: T } }>;

/** The ledger record of an applied result, with the token usage its models reported. */
export function jobRecordOf(result: DeriveResult, now: number): JobRecord {
  const { job } = result;
  return { key: job.key, type: job.type, sessionId: job.sessionId, fromSeq: job.fromSeq, toSeq: job.toSeq, appliedAt: now, ...(result.usage ? { usage: result.usage } : {}) };
}

/**
 * Replaces a degraded summary or synopsis in place: same id, range, provenance and date, the
 * re-derived text, no longer degraded. Idempotent (guarded by the re-derivation's key); when
 * the degraded artefact is gone, only its marker is cleared.
 */
export async function applyRederivedSummary(deps: MemoryDeps, result: ResultOf<'summarize' | 'consolidate'>): Promise<boolean> {
  const { job } = result;
  const target = job.rederive;
  if (!target?.summaryId) return false;
  const old = (await deps.store.summaries({ ids: [target.summaryId] }))[0];
  const now = deps.clock.now();
  const clearMarker = { type: 'delete' as const, jobs: [target.markerKey] };
  if (!old?.degraded) {
    await deps.store.write({ unlessJobApplied: job.key, ops: [clearMarker] });
    return false;
  }
  const receipt = await deps.store.write({
    unlessJobApplied: job.key,
    ops: [clearMarker, { type: 'putSummaries', summaries: [{ ...old, text: result.text, degraded: false }] }, { type: 'recordJobs', jobs: [jobRecordOf(result, now)] }],
  });
  if (!receipt.applied) return false;
  if (result.vector.length) await deps.knowledge.upsert([entry(old.id, 'summary', old.namespace, old.sessionId, result.vector, true, old.createdAt)]);
  return true;
}

/**
 * Replaces the facts a degraded ingest produced from a range of turns by the re-derived ones:
 * degraded facts of those turns are taken back (see planDegradedRemoval), then the new facts
 * are reconciled as usual (supersede, merge, add). Non-degraded facts and other slots keep
 * their history. One store write, guarded by the re-derivation's key; the marker is cleared.
 */
export async function applyRederivedFacts(deps: MemoryDeps, result: ResultOf<'ingest'>): Promise<boolean> {
  const { job } = result;
  if (!job.rederive) return false;
  const turns = await deps.store.messages({ sessionId: job.sessionId, fromSeq: job.fromSeq, toSeq: job.toSeq });
  const ids = new Set(turns.map((t) => t.id));
  const degraded = ids.size ? (await deps.store.facts({ namespace: job.namespace, sourceMessageIds: [...ids], includeSuperseded: true })).filter((f) => f.degraded) : [];
  const removal = planDegradedRemoval({ degraded, slotFacts: await slotFacts(deps, job.namespace, degraded, true), messageIds: ids });
  const facts = result.facts.filter((f) => f.sourceMessageIds.length > 0 && f.sourceMessageIds.every((id) => ids.has(id)));
  const existing = overlay(await slotFacts(deps, job.namespace, facts, false), removal);
  const now = deps.clock.now();
  const plan = reconcileFacts({ namespace: job.namespace, existing, incoming: facts, now, degraded: false });
  const final = new Map(removal.put.map((f) => [f.id, f]));
  for (const fact of plan.put) final.set(fact.id, fact);
  const deleted = removal.deleted.filter((id) => !final.has(id));
  const receipt = await deps.store.write({
    unlessJobApplied: job.key,
    ops: [
      { type: 'delete', facts: deleted, jobs: [job.rederive.markerKey] },
      { type: 'putFacts', facts: [...final.values()] },
      { type: 'recordJobs', jobs: [jobRecordOf(result, now)] },
    ],
  });
  if (!receipt.applied) return false;
  const vectorByText = new Map(facts.map((f) => [f.text, f.vector]));
  if (deleted.length) await deps.knowledge.delete({ ids: deleted });
  const created = [...final.values()].filter((f) => plan.created.includes(f.id));
  const entries = created.map((f) => entry(f.id, 'fact', f.namespace, null, vectorByText.get(f.text) ?? [], f.validTo === undefined, f.createdAt)).filter((e) => e.vector.length > 0);
  if (entries.length) await deps.knowledge.upsert(entries);
  const flips = [...final.values()].filter((f) => !plan.created.includes(f.id)).map((f) => ({ id: f.id, current: f.validTo === undefined }));
  if (flips.length) await deps.knowledge.setCurrent(flips);
  return true;
}

/** Facts of the slots `facts` touch: all of them (history too) or only the current ones. */
async function slotFacts(deps: MemoryDeps, namespace: string, facts: readonly { subject: string; predicate: string }[], includeSuperseded: boolean): Promise<Fact[]> {
  const slots = new Map(facts.map((f) => [slotKey(f.subject, f.predicate), { subject: normalizeSlotPart(f.subject), predicate: normalizeSlotPart(f.predicate) }]));
  const lists = await Promise.all([...slots.values()].map((slot) => deps.store.facts({ namespace, ...slot, includeSuperseded })));
  return lists.flat();
}

/** The current facts as they will be once the removal is applied. */
function overlay(current: Fact[], removal: { deleted: string[]; put: Fact[] }): Fact[] {
  const byId = new Map(current.map((f) => [f.id, f]));
  for (const id of removal.deleted) byId.delete(id);
  for (const fact of removal.put) {
    if (fact.validTo === undefined) byId.set(fact.id, fact);
    else byId.delete(fact.id);
  }
  return [...byId.values()];
}

function entry(id: string, kind: KnowledgeEntry['kind'], namespace: string, sessionId: string | null, vector: number[], current: boolean, createdAt: number): KnowledgeEntry {
  return { id, kind, namespace, sessionId, vector, current, createdAt };
}

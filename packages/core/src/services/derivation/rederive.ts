import type { JobRecord, Summary } from '../../domain/derived.js';
import type { DeriveJob, RederiveTarget } from '../../domain/jobs.js';
import type { PendingJob } from '../../domain/retrieval.js';
import type { Session } from '../../domain/session.js';
import type { MemoryDeps } from '../deps.js';
import { relatedFacts, toTurn } from './schedule.js';

const DEGRADED = '#degraded';
const REDERIVE = '#rederive@';

/**
 * The ledger key recording that the result of job `key` was applied degraded. It sits beside
 * the job's own key (which keeps the job from being planned again) until a re-derivation
 * replaces the degraded artefacts and deletes it.
 */
export function degradedMarkerKey(key: string): string {
  return `${key}${DEGRADED}`;
}

export function isDegradedMarker(record: JobRecord): boolean {
  return record.key.endsWith(DEGRADED);
}

/** One key per marker, so that a range degraded again after a forget is re-derived again. */
function rederiveKey(marker: JobRecord): string {
  return `${marker.key.slice(0, -DEGRADED.length)}${REDERIVE}${marker.appliedAt}`;
}

/**
 * Plans a re-derivation job per degraded marker of a session: facts of a degraded ingest
 * range, a degraded batch summary, a degraded synopsis. Markers whose artefact is gone (or
 * was replaced meanwhile) are deleted. Jobs already pending (not failed) are skipped.
 */
export async function planRederiveJobs(deps: MemoryDeps, sessionId: string, pending: readonly PendingJob[]): Promise<DeriveJob[]> {
  const session = (await deps.store.sessions({ ids: [sessionId] }))[0];
  if (!session) return [];
  const markers = (await deps.store.jobs({ sessionId })).filter(isDegradedMarker);
  const active = new Set(pending.filter((p) => p.state !== 'failed').map((p) => p.key));
  const jobs: DeriveJob[] = [];
  const stale: string[] = [];
  for (const marker of markers) {
    if (active.has(rederiveKey(marker))) continue;
    const job = await planOne(deps, session, marker);
    if (job) jobs.push(job);
    else stale.push(marker.key);
  }
  if (stale.length) await deps.store.write({ ops: [{ type: 'delete', jobs: stale }] });
  return jobs;
}

async function planOne(deps: MemoryDeps, session: Session, marker: JobRecord): Promise<DeriveJob | undefined> {
  const base = { key: rederiveKey(marker), sessionId: session.id, namespace: session.namespace, fromSeq: marker.fromSeq, toSeq: marker.toSeq };
  const target: RederiveTarget = { markerKey: marker.key };
  const turns = (await deps.store.messages({ sessionId: session.id, fromSeq: marker.fromSeq, toSeq: marker.toSeq })).map(toTurn);
  if (marker.type === 'ingest') {
    if (!turns.length) return undefined;
    return { ...base, type: 'ingest', rederive: target, turns, knownFacts: await relatedFacts(deps, session.namespace, turns) };
  }
  if (marker.type === 'summarize') {
    const batches = await deps.store.summaries({ sessionId: session.id, level: 'batch' });
    const summary = batches.find((s) => s.fromSeq === marker.fromSeq && s.toSeq === marker.toSeq && s.degraded);
    if (!summary) return undefined;
    const previous = await previousSummaryText(deps, session.id, batches, marker.fromSeq);
    return { ...base, type: 'summarize', rederive: { ...target, summaryId: summary.id }, turns, ...(previous ? { previousSummary: previous } : {}) };
  }
  const synopsis = (await deps.store.summaries({ sessionId: session.id, level: 'synopsis' })).find((s) => s.toSeq === marker.toSeq && s.degraded);
  if (!synopsis) return undefined;
  // Batch summaries are kept after folding, so the synopsis is re-derived from all of them.
  const folded = (await deps.store.summaries({ sessionId: session.id, level: 'batch' })).filter((s) => s.toSeq <= synopsis.toSeq);
  return {
    ...base,
    type: 'consolidate',
    rederive: { ...target, summaryId: synopsis.id },
    summaries: folded.map((s) => ({ id: s.id, fromSeq: s.fromSeq, toSeq: s.toSeq, text: s.text, sourceMessageIds: s.sourceMessageIds })),
  };
}

async function previousSummaryText(deps: MemoryDeps, sessionId: string, batches: Summary[], fromSeq: number): Promise<string | undefined> {
  const before = batches.filter((s) => s.toSeq < fromSeq).sort((a, b) => b.toSeq - a.toSeq)[0];
  if (before) return before.text;
  const synopsis = (await deps.store.summaries({ sessionId, level: 'synopsis' }))[0];
  return synopsis && synopsis.toSeq < fromSeq ? synopsis.text : undefined;
}

/**
 * Plans and enqueues the re-derivation of the given sessions. `settled`: sessions with no
 * degraded artefact left and no re-derivation pending.
 */
export async function enqueueRederive(deps: MemoryDeps, sessionIds: readonly string[]): Promise<{ jobs: number; settled: string[] }> {
  const pending = await deps.queue.pending();
  const settled: string[] = [];
  let count = 0;
  for (const sessionId of sessionIds) {
    const jobs = await planRederiveJobs(deps, sessionId, pending);
    const isRunning = pending.some((p) => p.sessionId === sessionId && p.state !== 'failed' && p.key.includes(REDERIVE));
    if (!jobs.length && !isRunning) settled.push(sessionId);
    if (jobs.length) await deps.queue.enqueue(jobs);
    count += jobs.length;
  }
  return { jobs: count, settled };
}

/** Degraded markers left per session (sessions without any are omitted). */
export async function countDegradedMarkers(deps: MemoryDeps, sessionIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const sessionId of sessionIds) {
    const n = (await deps.store.jobs({ sessionId })).filter(isDegradedMarker).length;
    if (n) counts.set(sessionId, n);
  }
  return counts;
}

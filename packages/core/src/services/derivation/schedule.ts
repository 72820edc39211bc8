import type { Summary } from '../../domain/derived.js';
import type { DeriveJob, KnownFact, TranscriptTurn } from '../../domain/jobs.js';
import type { StoredMessage } from '../../domain/message.js';
import type { PendingJob } from '../../domain/retrieval.js';
import type { Session } from '../../domain/session.js';
import { isCovered, type SeqRange } from '../../engine/derivation/coverage.js';
import { jobKey } from '../../engine/ids.js';
import { planConsolidation, planIngest, planSummaries } from '../../engine/derivation/plan-derivation.js';
import type { MemoryDeps } from '../deps.js';
import { chainedThrough, loadWorkingTier, type WorkingTier } from '../session-view.js';
import { turnTokens } from '../turn-tokens.js';

/**
 * Plans the derivation a session needs now and enqueues it: ingest (embed + extract facts)
 * of new turns, summaries of batches leaving the immediate tier, consolidation of old
 * summaries into the synopsis. Safe to call any time, from any number of places: planning
 * depends only on stored state and pending jobs, keys are deterministic, the queue dedupes
 * and the apply step is idempotent.
 */
export async function scheduleSession(deps: MemoryDeps, sessionId: string): Promise<void> {
  const session = (await deps.store.sessions({ ids: [sessionId] }))[0];
  if (!session) return;
  const [tier, pending] = await Promise.all([loadWorkingTier(deps, session), deps.queue.pending(sessionId)]);
  const active = pending.filter((p) => p.state !== 'failed');
  const view = { session, ...tier };
  const jobs = [...(await planIngestJobs(deps, session, active)), ...(await planSummaryJobs(deps, view, active)), ...(await planConsolidationJobs(deps, view, active))];
  if (jobs.length) await deps.queue.enqueue(jobs);
}

/** The working tier of a session, as planning reads it. */
interface PlanningView extends WorkingTier {
  session: Session;
}

/**
 * Turns planned per scheduling, for ingest and for summaries each: a long backlog (an import)
 * is planned a slice at a time, the next slice when a job of this one is applied, so no single
 * planning step (nor the chat turn waiting on it) pays for the whole backlog.
 */
const PLAN_SLICE_TURNS = 400;

/** Turns that pending jobs of one type cover. */
function pendingTurns(pending: readonly PendingJob[], type: PendingJob['type']): number {
  return pending.reduce((sum, p) => (p.type === type ? sum + p.toSeq - p.fromSeq + 1 : sum), 0);
}

async function planIngestJobs(deps: MemoryDeps, session: Session, pending: PendingJob[]): Promise<DeriveJob[]> {
  const [last] = await deps.store.jobs({ sessionId: session.id, type: 'ingest', last: 1 });
  const pendingThrough = Math.max(0, ...pending.filter((p) => p.type === 'ingest').map((p) => p.toSeq));
  const through = Math.max(last?.toSeq ?? 0, pendingThrough);
  const batch = deps.policy.longTerm.ingestBatchMessages;
  // a slice is already queued: the next is planned when one of its jobs is applied
  if (pendingTurns(pending, 'ingest') >= PLAN_SLICE_TURNS) return [];
  const ranges = planIngest(session.lastSeq, through, batch).slice(0, Math.max(1, Math.floor(PLAN_SLICE_TURNS / batch)));
  const jobs: DeriveJob[] = [];
  for (const range of ranges) {
    const turns = (await deps.store.messages({ sessionId: session.id, ...range })).map(toTurn);
    const knownFacts = await relatedFacts(deps, session.namespace, turns);
    jobs.push({ ...ref('ingest', session, range), type: 'ingest', turns, knownFacts });
  }
  return jobs;
}

/** Current facts lexically related to the turns, so an extractor can reuse slot names. */
export async function relatedFacts(deps: MemoryDeps, namespace: string, turns: TranscriptTurn[]): Promise<KnownFact[]> {
  // a few hundred characters find the slots that matter; thousands make a costly search (every posting of every term is read on PostgreSQL)
  const text = turns
    .filter((t) => t.role === 'user')
    .map((t) => t.content)
    .join(' ')
    .slice(0, 400);
  if (!text.trim()) return [];
  const isUnnamed = turns.some((t) => t.role === 'user' && !t.name?.trim());
  const [hits, named] = await Promise.all([
    deps.lexical.search({ namespace, text, kinds: ['fact'], k: 20 }),
    // an unnamed user's current name, so that what they say is retold by it (one slot: one row); named speakers need none
    isUnnamed ? deps.store.facts({ namespace, subject: 'user', predicate: 'name', last: 1 }) : [],
  ]);
  const facts = hits.length ? await deps.store.facts({ namespace, ids: hits.map((h) => h.id) }) : [];
  const found = new Set(facts.map((f) => f.id));
  return [...facts, ...named.filter((f) => !found.has(f.id))].map((f) => ({ id: f.id, subject: f.subject, predicate: f.predicate, object: f.object, text: f.text }));
}

/**
 * Plans summaries of the turns that neither an applied summary nor a pending summarize job
 * covers. Only turns after the run those two cover together are read (holes inside it stop
 * the run, so they are read too): the cost follows what is new, not the backlog.
 */
async function planSummaryJobs(deps: MemoryDeps, view: PlanningView, pending: PendingJob[]): Promise<DeriveJob[]> {
  const pendingRanges: SeqRange[] = pending.filter((p) => p.type === 'summarize');
  if (pendingTurns(pending, 'summarize') >= PLAN_SLICE_TURNS) return [];
  const covered: SeqRange[] = [...(view.synopsis ? [{ fromSeq: 1, toSeq: view.synopsis.toSeq }] : []), ...view.summaries, ...pendingRanges];
  const planFrom = chainedThrough(view.coveredThrough, covered);
  const { immediate, working } = deps.policy;
  const toSeq = planFrom + PLAN_SLICE_TURNS + immediate.maxMessages;
  const candidates = (await deps.store.messages({ sessionId: view.session.id, fromSeq: planFrom + 1, toSeq })).filter((m) => !isCovered(m.seq, covered));
  const costs = candidates.map((m) => ({ seq: m.seq, tokens: turnTokens(deps, m) }));
  const ranges = planSummaries(costs, covered, { ...immediate, batchMessages: working.batchMessages }, view.session.lastSeq > toSeq);
  return ranges.map((range) => {
    const turns = candidates.filter((m) => m.seq >= range.fromSeq && m.seq <= range.toSeq).map(toTurn);
    const previous = previousSummary(view, range.fromSeq);
    return {
      ...ref('summarize', view.session, range),
      type: 'summarize' as const,
      turns,
      ...(previous ? { previousSummary: previous.text } : {}),
    };
  });
}

function previousSummary(view: PlanningView, fromSeq: number): Summary | undefined {
  const before = view.summaries.filter((s) => s.toSeq < fromSeq).sort((a, b) => b.toSeq - a.toSeq)[0];
  return before ?? view.synopsis;
}

async function planConsolidationJobs(deps: MemoryDeps, view: PlanningView, pending: PendingJob[]): Promise<DeriveJob[]> {
  const synopsisTo = view.synopsis?.toSeq ?? 0;
  // One consolidation at a time. A listed job the synopsis already reaches has been applied:
  // its apply step is what called us, before the queue could drop it from `pending`.
  if (pending.some((p) => p.type === 'consolidate' && p.toSeq > synopsisTo)) return [];
  const { maxSummaries } = deps.policy.working;
  if (view.summaries.filter((s) => s.fromSeq > synopsisTo).length <= maxSummaries) return [];
  const fold = planConsolidation(synopsisTo, view.summaries, await firstUncoveredBetweenSummaries(deps, view), maxSummaries);
  const last = fold[fold.length - 1];
  if (!last) return [];
  const summaries = view.summaries.filter((s) => fold.some((f) => f.id === s.id));
  return [
    {
      ...ref('consolidate', view.session, { fromSeq: 1, toSeq: last.toSeq }),
      type: 'consolidate',
      ...(view.synopsis ? { synopsis: { id: view.synopsis.id, text: view.synopsis.text, toSeq: view.synopsis.toSeq } } : {}),
      summaries: summaries.map((s) => ({ id: s.id, fromSeq: s.fromSeq, toSeq: s.toSeq, text: s.text, sourceMessageIds: s.sourceMessageIds })),
    },
  ];
}

/**
 * The first turn between the applied summaries that none of them covers, as a one-element
 * list (or none): consolidation folds only up to it. Each gap between summaries is checked
 * with a one-row read, oldest first; a gap left by forgotten turns holds none and is passed.
 */
async function firstUncoveredBetweenSummaries(deps: MemoryDeps, view: PlanningView): Promise<number[]> {
  let reach = view.synopsis?.toSeq ?? 0;
  for (const summary of [...view.summaries].sort((a, b) => a.fromSeq - b.fromSeq)) {
    if (summary.fromSeq > reach + 1) {
      const [first] = await deps.store.messages({ sessionId: view.session.id, fromSeq: reach + 1, toSeq: summary.fromSeq - 1, last: 1 });
      if (first) return [first.seq];
    }
    reach = Math.max(reach, summary.toSeq);
  }
  return [];
}

function ref<T extends DeriveJob['type']>(type: T, session: Session, range: SeqRange) {
  return {
    key: jobKey(type, session.id, range.fromSeq, range.toSeq),
    sessionId: session.id,
    namespace: session.namespace,
    fromSeq: range.fromSeq,
    toSeq: range.toSeq,
  };
}

export function toTurn(message: StoredMessage): TranscriptTurn {
  return {
    id: message.id,
    seq: message.seq,
    role: message.role,
    content: message.content,
    createdAt: message.createdAt,
    ...(message.name === undefined ? {} : { name: message.name }),
  };
}

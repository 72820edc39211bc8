import type { Summary } from '../domain/derived.js';
import type { DeriveJob, KnownFact, TranscriptTurn } from '../domain/jobs.js';
import type { StoredMessage } from '../domain/message.js';
import type { PendingJob } from '../domain/retrieval.js';
import type { Session } from '../domain/session.js';
import { isCovered, type SeqRange } from '../engine/coverage.js';
import { jobKey } from '../engine/ids.js';
import { planConsolidation, planIngest, planSummaries } from '../engine/plan-derivation.js';
import { MESSAGE_OVERHEAD_TOKENS, type MemoryDeps } from './deps.js';
import { loadSessionView, type SessionView } from './session-view.js';

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
  const [view, pending] = await Promise.all([loadSessionView(deps, session), deps.queue.pending(sessionId)]);
  const active = pending.filter((p) => p.state !== 'failed');
  const jobs = [
    ...(await planIngestJobs(deps, session, active)),
    ...planSummaryJobs(deps, view, active),
    ...planConsolidationJobs(deps, view, active),
  ];
  if (jobs.length) await deps.queue.enqueue(jobs);
}

async function planIngestJobs(deps: MemoryDeps, session: Session, pending: PendingJob[]): Promise<DeriveJob[]> {
  const [last] = await deps.store.jobs({ sessionId: session.id, type: 'ingest', last: 1 });
  const pendingThrough = Math.max(0, ...pending.filter((p) => p.type === 'ingest').map((p) => p.toSeq));
  const through = Math.max(last?.toSeq ?? 0, pendingThrough);
  const ranges = planIngest(session.lastSeq, through, deps.policy.longTerm.ingestBatchMessages);
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
  // a few hundred characters find the slots that matter; thousands make a costly FTS query
  const text = turns.filter((t) => t.role === 'user').map((t) => t.content).join(' ').slice(0, 400);
  if (!text.trim()) return [];
  const hits = await deps.store.searchLexical({ namespace, text, kinds: ['fact'], k: 20 });
  if (!hits.length) return [];
  const facts = await deps.store.facts({ namespace, ids: hits.map((h) => h.id) });
  return facts.map((f) => ({ id: f.id, subject: f.subject, predicate: f.predicate, object: f.object, text: f.text }));
}

function planSummaryJobs(deps: MemoryDeps, view: SessionView, pending: PendingJob[]): DeriveJob[] {
  const pendingRanges: SeqRange[] = pending.filter((p) => p.type === 'summarize');
  const candidates = view.uncovered.filter((m) => !isCovered(m.seq, pendingRanges));
  const covered: SeqRange[] = [
    ...(view.synopsis ? [{ fromSeq: 1, toSeq: view.synopsis.toSeq }] : []),
    ...view.summaries,
    ...pendingRanges,
  ];
  const costs = candidates.map((m) => ({ seq: m.seq, tokens: turnTokens(deps, m) }));
  const { immediate, working } = deps.policy;
  const ranges = planSummaries(costs, covered, { ...immediate, batchMessages: working.batchMessages });
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

function previousSummary(view: SessionView, fromSeq: number): Summary | undefined {
  const before = view.summaries.filter((s) => s.toSeq < fromSeq).sort((a, b) => b.toSeq - a.toSeq)[0];
  return before ?? view.synopsis;
}

function planConsolidationJobs(deps: MemoryDeps, view: SessionView, pending: PendingJob[]): DeriveJob[] {
  const synopsisTo = view.synopsis?.toSeq ?? 0;
  // One consolidation at a time. A listed job the synopsis already reaches has been applied:
  // its apply step is what called us, before the queue could drop it from `pending`.
  if (pending.some((p) => p.type === 'consolidate' && p.toSeq > synopsisTo)) return [];
  const fold = planConsolidation(synopsisTo, view.summaries, view.uncovered.map((m) => m.seq), deps.policy.working.maxSummaries);
  const last = fold[fold.length - 1];
  if (!last) return [];
  const summaries = view.summaries.filter((s) => fold.some((f) => f.id === s.id));
  return [
    {
      ...ref('consolidate', view.session, { fromSeq: 1, toSeq: last.toSeq }),
      type: 'consolidate',
      ...(view.synopsis
        ? { synopsis: { id: view.synopsis.id, text: view.synopsis.text, toSeq: view.synopsis.toSeq, sourceMessageIds: view.synopsis.sourceMessageIds } }
        : {}),
      summaries: summaries.map((s) => ({ id: s.id, fromSeq: s.fromSeq, toSeq: s.toSeq, text: s.text, sourceMessageIds: s.sourceMessageIds })),
    },
  ];
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

/** Tokens a stored turn costs in a prompt: content, tool calls and per-message overhead. */
export function turnTokens(deps: Pick<MemoryDeps, 'tokens'>, message: StoredMessage): number {
  const calls = message.toolCalls?.length ? deps.tokens.count(JSON.stringify(message.toolCalls)) : 0;
  return deps.tokens.count(message.content) + calls + MESSAGE_OVERHEAD_TOKENS;
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

import type { DeriveResult } from '../../domain/jobs.js';
import type { StoredMessage } from '../../domain/message.js';
import type { Topic, TurnLink } from '../../domain/topic.js';
import { planAttachment } from '../../engine/topics/plan-attachment.js';
import type { UsageListener } from '../../ports/models.js';
import type { ThreadCandidate, ThreadRequest } from '../../ports/thread-selector.js';
import type { TopicOp } from '../../ports/topic-store.js';
import type { MemoryDeps } from '../deps.js';
import { decayOps } from './topic-decay.js';

/** Links before a batch read to attach it: where its turns follow on, and the replies thread candidates come from. */
const LINK_WINDOW = 256;

/**
 * Places the turns of an applied ingest job in the conversation tree and in topics, reusing
 * the vectors ingestion computed, then lets the session's topics decay ({@link decayOps}).
 * Idempotent: turns already linked are skipped, so a replayed result changes nothing. Runs
 * under the apply lock. `onUsage` hears of the thread selector's model calls.
 */
export async function attachIngested(deps: MemoryDeps, result: DeriveResult, onUsage?: UsageListener): Promise<void> {
  const { job } = result;
  if (result.job.type !== 'ingest' || job.rederive || !('turnVectors' in result)) return;
  // The batch's own links (a replay) and the newest links before it: a turn attaches after
  // recent turns, and thread candidates are recent replies, so the rest of the tree is not read.
  const [messages, inBatch, before, topics] = await Promise.all([
    deps.store.messages({ sessionId: job.sessionId, fromSeq: job.fromSeq, toSeq: job.toSeq }),
    deps.topics.links({ sessionId: job.sessionId, fromSeq: job.fromSeq, toSeq: job.toSeq }),
    deps.topics.links({ sessionId: job.sessionId, toSeq: job.fromSeq - 1, last: LINK_WINDOW }),
    deps.topics.topics({ sessionId: job.sessionId }),
  ]);
  const links = [...before, ...inBatch];
  const linked = new Set(inBatch.map((l) => l.messageId));
  const fresh = messages.filter((m) => !linked.has(m.id));
  if (fresh.length === 0) return;
  const vectors = new Map(result.turnVectors.map((t) => [t.id, t.vector]));
  const turns = fresh.map((m) => ({ turn: toTurn(m), vector: vectors.get(m.id) ?? [] }));
  const candidates = await threadCandidates(deps, topics, links);
  const requests: ThreadRequest[] = turns.filter((t) => t.turn.role === 'user').map((t) => ({ ...t, candidates }));
  const chosen = await selectParents(deps, requests, job.sessionId, onUsage);
  const plan = planAttachment({
    sessionId: job.sessionId,
    namespace: job.namespace,
    topics,
    links,
    turns,
    chosenParents: new Map(requests.map((r, i) => [r.turn.id, chosen[i] ?? null])),
    policy: deps.policy.topics,
  });
  const ops: TopicOp[] = [{ type: 'putTopics', topics: plan.topics }, { type: 'putLinks', links: plan.links }, ...(await decayOps(deps, topics, plan))];
  await deps.topics.writeTopics(ops);
}

/**
 * The selector's choices; linear (all null) when it fails. Choosing a parent is a soft
 * decision: a model that is down or answers nonsense must not stop derivation from landing,
 * so the failure is reported (`deps.reportError`) and the turns attach linearly.
 */
async function selectParents(deps: MemoryDeps, requests: ThreadRequest[], sessionId: string, onUsage: UsageListener | undefined): Promise<(string | null)[]> {
  if (requests.length === 0) return [];
  try {
    return await deps.threads.selectParents(requests, onUsage);
  } catch (error) {
    deps.reportError({ kind: 'thread-selector', error, sessionId });
    return requests.map(() => null);
  }
}

/** The newest reply of each of the most recently active topics (among the links read: the newest LINK_WINDOW before the batch). */
async function threadCandidates(deps: MemoryDeps, topics: readonly Topic[], links: readonly TurnLink[]): Promise<ThreadCandidate[]> {
  const newestReply = new Map<string, string>();
  for (const link of links) if (link.role === 'assistant') newestReply.set(link.topicId, link.messageId);
  const recent = [...topics]
    .filter((t) => newestReply.has(t.id))
    .sort((a, b) => b.lastActiveAt - a.lastActiveAt)
    .slice(0, deps.policy.topics.threadCandidates);
  if (recent.length === 0) return [];
  const replies = await deps.store.messages({ ids: recent.map((t) => newestReply.get(t.id) ?? '') });
  const text = new Map(replies.map((m) => [m.id, m.content]));
  return recent.flatMap((t) => {
    const messageId = newestReply.get(t.id) ?? '';
    return text.has(messageId) ? [{ messageId, topicId: t.id, topicTitle: t.title, text: text.get(messageId) ?? '', vector: t.centroid }] : [];
  });
}

function toTurn(m: StoredMessage) {
  return { id: m.id, seq: m.seq, role: m.role, content: m.content, createdAt: m.createdAt, ...(m.name ? { name: m.name } : {}) };
}

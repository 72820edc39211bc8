import type { SearchHit } from '../../domain/retrieval.js';
import type { Session } from '../../domain/session.js';
import type { ThreadStep, Topic, TopicStorage } from '../../domain/topic.js';
import { assessTopic, type TopicDecay } from '../../engine/topics/decay.js';
import { renderMermaid } from '../../engine/topics/render-mermaid.js';
import type { MemoryDeps } from '../deps.js';

/** A topic with its place on the decay schedule and its storage: what `strata inspect` shows. */
export type TopicReport = Omit<Topic, 'centroid' | 'vectorCount'> & TopicDecay & Omit<TopicStorage, 'topicId'> & { isActive: boolean };

/** The topics of a session, oldest first, assessed at the clock's now. */
export async function listTopics(deps: MemoryDeps, session: Session): Promise<TopicReport[]> {
  const [topics, storage] = await Promise.all([deps.topics.topics({ sessionId: session.id }), deps.topics.topicStorage({ sessionId: session.id })]);
  const bySession = new Map(storage.map((s) => [s.topicId, s]));
  const now = deps.clock.now();
  return topics.map((topic) => {
    const { centroid: _c, vectorCount: _v, ...rest } = topic;
    const { topicId: _t, ...stored } = bySession.get(topic.id) ?? { topicId: topic.id, activeMessages: 0, compressedMessages: 0, textBytes: 0, storedBytes: 0 };
    return { ...rest, ...assessTopic(topic, now, deps.policy.decay), ...stored, isActive: topic.coldSince === undefined };
  });
}

/** The session's conversation tree as a Mermaid flowchart. */
export async function sessionMermaid(deps: MemoryDeps, session: Session): Promise<string> {
  const [messages, links, topics] = await Promise.all([deps.store.messages({ sessionId: session.id }), deps.topics.links({ sessionId: session.id }), deps.topics.topics({ sessionId: session.id })]);
  return renderMermaid(messages, links, topics);
}

/**
 * Adds to each turn hit the turns it follows in its thread, nearest last, at most `depth`
 * (summaries and facts get an empty path). One links read and one messages read per level.
 */
export async function withThreadPaths(deps: MemoryDeps, hits: readonly SearchHit[], depth: number): Promise<SearchHit[]> {
  const paths = new Map<string, string[]>(hits.filter((h) => h.kind === 'turn').map((h) => [h.id, []]));
  let frontier = new Map<string, string>([...paths.keys()].map((id) => [id, id]));
  for (let level = 0; level < depth && frontier.size > 0; level++) {
    const links = await deps.topics.links({ messageIds: [...new Set(frontier.values())] });
    const parentOf = new Map(links.map((l) => [l.messageId, l.parentId]));
    const next = new Map<string, string>();
    for (const [hitId, at] of frontier) {
      const parent = parentOf.get(at);
      if (!parent) continue;
      paths.get(hitId)?.unshift(parent);
      next.set(hitId, parent);
    }
    frontier = next;
  }
  const ids = [...new Set([...paths.values()].flat())];
  const messages = ids.length ? await deps.store.messages({ ids }) : [];
  const byId = new Map(messages.map((m): [string, ThreadStep] => [m.id, { id: m.id, seq: m.seq, role: m.role, content: m.content, createdAt: m.createdAt }]));
  return hits.map((hit) => ({ ...hit, thread: (paths.get(hit.id) ?? []).map((id) => byId.get(id)).filter((s): s is ThreadStep => s !== undefined) }));
}

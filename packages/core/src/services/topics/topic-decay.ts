import type { Topic } from '../../domain/topic.js';
import { planDecay, touchTopics } from '../../engine/topics/decay.js';
import { StrataError } from '../../errors/strata-error.js';
import type { TopicOp } from '../../ports/topic-store.js';
import type { MemoryDeps } from '../deps.js';

/**
 * What `memory.topics.decay()` did: the ids of the topics it moved out of the active set, and
 * how many of their turns it compressed.
 */
export interface DecayReport {
  /** Topics that left the active set (their turns are now stored compressed). */
  cooled: string[];
  /** Messages compressed. */
  compressed: number;
}

/**
 * The writes that move topics under the floor out of the active set and compress their turns.
 * The most recently active topic of each session stays active: it is where the conversation is.
 */
export async function decayOps(deps: MemoryDeps, topics: readonly Topic[]): Promise<TopicOp[]> {
  const cooled = planDecay(topics, deps.clock.now(), deps.policy.decay, newestPerSession(topics));
  if (cooled.length === 0) return [];
  const links = await deps.topics.links({ topicIds: cooled.map((t) => t.id) });
  return [
    { type: 'putTopics', topics: cooled },
    { type: 'compress', messageIds: links.map((l) => l.messageId) },
  ];
}

/** Applies decay now to the topics of one session, or of every session. */
export async function sweepTopics(deps: MemoryDeps, sessionId?: string): Promise<DecayReport> {
  const topics = await deps.topics.topics(sessionId === undefined ? {} : { sessionId });
  const ops = await decayOps(deps, topics);
  if (ops.length) await deps.topics.writeTopics(ops);
  const cooled = ops.flatMap((op) => (op.type === 'putTopics' ? op.topics.map((t) => t.id) : []));
  return { cooled, compressed: ops.reduce((n, op) => n + (op.type === 'compress' ? op.messageIds.length : 0), 0) };
}

/**
 * Records an access to the topics of these messages (a search or a context returned them):
 * one more access each, active again; cold ones have their turns restored verbatim.
 * @returns the ids of the topics that were cold.
 */
export async function touchTopicsOf(deps: MemoryDeps, messageIds: readonly string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const links = await deps.topics.links({ messageIds: [...new Set(messageIds)] });
  const topicIds = [...new Set(links.map((l) => l.topicId))];
  if (topicIds.length === 0) return [];
  return touch(deps, await deps.topics.topics({ ids: topicIds }));
}

/** Brings one topic back to the active set (an access), restoring its turns. */
export async function restoreTopic(deps: MemoryDeps, topicId: string): Promise<{ restored: number }> {
  const topic = await requireTopic(deps, topicId);
  const links = topic.coldSince === undefined ? [] : await deps.topics.links({ topicIds: [topic.id] });
  await touch(deps, [topic]);
  return { restored: links.length };
}

/** Sets a topic's importance (0-1), which scales its priority. */
export async function setImportance(deps: MemoryDeps, topicId: string, importance: number): Promise<Topic> {
  if (!(importance >= 0 && importance <= 1)) {
    throw new StrataError('INVALID_INPUT', `importance must be a number from 0 to 1 (got ${String(importance)})`, { hint: 'Pass 0 (unimportant) to 1 (keep active longest).' });
  }
  const topic = { ...(await requireTopic(deps, topicId)), importance };
  await deps.topics.writeTopics([{ type: 'putTopics', topics: [topic] }]);
  return topic;
}

async function touch(deps: MemoryDeps, topics: readonly Topic[]): Promise<string[]> {
  const { topics: touched, returned } = touchTopics(topics, deps.clock.now());
  const links = returned.length ? await deps.topics.links({ topicIds: returned }) : [];
  await deps.topics.writeTopics([
    { type: 'putTopics', topics: touched },
    { type: 'restore', messageIds: links.map((l) => l.messageId) },
  ]);
  return returned;
}

async function requireTopic(deps: MemoryDeps, topicId: string): Promise<Topic> {
  const [topic] = typeof topicId === 'string' && topicId ? await deps.topics.topics({ ids: [topicId] }) : [];
  if (topic) return topic;
  throw new StrataError('NOT_FOUND', `no topic with id ${JSON.stringify(topicId)}`, { hint: 'List the topics of a session with memory.topics.list(sessionId).' });
}

function newestPerSession(topics: readonly Topic[]): Set<string> {
  const newest = new Map<string, Topic>();
  for (const t of topics) {
    const best = newest.get(t.sessionId);
    if (!best || t.lastActiveAt > best.lastActiveAt) newest.set(t.sessionId, t);
  }
  return new Set([...newest.values()].map((t) => t.id));
}

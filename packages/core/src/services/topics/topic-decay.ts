import type { Topic } from '../../domain/topic.js';
import { planDecay, touchTopics } from '../../engine/topics/decay.js';
import type { AttachPlan } from '../../engine/topics/plan-attachment.js';
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

/** Nothing attached: the decay of stored topics alone (a sweep). */
const NOTHING_ATTACHED: Pick<AttachPlan, 'topics' | 'links' | 'returned'> = { topics: [], links: [], returned: [] };

/**
 * The writes that move topics under the floor out of the active set and store every turn of a
 * topic cold after them compressed. The most recently active topic of each session stays
 * active: it is where the conversation is. After a batch of turns attached (`attached`, over
 * the session's `stored` topics; these writes follow its putTopics and putLinks), the batch's
 * own turns count among the topics' turns, and a cold topic a turn returned to is restored
 * only when it is over the floor now (or the session's newest): a turn from the past (a
 * history imported or appended in bulk derives oldest first) joins it and stays cold with
 * it. Restoring it would have every later job decompress and compress the whole topic again.
 */
export async function decayOps(deps: MemoryDeps, stored: readonly Topic[], attached = NOTHING_ATTACHED): Promise<TopicOp[]> {
  const byId = new Map(stored.map((t) => [t.id, t]));
  for (const t of attached.topics) byId.set(t.id, t);
  const after = [...byId.values()];
  const cooled = planDecay(after, deps.clock.now(), deps.policy.decay, newestPerSession(after));
  const cooledIds = new Set(cooled.map((t) => t.id));
  const coldBefore = new Map(stored.flatMap((t) => (t.coldSince === undefined ? [] : [[t.id, t.coldSince] as const])));
  const back = attached.returned.filter((id) => !cooledIds.has(id));
  // the stored turns of topics cold before are compressed already: only those of topics active until now are read
  const coolingNow = cooled.filter((t) => !coldBefore.has(t.id)).map((t) => t.id);
  const linksOf = async (topicIds: string[]) => (topicIds.length ? deps.topics.links({ topicIds }) : []);
  const [backLinks, coolingLinks] = await Promise.all([linksOf(back), linksOf(coolingNow)]);
  const coldAfter = new Set([...cooledIds, ...after.filter((t) => t.coldSince !== undefined).map((t) => t.id)]);
  const compress = [...coolingLinks.map((l) => l.messageId), ...attached.links.filter((l) => coldAfter.has(l.topicId)).map((l) => l.messageId)];
  return [
    ...(backLinks.length ? [{ type: 'restore' as const, messageIds: backLinks.map((l) => l.messageId) }] : []),
    // a topic that stays cold keeps the time it went cold
    ...(cooled.length ? [{ type: 'putTopics' as const, topics: cooled.map((t) => ({ ...t, coldSince: coldBefore.get(t.id) ?? t.coldSince })) }] : []),
    ...(compress.length ? [{ type: 'compress' as const, messageIds: [...new Set(compress)] }] : []),
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

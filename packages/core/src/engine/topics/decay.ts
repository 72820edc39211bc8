import type { Policy } from '../../config/policy.js';
import type { Topic } from '../../domain/topic.js';

export type DecayPolicy = Policy['decay'];
/** `long-term` once a topic's half-life reaches `policy.decay.longTermHalfLifeMs`, else `short-term`. */
export type MemoryType = 'short-term' | 'long-term';

/** A topic's place on the decay schedule at one instant. */
export interface TopicDecay {
  halfLifeMs: number;
  /** importance x 0.5^(age / half-life), 0-1. */
  priority: number;
  memoryType: MemoryType;
}

/** The half-life doubles every `accessesPerDoubling` accesses, up to `maxHalfLifeMs`. */
export function halfLifeOf(accessCount: number, policy: DecayPolicy): number {
  const doublings = Math.floor(Math.max(0, accessCount) / policy.accessesPerDoubling);
  // 2^doublings overflows to Infinity long after the cap is reached; min() handles both.
  return Math.min(policy.baseHalfLifeMs * 2 ** doublings, policy.maxHalfLifeMs);
}

/**
 * A topic's half-life, priority and memory type at `now` (epoch ms): priority is importance x
 * 0.5^(time since `lastActiveAt` / half-life), never above importance.
 */
export function assessTopic(topic: Pick<Topic, 'importance' | 'accessCount' | 'lastActiveAt'>, now: number, policy: DecayPolicy): TopicDecay {
  const halfLifeMs = halfLifeOf(topic.accessCount, policy);
  const age = Math.max(0, now - topic.lastActiveAt);
  return {
    halfLifeMs,
    priority: topic.importance * 0.5 ** (age / halfLifeMs),
    memoryType: halfLifeMs >= policy.longTermHalfLifeMs ? 'long-term' : 'short-term',
  };
}

/**
 * The active topics that leave the active set now: priority under the floor. Topics in
 * `keep` (the topic of the session's newest turn) stay whatever their priority. Already cold
 * topics are not listed: they return only when touched (see {@link touchTopics}).
 */
export function planDecay(topics: readonly Topic[], now: number, policy: DecayPolicy, keep: ReadonlySet<string> = new Set()): Topic[] {
  return topics.filter((t) => t.coldSince === undefined && !keep.has(t.id) && assessTopic(t, now, policy).priority < policy.floor).map((t) => ({ ...t, coldSince: now }));
}

/**
 * Topics accessed at `now` (a retrieval returned them, or a turn joined them): one more
 * access, active since now, back in the active set. Returns the updated topics and the ids
 * of those that were cold (their turns are to be restored).
 */
export function touchTopics(topics: readonly Topic[], now: number): { topics: Topic[]; returned: string[] } {
  const returned = topics.filter((t) => t.coldSince !== undefined).map((t) => t.id);
  const updated = topics.map((t) => {
    const { coldSince: _cold, ...rest } = t;
    return { ...rest, accessCount: t.accessCount + 1, lastActiveAt: Math.max(t.lastActiveAt, now) };
  });
  return { topics: updated, returned };
}

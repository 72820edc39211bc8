import type { TranscriptTurn } from '../../domain/jobs.js';
import type { Topic, TurnLink } from '../../domain/topic.js';
import { stableId } from '../ids.js';
import { cosineSimilarity, foldIntoCentroid } from '../../shared/vectors.js';

export interface AttachPolicy {
  similarityThreshold: number;
  defaultImportance: number;
  titleWords: number;
}

export interface AttachInput {
  sessionId: string;
  namespace: string;
  /** The session's topics and links as stored. */
  topics: readonly Topic[];
  links: readonly TurnLink[];
  /** Turns not linked yet, with their vectors ([] when none). */
  turns: readonly { turn: TranscriptTurn; vector: number[] }[];
  /** The selector's parent for user turns (absent or null: linear). */
  chosenParents: ReadonlyMap<string, string | null>;
  policy: AttachPolicy;
}

export interface AttachPlan {
  /** New and changed topics. */
  topics: Topic[];
  links: TurnLink[];
  /** Cold topics a new turn returned to: their turns are to be restored. */
  returned: string[];
}

/**
 * Places new turns in the conversation tree and in topics, in seq order. A user turn follows
 * the reply the selector chose (when it is an earlier assistant turn), else the newest reply
 * before it; it joins the most similar topic at or above the threshold, else opens one. Any
 * other turn follows the turn before it, in that turn's topic. Joining another topic than the
 * previous turn's counts as an access; a cold topic joined is back in the active set.
 */
export function planAttachment(input: AttachInput): AttachPlan {
  const topics = new Map(input.topics.map((t) => [t.id, t]));
  const changed = new Set<string>();
  const returned = new Set<string>();
  const links = [...input.links].sort((a, b) => a.seq - b.seq);
  const byId = new Map(links.map((l) => [l.messageId, l]));
  const out: TurnLink[] = [];
  for (const { turn, vector } of [...input.turns].sort((a, b) => a.turn.seq - b.turn.seq)) {
    // New turns usually come after every linked one: no need to filter then.
    const before = (links[links.length - 1]?.seq ?? 0) < turn.seq ? links : links.filter((l) => l.seq < turn.seq);
    const previous = before[before.length - 1];
    const parentId = turn.role === 'user' ? userParent(input, turn, before, byId) : (previous?.messageId ?? null);
    const parentTopic = parentId === null ? undefined : byId.get(parentId)?.topicId;
    const joined = turn.role === 'user' ? (similarTopic([...topics.values()], vector, input.policy) ?? (vector.length ? undefined : parentTopic)) : parentTopic;
    let topic = joined === undefined ? undefined : topics.get(joined);
    if (topic === undefined) topic = openTopic(input, turn);
    else if (turn.role === 'user' && topic.id !== previous?.topicId) {
      if (topic.coldSince !== undefined) returned.add(topic.id);
      const { coldSince: _cold, ...active } = topic;
      topic = { ...active, accessCount: topic.accessCount + 1 };
    }
    topic = {
      ...topic,
      lastActiveAt: Math.max(topic.lastActiveAt, turn.createdAt),
      centroid: foldIntoCentroid(topic.centroid, topic.vectorCount, vector),
      vectorCount: topic.vectorCount + (vector.length ? 1 : 0),
    };
    topics.set(topic.id, topic);
    changed.add(topic.id);
    const link: TurnLink = { messageId: turn.id, sessionId: input.sessionId, namespace: input.namespace, seq: turn.seq, role: turn.role, parentId, topicId: topic.id };
    const isInOrder = (links[links.length - 1]?.seq ?? 0) < link.seq;
    links.push(link);
    if (!isInOrder) links.sort((a, b) => a.seq - b.seq);
    byId.set(link.messageId, link);
    out.push(link);
  }
  return { topics: [...changed].map((id) => topics.get(id)).filter((t): t is Topic => t !== undefined), links: out, returned: [...returned] };
}

function userParent(input: AttachInput, turn: TranscriptTurn, before: readonly TurnLink[], byId: ReadonlyMap<string, TurnLink>): string | null {
  const chosen = input.chosenParents.get(turn.id);
  const candidate = chosen ? byId.get(chosen) : undefined;
  if (candidate && candidate.role === 'assistant' && candidate.seq < turn.seq) return candidate.messageId;
  for (let i = before.length - 1; i >= 0; i--) if (before[i]?.role === 'assistant') return before[i]?.messageId ?? null;
  return before[before.length - 1]?.messageId ?? null;
}

function similarTopic(topics: readonly Topic[], vector: readonly number[], policy: AttachPolicy): string | undefined {
  let best: { id: string; score: number } | undefined;
  for (const topic of topics) {
    const score = cosineSimilarity(vector, topic.centroid);
    if (score >= policy.similarityThreshold && (best === undefined || score > best.score)) best = { id: topic.id, score };
  }
  return best?.id;
}

function openTopic(input: AttachInput, turn: TranscriptTurn): Topic {
  const title = topicTitle(turn.content, input.policy.titleWords);
  return {
    id: stableId('top', input.sessionId, turn.id),
    sessionId: input.sessionId,
    namespace: input.namespace,
    title: title || `(turn ${turn.seq})`,
    importance: input.policy.defaultImportance,
    accessCount: 0,
    lastActiveAt: turn.createdAt,
    createdAt: turn.createdAt,
    centroid: [],
    vectorCount: 0,
  };
}

/** The first words of a turn, as a topic's title. */
export function topicTitle(text: string, words: number): string {
  const all = text.split(/\s+/).filter(Boolean);
  return all.slice(0, words).join(' ') + (all.length > words ? ' …' : '');
}

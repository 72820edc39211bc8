import type { Role, Topic, TurnLink } from '@strata/core';

/* Topic and link rows, and their mapping to and from core's records (exact round trip). */

export interface TopicRow {
  id: string;
  session_id: string;
  namespace: string;
  title: string;
  importance: number;
  access_count: number;
  last_active_at: number;
  created_at: number;
  /** Float64 values: a read returns exactly the centroid written. */
  centroid: Buffer;
  vector_count: number;
  cold_since: number | null;
}

export interface LinkRow {
  message_id: string;
  session_id: string;
  namespace: string;
  seq: number;
  role: string;
  parent_id: string | null;
  topic_id: string;
}

export function topicRow(topic: Topic): TopicRow {
  const floats = new Float64Array(topic.centroid);
  return {
    id: topic.id,
    session_id: topic.sessionId,
    namespace: topic.namespace,
    title: topic.title,
    importance: topic.importance,
    access_count: topic.accessCount,
    last_active_at: topic.lastActiveAt,
    created_at: topic.createdAt,
    centroid: Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength),
    vector_count: topic.vectorCount,
    cold_since: topic.coldSince ?? null,
  };
}

export function toTopic(row: TopicRow): Topic {
  const copy = Uint8Array.from(row.centroid);
  const topic: Topic = {
    id: row.id,
    sessionId: row.session_id,
    namespace: row.namespace,
    title: row.title,
    importance: row.importance,
    accessCount: row.access_count,
    lastActiveAt: row.last_active_at,
    createdAt: row.created_at,
    centroid: [...new Float64Array(copy.buffer, 0, copy.byteLength / 8)],
    vectorCount: row.vector_count,
  };
  if (row.cold_since !== null) topic.coldSince = row.cold_since;
  return topic;
}

export function linkRow(link: TurnLink): LinkRow {
  return {
    message_id: link.messageId,
    session_id: link.sessionId,
    namespace: link.namespace,
    seq: link.seq,
    role: link.role,
    parent_id: link.parentId,
    topic_id: link.topicId,
  };
}

export function toLink(row: LinkRow): TurnLink {
  return {
    messageId: row.message_id,
    sessionId: row.session_id,
    namespace: row.namespace,
    seq: row.seq,
    role: row.role as Role,
    parentId: row.parent_id,
    topicId: row.topic_id,
  };
}

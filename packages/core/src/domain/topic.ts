import type { Role } from './message.js';

/**
 * A topic of one session: turns grouped by similarity. Topics decay: their priority falls
 * with the time since they were last active, more slowly the more often they are accessed;
 * a topic under the floor leaves the active set (`coldSince`) and its verbatim turns are
 * stored compressed. Nothing is deleted by decay.
 */
export interface Topic {
  id: string;
  sessionId: string;
  namespace: string;
  /** A few words from the turn that opened the topic. */
  title: string;
  /** 0-1, set by the user (or the policy default); scales the topic's priority. */
  importance: number;
  /** Turns joining the topic after it opened, and retrievals that returned it. */
  accessCount: number;
  /** Time of the newest turn or access (epoch ms). */
  lastActiveAt: number;
  createdAt: number;
  /** Unit-length mean of the member turns' vectors; empty when no member had one. */
  centroid: number[];
  /** How many vectors the centroid averages. */
  vectorCount: number;
  /** When the topic left the active set; absent while active. */
  coldSince?: number;
}

/** Where a turn sits in its session's conversation tree and which topic it belongs to. */
export interface TurnLink {
  messageId: string;
  sessionId: string;
  namespace: string;
  seq: number;
  role: Role;
  /** The turn this one follows (a user turn: the assistant turn it answers); null at a root. */
  parentId: string | null;
  topicId: string;
}

/** What a topic's turns occupy in the store. */
export interface TopicStorage {
  topicId: string;
  /** Member turns stored verbatim. */
  activeMessages: number;
  /** Member turns stored compressed. */
  compressedMessages: number;
  /** UTF-8 bytes of the member turns' text. */
  textBytes: number;
  /** Bytes the member turns' text occupies as stored (compressed where cold). */
  storedBytes: number;
}

/** One turn of a search hit's thread path (its ancestors in the conversation tree). */
export interface ThreadStep {
  id: string;
  seq: number;
  role: Role;
  content: string;
  createdAt: number;
}

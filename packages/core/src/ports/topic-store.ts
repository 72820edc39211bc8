import type { Topic, TopicStorage, TurnLink } from '../domain/topic.js';

/**
 * Which topics `TopicStore.topics` returns: by session, namespace or ids; the conditions given
 * all apply. Ordered by session, then `createdAt`, then id.
 */
export interface TopicFilter {
  sessionId?: string;
  namespace?: string;
  ids?: string[];
}

/**
 * Which turn links `TopicStore.links` returns: by session, messages, topics or seq bounds; the
 * conditions given all apply. Ordered by session, then seq.
 */
export interface LinkFilter {
  sessionId?: string;
  messageIds?: string[];
  topicIds?: string[];
  /** Links with `seq >= fromSeq` (with `sessionId`: a seq window of one session, read by index). */
  fromSeq?: number;
  /** Links with `seq <= toSeq`. */
  toSeq?: number;
  /** Only the last N of the matching links in the result order (still returned in that order). */
  last?: number;
}

/**
 * One step of a topic write. Steps run in order inside one transaction.
 * - `putTopics` / `putLinks`: insert or replace by id (a link's id is its message id).
 * - `compress`: stores these messages' text compressed (core's `compressText`); reads keep
 *   returning the original text, and lexical search still finds them. Already compressed
 *   or unknown ids are skipped.
 * - `restore`: stores these messages' text verbatim again. Verbatim or unknown ids are skipped.
 * - `deleteTopics`: removes topics by id (their links stay until their messages go).
 */
export type TopicOp =
  | { type: 'putTopics'; topics: Topic[] }
  | { type: 'putLinks'; links: TurnLink[] }
  | { type: 'compress'; messageIds: string[] }
  | { type: 'restore'; messageIds: string[] }
  | { type: 'deleteTopics'; ids: string[] };

/**
 * Topics, the conversation tree and cold (compressed) storage of a session store's messages.
 * Implemented by the same object as the {@link SessionStore} whose messages it links, so that
 * deleting a message (forget) also deletes its link, and deleting a session its topics.
 */
export interface TopicStore {
  /**
   * Applies every step in one transaction: all or nothing.
   * @throws StrataError NOT_FOUND when a topic or link names an unknown session or message;
   *   BACKEND_UNAVAILABLE when the backend cannot be reached (retryable).
   */
  writeTopics(ops: TopicOp[]): Promise<void>;
  /** Topics matching the filter, ordered by session then `createdAt` then id. */
  topics(filter: TopicFilter): Promise<Topic[]>;
  /** Links matching the filter, ordered by session then seq. */
  links(filter: LinkFilter): Promise<TurnLink[]>;
  /** Storage of each topic of a session that has linked turns, in the order of `topics()`. */
  topicStorage(filter: { sessionId: string }): Promise<TopicStorage[]>;
}

import type { Topic, TopicStorage, TurnLink } from '../../domain/topic.js';
import { compressText } from '../../engine/topics/cold-text.js';
import { StrataError } from '../../errors/strata-error.js';
import type { LinkFilter, TopicFilter, TopicOp } from '../../ports/topic-store.js';
import { lowerBound, type InMemoryTables } from './in-memory-tables.js';
import { messageRecord } from './in-memory-copies.js';

/*
 * The in-memory store's TopicStore side: writes run inside the tables' undo log (all or
 * nothing, like session writes); reads return stored rows, which the store copies.
 */

export function applyTopicOp(tables: InMemoryTables, op: TopicOp): void {
  const { topic } = tables;
  switch (op.type) {
    case 'putTopics':
      for (const t of op.topics) {
        requireSession(tables, t.sessionId, `topic "${t.id}"`);
        topic.topics.put(copyTopic(t));
      }
      return;
    case 'putLinks':
      for (const link of op.links) {
        if (!tables.messages.has(link.messageId)) throw missing(`message "${link.messageId}"`, 'Link only stored messages.');
        topic.links.put({ ...link });
      }
      return;
    case 'compress':
      for (const id of op.messageIds) compress(tables, id);
      return;
    case 'restore':
      for (const id of op.messageIds) restore(tables, id);
      return;
    case 'deleteTopics':
      for (const id of op.ids) topic.topics.delete(id);
      return;
  }
}

function compress(tables: InMemoryTables, id: string): void {
  const message = tables.messages.get(id);
  if (message === undefined || tables.topic.cold.has(id)) return;
  tables.topic.cold.put({ messageId: id, bytes: compressText(message.content), textBytes: Buffer.byteLength(message.content) });
  tables.messages.put(messageRecord(message, message, '', message.metadata));
}

function restore(tables: InMemoryTables, id: string): void {
  const message = tables.messages.get(id);
  if (message === undefined || !tables.topic.cold.has(id)) return;
  tables.messages.put(messageRecord(message, message, tables.textOf(message), message.metadata));
  tables.topic.cold.delete(id);
}

function requireSession(tables: InMemoryTables, sessionId: string, what: string): void {
  if (!tables.sessions.has(sessionId)) throw missing(`session "${sessionId}" of ${what}`, 'Create the session before its topics.');
}

function missing(what: string, hint: string): StrataError {
  return new StrataError('NOT_FOUND', `${what} does not exist`, { hint });
}

export function selectTopics(tables: InMemoryTables, filter: TopicFilter): Topic[] {
  const ids = filter.ids ?? (filter.sessionId !== undefined ? tables.topic.sessionTopicIds(filter.sessionId) : undefined);
  const rows = ids === undefined ? [...tables.topic.topics.values()] : ids.map((id) => tables.topic.topics.get(id)).filter((t): t is Topic => t !== undefined);
  return rows
    .filter((t) => (filter.sessionId === undefined || t.sessionId === filter.sessionId) && (filter.namespace === undefined || t.namespace === filter.namespace))
    .sort((a, b) => compare(a.sessionId, b.sessionId) || a.createdAt - b.createdAt || compare(a.id, b.id));
}

export function selectLinks(tables: InMemoryTables, filter: LinkFilter): TurnLink[] {
  const { topic } = tables;
  const { fromSeq, toSeq, last } = filter;
  if (filter.sessionId !== undefined && filter.messageIds === undefined && filter.topicIds === undefined) {
    // A session's messages are in seq order and a link's id is its message's: walk back from the window's end.
    const list = tables.sessionMessages(filter.sessionId);
    const start = fromSeq === undefined ? 0 : lowerBound(list, fromSeq);
    const end = toSeq === undefined ? list.length : lowerBound(list, toSeq + 1);
    const found: TurnLink[] = [];
    for (let i = end - 1; i >= start && (last === undefined || found.length < last); i--) {
      const l = topic.links.get(list[i]?.id ?? '');
      if (l !== undefined) found.push(l);
    }
    return found.reverse();
  }
  let ids: string[];
  if (filter.messageIds !== undefined) ids = filter.messageIds;
  else if (filter.topicIds !== undefined) ids = filter.topicIds.flatMap((t) => topic.topicLinkIds(t));
  else if (filter.sessionId !== undefined) ids = topic.sessionLinkIds(filter.sessionId);
  else ids = [...topic.links.values()].map((l) => l.messageId);
  const topics = filter.topicIds === undefined ? undefined : new Set(filter.topicIds);
  const sorted = [...new Set(ids)]
    .map((id) => topic.links.get(id))
    .filter((l): l is TurnLink => l !== undefined)
    .filter((l) => (filter.sessionId === undefined || l.sessionId === filter.sessionId) && (topics === undefined || topics.has(l.topicId)))
    .filter((l) => (fromSeq === undefined || l.seq >= fromSeq) && (toSeq === undefined || l.seq <= toSeq))
    .sort((a, b) => compare(a.sessionId, b.sessionId) || a.seq - b.seq);
  return last === undefined ? sorted : sorted.slice(Math.max(0, sorted.length - Math.max(0, last)));
}

export function selectTopicStorage(tables: InMemoryTables, sessionId: string): TopicStorage[] {
  return selectTopics(tables, { sessionId }).flatMap((t) => {
    const members = tables.topic.topicLinkIds(t.id);
    if (members.length === 0) return [];
    const storage: TopicStorage = { topicId: t.id, activeMessages: 0, compressedMessages: 0, textBytes: 0, storedBytes: 0 };
    for (const id of members) {
      const cold = tables.topic.cold.get(id);
      const message = tables.messages.get(id);
      if (cold !== undefined) {
        storage.compressedMessages += 1;
        storage.textBytes += cold.textBytes;
        storage.storedBytes += cold.bytes.length;
      } else if (message !== undefined) {
        const bytes = Buffer.byteLength(message.content);
        storage.activeMessages += 1;
        storage.textBytes += bytes;
        storage.storedBytes += bytes;
      }
    }
    return [storage];
  });
}

/** Topics are flat records plus one number array: a spread and a slice copy them (faster than structuredClone). */
export function copyTopic(t: Topic): Topic {
  return { ...t, centroid: t.centroid.slice() };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

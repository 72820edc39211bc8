import type Database from 'better-sqlite3';
import { compressText, restoreText, StrataError } from '@strata/core';
import type { LinkFilter, Topic, TopicFilter, TopicOp, TopicStorage, TurnLink } from '@strata/core';
import type { StatementCache } from './session-statement-cache.js';
import { linkRow, topicRow, toLink, toTopic, type LinkRow, type TopicRow } from './topic-rows.js';

/*
 * The SQLite store's TopicStore side. Writes run in one BEGIN IMMEDIATE transaction, like
 * session writes; compressing or restoring a message rewrites only its content columns, and
 * the lexical cache indexes a cold turn's restored text, so search still finds cold turns.
 */

const TOPIC_COLUMNS = 'id, session_id, namespace, title, importance, access_count, last_active_at, created_at, centroid, vector_count, cold_since';
const LINK_COLUMNS = 'message_id, session_id, namespace, seq, role, parent_id, topic_id';
const IN_LIST = 'IN (SELECT value FROM json_each(?))';

/** Prepares the write statements once; returns the function that applies a batch. */
export function prepareTopicWrites(db: Database.Database): (ops: TopicOp[]) => void {
  const upsertTopic = db.prepare(
    `INSERT OR REPLACE INTO topics (${TOPIC_COLUMNS}) VALUES (@id, @session_id, @namespace, @title, @importance, @access_count, @last_active_at, @created_at, @centroid, @vector_count, @cold_since)`,
  );
  const upsertLink = db.prepare(`INSERT OR REPLACE INTO turn_links (${LINK_COLUMNS}) VALUES (@message_id, @session_id, @namespace, @seq, @role, @parent_id, @topic_id)`);
  const sessionExists = db.prepare<[string], number>('SELECT 1 FROM sessions WHERE id = ?').pluck();
  const messageExists = db.prepare<[string], number>('SELECT 1 FROM messages WHERE id = ?').pluck();
  const plainText = db.prepare<[string], string>('SELECT content FROM messages WHERE id = ? AND content_z IS NULL').pluck();
  const storeCold = db.prepare("UPDATE messages SET content = '', content_z = ?, text_bytes = ? WHERE id = ?");
  const coldText = db.prepare<[string], Buffer>('SELECT content_z FROM messages WHERE id = ? AND content_z IS NOT NULL').pluck();
  const storePlain = db.prepare('UPDATE messages SET content = ?, content_z = NULL, text_bytes = NULL WHERE id = ?');
  const deleteTopic = db.prepare('DELETE FROM topics WHERE id = ?');
  const apply = (op: TopicOp): void => {
    switch (op.type) {
      case 'putTopics':
        for (const topic of op.topics) {
          if (sessionExists.get(topic.sessionId) === undefined) throw missing(`session "${topic.sessionId}" of topic "${topic.id}"`, 'Create the session before its topics.');
          upsertTopic.run(topicRow(topic));
        }
        return;
      case 'putLinks':
        for (const link of op.links) {
          if (messageExists.get(link.messageId) === undefined) throw missing(`message "${link.messageId}"`, 'Link only stored messages.');
          upsertLink.run(linkRow(link));
        }
        return;
      case 'compress':
        for (const id of op.messageIds) {
          const text = plainText.get(id);
          if (text !== undefined) storeCold.run(Buffer.from(compressText(text)), Buffer.byteLength(text), id);
        }
        return;
      case 'restore':
        for (const id of op.messageIds) {
          const bytes = coldText.get(id);
          if (bytes !== undefined) storePlain.run(restoreText(bytes), id);
        }
        return;
      case 'deleteTopics':
        for (const id of op.ids) deleteTopic.run(id);
        return;
    }
  };
  const transaction = db.transaction((ops: TopicOp[]) => ops.forEach(apply));
  return (ops) => transaction.immediate(ops);
}

function missing(what: string, hint: string): StrataError {
  return new StrataError('NOT_FOUND', `${what} does not exist`, { hint });
}

export function selectTopics(cache: StatementCache, filter: TopicFilter): Topic[] {
  const { clauses, params } = conditions([
    ['session_id = ?', filter.sessionId],
    ['namespace = ?', filter.namespace],
    [`id ${IN_LIST}`, filter.ids],
  ]);
  const sql = `SELECT ${TOPIC_COLUMNS} FROM topics${clauses} ORDER BY session_id, created_at, id`;
  return (cache.get(sql).all(...params) as TopicRow[]).map(toTopic);
}

export function selectLinks(cache: StatementCache, filter: LinkFilter): TurnLink[] {
  const { clauses, params } = conditions([
    ['session_id = ?', filter.sessionId],
    [`message_id ${IN_LIST}`, filter.messageIds],
    [`topic_id ${IN_LIST}`, filter.topicIds],
    ['seq >= ?', filter.fromSeq],
    ['seq <= ?', filter.toSeq],
  ]);
  if (filter.last === undefined) {
    const sql = `SELECT ${LINK_COLUMNS} FROM turn_links${clauses} ORDER BY session_id, seq`;
    return (cache.get(sql).all(...params) as LinkRow[]).map(toLink);
  }
  // the newest N backwards through the (session_id, seq) index, then in order again
  const sql = `SELECT ${LINK_COLUMNS} FROM turn_links${clauses} ORDER BY session_id DESC, seq DESC LIMIT ?`;
  return (cache.get(sql).all(...params, Math.max(0, Math.floor(filter.last))) as LinkRow[]).reverse().map(toLink);
}

/** Per topic of the session with linked turns: counts and bytes of its turns' text as stored. */
export function selectTopicStorage(cache: StatementCache, sessionId: string): TopicStorage[] {
  const sql = `SELECT t.id AS topicId,
      sum(m.content_z IS NULL) AS activeMessages,
      sum(m.content_z IS NOT NULL) AS compressedMessages,
      sum(coalesce(m.text_bytes, length(CAST(m.content AS BLOB)))) AS textBytes,
      sum(coalesce(length(m.content_z), length(CAST(m.content AS BLOB)))) AS storedBytes
    FROM topics t JOIN turn_links l ON l.topic_id = t.id JOIN messages m ON m.id = l.message_id
    WHERE t.session_id = ? GROUP BY t.id ORDER BY t.created_at, t.id`;
  return cache.get(sql).all(sessionId) as TopicStorage[];
}

function conditions(pairs: [string, unknown][]): { clauses: string; params: unknown[] } {
  const set = pairs.filter(([, value]) => value !== undefined);
  return {
    clauses: set.length ? ` WHERE ${set.map(([clause]) => clause).join(' AND ')}` : '',
    params: set.map(([, value]) => (Array.isArray(value) ? JSON.stringify(value) : value)),
  };
}

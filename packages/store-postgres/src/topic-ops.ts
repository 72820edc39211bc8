import { compressText, restoreText, StrataError } from '@strata/core';
import type { LinkFilter, Topic, TopicFilter, TopicOp, TopicStorage, TurnLink } from '@strata/core';
import type { Queryable } from './database.js';
import { centroidBytes, readText, storedText, toLink, toTopic } from './rows.js';
import type { LinkRow, TopicRow } from './rows.js';
import { Conditions, countOf } from './sql-conditions.js';

/*
 * The TopicStore side. Compressing or restoring a message rewrites only its content columns;
 * its postings hold the terms of its text either way, so search still finds cold turns.
 */

const TOPIC_COLUMNS = 'id, session_id, namespace, title, importance, access_count, last_active_at, created_at, centroid, vector_count, cold_since';
const LINK_COLUMNS = 'message_id, session_id, namespace, seq, role, parent_id, topic_id';

export async function applyTopicOp(tx: Queryable, op: TopicOp): Promise<void> {
  switch (op.type) {
    case 'putTopics':
      for (const topic of op.topics) await putTopic(tx, topic);
      return;
    case 'putLinks':
      for (const link of op.links) await putLink(tx, link);
      return;
    case 'compress':
      for (const id of op.messageIds) {
        const row = (await tx.query<{ content: string }>('SELECT content FROM messages WHERE id = $1 AND content_z IS NULL FOR UPDATE', [id]))[0];
        if (row !== undefined) {
          await tx.query("UPDATE messages SET content = '', content_z = $2, text_bytes = $3 WHERE id = $1", [
            id,
            Buffer.from(compressText(readText(row.content))),
            Buffer.byteLength(readText(row.content)),
          ]);
        }
      }
      return;
    case 'restore':
      for (const id of op.messageIds) {
        const row = (await tx.query<{ content_z: Buffer }>('SELECT content_z FROM messages WHERE id = $1 AND content_z IS NOT NULL FOR UPDATE', [id]))[0];
        if (row !== undefined) await tx.query('UPDATE messages SET content = $2, content_z = NULL, text_bytes = NULL WHERE id = $1', [id, storedText(restoreText(row.content_z))]);
      }
      return;
    case 'deleteTopics':
      if (op.ids.length > 0) await tx.query('DELETE FROM topics WHERE id = ANY($1::text[])', [op.ids]);
      return;
  }
}

async function putTopic(tx: Queryable, topic: Topic): Promise<void> {
  if ((await tx.query('SELECT 1 FROM sessions WHERE id = $1', [topic.sessionId])).length === 0) {
    throw missing(`session "${topic.sessionId}" of topic "${topic.id}"`, 'Create the session before its topics.');
  }
  await tx.query(
    `INSERT INTO topics (${TOPIC_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, namespace = excluded.namespace, title = excluded.title, importance = excluded.importance,
       access_count = excluded.access_count, last_active_at = excluded.last_active_at, created_at = excluded.created_at, centroid = excluded.centroid,
       vector_count = excluded.vector_count, cold_since = excluded.cold_since`,
    [
      topic.id,
      topic.sessionId,
      topic.namespace,
      storedText(topic.title),
      topic.importance,
      topic.accessCount,
      topic.lastActiveAt,
      topic.createdAt,
      centroidBytes(topic),
      topic.vectorCount,
      topic.coldSince ?? null,
    ],
  );
}

async function putLink(tx: Queryable, link: TurnLink): Promise<void> {
  if ((await tx.query('SELECT 1 FROM messages WHERE id = $1', [link.messageId])).length === 0) throw missing(`message "${link.messageId}"`, 'Link only stored messages.');
  await tx.query(
    `INSERT INTO turn_links (${LINK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (message_id) DO UPDATE SET session_id = excluded.session_id, namespace = excluded.namespace, seq = excluded.seq, role = excluded.role,
       parent_id = excluded.parent_id, topic_id = excluded.topic_id`,
    [link.messageId, link.sessionId, link.namespace, link.seq, link.role, link.parentId, link.topicId],
  );
}

function missing(what: string, hint: string): StrataError {
  return new StrataError('NOT_FOUND', `${what} does not exist`, { hint });
}

export async function selectTopics(db: Queryable, filter: TopicFilter): Promise<Topic[]> {
  const conditions = new Conditions().add('session_id = ?', filter.sessionId).add('namespace = ?', filter.namespace).add('id = ANY(?::text[])', filter.ids);
  return (await db.query<TopicRow>(`SELECT ${TOPIC_COLUMNS} FROM topics${conditions.where()} ORDER BY session_id, created_at, id`, conditions.params)).map(toTopic);
}

export async function selectLinks(db: Queryable, filter: LinkFilter): Promise<TurnLink[]> {
  const conditions = new Conditions()
    .add('session_id = ?', filter.sessionId)
    .add('message_id = ANY(?::text[])', filter.messageIds)
    .add('topic_id = ANY(?::text[])', filter.topicIds)
    .add('seq >= ?', filter.fromSeq)
    .add('seq <= ?', filter.toSeq);
  const count = countOf(filter.last);
  const base = `SELECT ${LINK_COLUMNS} FROM turn_links${conditions.where()}`;
  if (count === undefined) return (await db.query<LinkRow>(`${base} ORDER BY session_id, seq`, conditions.params)).map(toLink);
  // the newest N backwards through the (session_id, seq) index, then in order again
  const rows = await db.query<LinkRow>(`${base} ORDER BY session_id DESC, seq DESC LIMIT ${conditions.next(count)}`, conditions.params);
  return rows.reverse().map(toLink);
}

/** Per topic of the session with linked turns: counts and bytes of its turns' text as stored. */
export async function selectTopicStorage(db: Queryable, sessionId: string): Promise<TopicStorage[]> {
  return db.query<TopicStorage>(
    `SELECT t.id AS "topicId",
       count(*) FILTER (WHERE m.content_z IS NULL)::int AS "activeMessages",
       count(*) FILTER (WHERE m.content_z IS NOT NULL)::int AS "compressedMessages",
       sum(coalesce(m.text_bytes, octet_length(m.content)))::int AS "textBytes",
       sum(coalesce(octet_length(m.content_z), octet_length(m.content)))::int AS "storedBytes"
     FROM topics t JOIN turn_links l ON l.topic_id = t.id JOIN messages m ON m.id = l.message_id
     WHERE t.session_id = $1 GROUP BY t.id ORDER BY min(t.created_at), t.id`,
    [sessionId],
  );
}

import { compressText, restoreText, StrataError } from '@strata/core';
import type { LinkFilter, Topic, TopicFilter, TopicOp, TopicStorage, TurnLink } from '@strata/core';
import type { Queryable } from './database.js';
import { centroidBytes, lastOfEach, readText, storedText, toLink, toTopic } from './rows.js';
import type { LinkRow, TopicRow } from './rows.js';
import { Conditions, countOf } from './sql-conditions.js';
import { namespacesOf } from './write-messages.js';

/*
 * The TopicStore side. Compressing or restoring a message rewrites only its content columns;
 * its postings hold the terms of its text either way, so search still finds cold turns.
 */

const TOPIC_COLUMNS = 'id, session_id, namespace, title, importance, access_count, last_active_at, created_at, centroid, vector_count, cold_since';
const LINK_COLUMNS = 'message_id, session_id, namespace, seq, role, parent_id, topic_id';

/** One topic step, in a few statements whatever its size (an import's topics and links are thousands of rows). */
export async function applyTopicOp(tx: Queryable, op: TopicOp): Promise<void> {
  switch (op.type) {
    case 'putTopics':
      return putTopics(tx, op.topics);
    case 'putLinks':
      return putLinks(tx, op.links);
    case 'compress': {
      if (op.messageIds.length === 0) return;
      // rows locked in id order, as every write of these rows locks them
      const rows = await tx.query<{ id: string; content: string }>('SELECT id, content FROM messages WHERE id = ANY($1::text[]) AND content_z IS NULL ORDER BY id FOR UPDATE', [
        [...new Set(op.messageIds)],
      ]);
      if (rows.length === 0) return;
      const texts = rows.map((row) => readText(row.content));
      await tx.query("UPDATE messages m SET content = '', content_z = c.z, text_bytes = c.bytes FROM unnest($1::text[], $2::bytea[], $3::int[]) AS c (id, z, bytes) WHERE m.id = c.id", [
        rows.map((row) => row.id),
        texts.map((text) => Buffer.from(compressText(text))),
        texts.map((text) => Buffer.byteLength(text)),
      ]);
      return;
    }
    case 'restore': {
      if (op.messageIds.length === 0) return;
      const rows = await tx.query<{ id: string; content_z: Buffer }>('SELECT id, content_z FROM messages WHERE id = ANY($1::text[]) AND content_z IS NOT NULL ORDER BY id FOR UPDATE', [
        [...new Set(op.messageIds)],
      ]);
      if (rows.length === 0) return;
      await tx.query('UPDATE messages m SET content = c.content, content_z = NULL, text_bytes = NULL FROM unnest($1::text[], $2::text[]) AS c (id, content) WHERE m.id = c.id', [
        rows.map((row) => row.id),
        rows.map((row) => storedText(restoreText(row.content_z))),
      ]);
      return;
    }
    case 'deleteTopics':
      if (op.ids.length > 0) await tx.query('DELETE FROM topics WHERE id = ANY($1::text[])', [op.ids]);
      return;
  }
}

async function putTopics(tx: Queryable, topics: readonly Topic[]): Promise<void> {
  if (topics.length === 0) return;
  const known = await namespacesOf(tx, [...new Set(topics.map((t) => t.sessionId))]);
  const orphan = topics.find((topic) => !known.has(topic.sessionId));
  if (orphan !== undefined) throw missing(`session "${orphan.sessionId}" of topic "${orphan.id}"`, 'Create the session before its topics.');
  const latest = lastOfEach(topics, (topic) => topic.id);
  await tx.query(
    `INSERT INTO topics (${TOPIC_COLUMNS})
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::int[], $7::bigint[], $8::bigint[], $9::bytea[], $10::int[], $11::bigint[])
     ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, namespace = excluded.namespace, title = excluded.title, importance = excluded.importance,
       access_count = excluded.access_count, last_active_at = excluded.last_active_at, created_at = excluded.created_at, centroid = excluded.centroid,
       vector_count = excluded.vector_count, cold_since = excluded.cold_since`,
    [
      latest.map((t) => t.id),
      latest.map((t) => t.sessionId),
      latest.map((t) => t.namespace),
      latest.map((t) => storedText(t.title)),
      latest.map((t) => t.importance),
      latest.map((t) => t.accessCount),
      latest.map((t) => t.lastActiveAt),
      latest.map((t) => t.createdAt),
      latest.map((t) => centroidBytes(t)),
      latest.map((t) => t.vectorCount),
      latest.map((t) => t.coldSince ?? null),
    ],
  );
}

async function putLinks(tx: Queryable, links: readonly TurnLink[]): Promise<void> {
  if (links.length === 0) return;
  const known = new Set((await tx.query<{ id: string }>('SELECT id FROM messages WHERE id = ANY($1::text[])', [[...new Set(links.map((l) => l.messageId))]])).map((row) => row.id));
  const unknown = links.find((link) => !known.has(link.messageId));
  if (unknown !== undefined) throw missing(`message "${unknown.messageId}"`, 'Link only stored messages.');
  const latest = lastOfEach(links, (link) => link.messageId);
  await tx.query(
    `INSERT INTO turn_links (${LINK_COLUMNS})
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[])
     ON CONFLICT (message_id) DO UPDATE SET session_id = excluded.session_id, namespace = excluded.namespace, seq = excluded.seq, role = excluded.role,
       parent_id = excluded.parent_id, topic_id = excluded.topic_id`,
    [
      latest.map((l) => l.messageId),
      latest.map((l) => l.sessionId),
      latest.map((l) => l.namespace),
      latest.map((l) => l.seq),
      latest.map((l) => l.role),
      latest.map((l) => l.parentId),
      latest.map((l) => l.topicId),
    ],
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

import { analyzeText } from '@strata/core';
import type { LexicalHit, LexicalKind, LexicalQuery } from '@strata/core';
import type { Queryable, Transaction } from './database.js';

/*
 * Lexical search answered by PostgreSQL: Okapi BM25 (k1 = 1.2, b = 0.75, idf = ln(1 + (N - df
 * + 0.5) / (df + 0.5))), the formula of core's in-process index, computed in SQL over postings
 * of the terms core's analyzeText gives. Documents are indexed inside the write that stores
 * them, so the postings cannot drift from the records, and every process sees them when the
 * write commits. A process searches its replica of a namespace's postings (lexical-replica.ts),
 * caught up from these tables before each search; this SQL answers while that replica loads,
 * or when replicas are off.
 */

const K1 = 1.2;
const B = 0.75;
/** Rows each namespace and kind's counts are spread over (see the lexical_stats table). */
export const STAT_SHARDS = 16;

/** Postings from which a write sends them with COPY (an import, a long append) rather than one INSERT. */
const COPY_POSTINGS = 1000;

/** A document to index: what its kind and id are, where it belongs, and its text. */
export interface LexicalDocument {
  namespace: string;
  kind: LexicalKind;
  id: string;
  sessionId: string | null;
  text: string;
}

/**
 * Indexes documents whose kind and id hold no postings (new ones, or ones just removed with
 * {@link removeDocuments}); of a kind and id given twice, the last text is indexed.
 */
export async function indexDocuments(tx: Transaction, documents: readonly LexicalDocument[]): Promise<void> {
  const latest = new Map<string, LexicalDocument>();
  for (const document of documents) latest.set(`${document.kind}\u0000${document.id}`, document);
  if (latest.size === 0) return;
  const analyzed = [...latest.values()].map((document) => ({ document, ...countTerms(analyzeText(document.text)) }));
  // doc numbers are handed out in the order given: the indexing order that breaks ties
  const inserted = await tx.query<{ doc: number; kind: string; id: string }>(
    `INSERT INTO lexical_docs (namespace, kind, id, session_id, length)
     SELECT namespace, kind, id, session_id, length
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[]) AS d (namespace, kind, id, session_id, length, ord)
     ORDER BY ord
     RETURNING doc, kind, id`,
    [
      analyzed.map((a) => a.document.namespace),
      analyzed.map((a) => a.document.kind),
      analyzed.map((a) => a.document.id),
      analyzed.map((a) => a.document.sessionId),
      analyzed.map((a) => a.length),
      analyzed.map((_, i) => i),
    ],
  );
  const docOf = new Map(inserted.map((row) => [`${row.kind}\u0000${row.id}`, row.doc]));
  const postings = { namespaces: [] as string[], kinds: [] as string[], terms: [] as string[], docs: [] as number[], tfs: [] as number[], lengths: [] as number[], sessions: [] as (string | null)[] };
  for (const { document, counts, length } of analyzed) {
    const doc = docOf.get(`${document.kind}\u0000${document.id}`) as number;
    for (const [term, tf] of counts) {
      postings.namespaces.push(document.namespace);
      postings.kinds.push(document.kind);
      postings.terms.push(term);
      postings.docs.push(doc);
      postings.tfs.push(tf);
      postings.lengths.push(length);
      postings.sessions.push(document.sessionId);
    }
  }
  const columns = [postings.namespaces, postings.kinds, postings.terms, postings.docs, postings.tfs, postings.lengths, postings.sessions];
  if (postings.terms.length >= COPY_POSTINGS) {
    await tx.copy('lexical_terms', ['namespace', 'kind', 'term', 'doc', 'tf', 'length', 'session_id'], columns);
  } else if (postings.terms.length > 0) {
    await tx.query(
      'INSERT INTO lexical_terms (namespace, kind, term, doc, tf, length, session_id) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::real[], $6::int[], $7::text[])',
      columns,
    );
  }
  await addToStats(
    tx,
    analyzed.map((a) => ({ namespace: a.document.namespace, kind: a.document.kind, documents: 1, length: a.length })),
  );
}

/** How long removals are logged for replicas (see migration 5); a replica that has not read for half of it loads again. */
export const REMOVALS_KEPT_SECONDS = 24 * 3600;

/**
 * The parts of a removal statement that log what it removed for replicas (kind and id, never
 * text), and drop log rows past {@link REMOVALS_KEPT_SECONDS} (by their age index: usually none).
 */
const LOG_REMOVALS = `logged AS (INSERT INTO lexical_removals (namespace, kind, id) SELECT namespace, kind, id FROM gone RETURNING 1),
     pruned AS (DELETE FROM lexical_removals WHERE at < now() - interval '${REMOVALS_KEPT_SECONDS} seconds' RETURNING 1)`;

/** Removes documents of one kind by id; unknown ids are ignored. */
export async function removeDocuments(tx: Queryable, kind: LexicalKind, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const removed = await tx.query<{ namespace: string; length: number }>(
    `WITH gone AS (DELETE FROM lexical_docs WHERE kind = $1 AND id = ANY($2::text[]) RETURNING doc, namespace, kind, id, length),
     postings AS (DELETE FROM lexical_terms WHERE doc IN (SELECT doc FROM gone) RETURNING 1),
     ${LOG_REMOVALS}
     SELECT namespace, length FROM gone`,
    [kind, ids],
  );
  await addToStats(
    tx,
    removed.map((r) => ({ namespace: r.namespace, kind, documents: -1, length: -r.length })),
  );
}

/** Removes the turns and summaries of sessions (a deleted session's, whose ids a delete step does not list). */
export async function removeSessionDocuments(tx: Queryable, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  const removed = await tx.query<{ namespace: string; kind: LexicalKind; length: number }>(
    `WITH gone AS (DELETE FROM lexical_docs WHERE session_id = ANY($1::text[]) AND kind IN ('turn', 'summary') RETURNING doc, namespace, kind, id, length),
     postings AS (DELETE FROM lexical_terms WHERE doc IN (SELECT doc FROM gone) RETURNING 1),
     ${LOG_REMOVALS}
     SELECT namespace, kind, length FROM gone`,
    [sessionIds],
  );
  await addToStats(
    tx,
    removed.map((r) => ({ namespace: r.namespace, kind: r.kind, documents: -1, length: -r.length })),
  );
}

/**
 * The best `k` documents for the query across its kinds, best first; equal scores by kind,
 * then the document indexed first. Documents sharing no term with the query are not returned.
 */
export async function searchDocuments(db: Queryable, query: LexicalQuery): Promise<LexicalHit[]> {
  const k = Math.max(0, Math.floor(query.k));
  const terms = [...new Set(query.terms ?? analyzeText(query.text))];
  const kinds = [...new Set(query.kinds)];
  if (k === 0 || terms.length === 0 || kinds.length === 0) return [];
  // Each term's postings are read by their own range of the primary key (namespace, kind, term),
  // once to count them (df) and once to score them, whatever the planner's statistics say; the
  // documents' ids are looked up for the best k only.
  const rows = await db.query<{ kind: LexicalKind; id: string; score: number }>(
    `WITH stats AS (
       SELECT kind, sum(documents)::float8 AS n, sum(total_length)::float8 / sum(documents) AS average
       FROM lexical_stats WHERE namespace = $1 AND kind = ANY($2::text[])
       GROUP BY kind HAVING sum(documents) > 0
     ),
     terms AS MATERIALIZED (
       SELECT s.kind, s.n, s.average, q.term,
         (SELECT count(*) FROM lexical_terms p WHERE p.namespace = $1 AND p.kind = s.kind AND p.term = q.term) AS df
       FROM stats s CROSS JOIN unnest($3::text[]) AS q (term)
     ),
     best AS (
       SELECT p.kind, p.doc,
         sum(ln(1 + (t.n - t.df + 0.5) / (t.df + 0.5)) * ${K1 + 1} * p.tf / (p.tf + ${K1 * (1 - B)} + ${K1 * B} / t.average * p.length)) AS score
       FROM terms t CROSS JOIN LATERAL (
         SELECT p.kind, p.doc, p.tf, p.length FROM lexical_terms p
         WHERE p.namespace = $1 AND p.kind = t.kind AND p.term = t.term AND ($4::text IS NULL OR p.session_id = $4)
         OFFSET 0
       ) AS p
       WHERE t.df > 0
       GROUP BY p.kind, p.doc
       ORDER BY score DESC, p.kind, p.doc
       LIMIT $5
     )
     SELECT b.kind, d.id, b.score FROM best b JOIN lexical_docs d ON d.doc = b.doc ORDER BY b.score DESC, b.kind, b.doc`,
    [query.namespace, kinds, terms, query.sessionId ?? null, k],
  );
  return rows.map((row) => ({ kind: row.kind, id: row.id, score: row.score }));
}

function countTerms(terms: readonly string[]): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return { counts, length: terms.length };
}

/** Adds document counts and lengths per namespace and kind, to this transaction's shard (rows in a fixed order, so concurrent writers lock alike). */
async function addToStats(tx: Queryable, changes: readonly { namespace: string; kind: LexicalKind; documents: number; length: number }[]): Promise<void> {
  if (changes.length === 0) return;
  const merged = new Map<string, { namespace: string; kind: LexicalKind; documents: number; length: number }>();
  for (const change of changes) {
    const key = JSON.stringify([change.namespace, change.kind]);
    const sum = merged.get(key);
    if (sum === undefined) merged.set(key, { ...change });
    else {
      sum.documents += change.documents;
      sum.length += change.length;
    }
  }
  const rows = [...merged.values()].sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  await tx.query(
    `INSERT INTO lexical_stats (namespace, kind, shard, documents, total_length)
     SELECT namespace, kind, (txid_current() % ${STAT_SHARDS})::smallint, documents, total_length
     FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[]) AS c (namespace, kind, documents, total_length)
     ON CONFLICT (namespace, kind, shard) DO UPDATE SET documents = lexical_stats.documents + excluded.documents, total_length = lexical_stats.total_length + excluded.total_length`,
    [rows.map((r) => r.namespace), rows.map((r) => r.kind), rows.map((r) => r.documents), rows.map((r) => r.length)],
  );
}

import { factLexicalText, StrataError } from '@strata/core';
import type { Fact, Summary } from '@strata/core';
import type { Queryable, Transaction } from './database.js';
import { indexDocuments, removeDocuments, type LexicalDocument } from './lexical.js';
import { lastOfEach, storedText } from './rows.js';
import { namespacesOf } from './write-messages.js';

/*
 * The derived records of a write: summaries and facts, each replaced by id with its
 * provenance and its postings. Part of session-write.ts's transaction.
 */

/** Inserts or replaces each summary by id, with its provenance and postings: a few statements for the whole step. */
export async function putSummaries(tx: Transaction, summaries: readonly Summary[]): Promise<void> {
  if (summaries.length === 0) return;
  const known = await namespacesOf(tx, [...new Set(summaries.map((s) => s.sessionId))]);
  const orphan = summaries.find((s) => !known.has(s.sessionId));
  if (orphan !== undefined) {
    throw new StrataError('NOT_FOUND', `Session "${orphan.sessionId}" does not exist, so strata cannot store summary "${orphan.id}" for it.`, {
      hint: 'Create the session first (or a putSession step earlier in the same batch); a forgotten session takes its summaries with it.',
    });
  }
  const latest = lastOfEach(summaries, (s) => s.id);
  await tx.query('DELETE FROM summaries WHERE id = ANY($1::text[])', [latest.map((s) => s.id)]);
  await tx.query(
    `INSERT INTO summaries (id, session_id, namespace, level, from_seq, to_seq, text, created_at, degraded)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::text[], $8::bigint[], $9::boolean[])`,
    [
      latest.map((s) => s.id),
      latest.map((s) => s.sessionId),
      latest.map((s) => s.namespace),
      latest.map((s) => s.level),
      latest.map((s) => s.fromSeq),
      latest.map((s) => s.toSeq),
      latest.map((s) => storedText(s.text)),
      latest.map((s) => s.createdAt),
      latest.map((s) => s.degraded),
    ],
  );
  await replaceSources(tx, 'summary', latest);
  await replacePostings(
    tx,
    'summary',
    summaries.map((s) => s.id),
    summaries.map((s) => ({ namespace: s.namespace, kind: 'summary' as const, id: s.id, sessionId: s.sessionId, text: s.text })),
  );
}

/** Inserts or replaces each fact by id; superseded facts stay stored, searches skip them. A few statements for the whole step. */
export async function putFacts(tx: Transaction, facts: readonly Fact[]): Promise<void> {
  if (facts.length === 0) return;
  const latest = lastOfEach(facts, (f) => f.id);
  await tx.query('DELETE FROM facts WHERE id = ANY($1::text[])', [latest.map((f) => f.id)]);
  await tx.query(
    `INSERT INTO facts (id, namespace, subject, predicate, object, text, valid_from, valid_to, superseded_by, confidence, created_at, degraded)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::text[], $10::float8[], $11::bigint[], $12::boolean[])`,
    [
      latest.map((f) => f.id),
      latest.map((f) => f.namespace),
      latest.map((f) => storedText(f.subject)),
      latest.map((f) => storedText(f.predicate)),
      latest.map((f) => storedText(f.object)),
      latest.map((f) => storedText(f.text)),
      latest.map((f) => f.validFrom),
      latest.map((f) => (isCurrent(f) ? null : f.validTo)),
      latest.map((f) => f.supersededBy ?? null),
      latest.map((f) => f.confidence),
      latest.map((f) => f.createdAt),
      latest.map((f) => f.degraded),
    ],
  );
  await replaceSources(tx, 'fact', latest);
  // a superseded fact is not indexed again
  await replacePostings(
    tx,
    'fact',
    facts.map((f) => f.id),
    facts.filter(isCurrent).map((f) => ({ namespace: f.namespace, kind: 'fact' as const, id: f.id, sessionId: null, text: factLexicalText(f) })),
  );
}

/** A record put again is replaced: the postings of `ids` go first, then `documents` are indexed. */
async function replacePostings(tx: Transaction, kind: 'summary' | 'fact', ids: readonly string[], documents: readonly LexicalDocument[]): Promise<void> {
  await removeDocuments(tx, kind, ids);
  await indexDocuments(tx, documents);
}

/** Same test as the in-memory store: a fact is current unless validTo is a number. */
function isCurrent(fact: Fact): boolean {
  return typeof fact.validTo !== 'number';
}

/** The sources of each item replace its stored ones; a message listed twice keeps its first position. */
async function replaceSources(tx: Queryable, kind: 'summary' | 'fact', items: readonly { id: string; sourceMessageIds: readonly string[] }[]): Promise<void> {
  await tx.query('DELETE FROM provenance WHERE item_kind = $1 AND item_id = ANY($2::text[])', [kind, items.map((item) => item.id)]);
  const rows = { items: [] as string[], messages: [] as string[], positions: [] as number[] };
  for (const item of items) {
    item.sourceMessageIds.forEach((messageId, i) => {
      rows.items.push(item.id);
      rows.messages.push(messageId);
      rows.positions.push(i + 1);
    });
  }
  if (rows.items.length === 0) return;
  // rows go in in the order given, so of a message listed twice the first position stays
  await tx.query(
    `INSERT INTO provenance (item_kind, item_id, message_id, position)
     SELECT $1, item_id, message_id, position FROM unnest($2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS s (item_id, message_id, position, ord)
     ORDER BY ord
     ON CONFLICT DO NOTHING`,
    [kind, rows.items, rows.messages, rows.positions],
  );
}

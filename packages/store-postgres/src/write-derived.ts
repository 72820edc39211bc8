import { factLexicalText, StrataError } from '@strata/core';
import type { Fact, Summary } from '@strata/core';
import type { Queryable, Transaction } from './database.js';
import { indexDocuments, removeDocuments, type LexicalDocument } from './lexical.js';
import { storedText } from './rows.js';

/*
 * The derived records of a write: summaries and facts, each replaced by id with its
 * provenance and its postings. Part of session-write.ts's transaction.
 */

/** Inserts or replaces each summary by id, with its provenance and postings. */
export async function putSummaries(tx: Transaction, summaries: readonly Summary[]): Promise<void> {
  for (const summary of summaries) {
    if ((await tx.query('SELECT 1 FROM sessions WHERE id = $1', [summary.sessionId])).length === 0) {
      throw new StrataError('NOT_FOUND', `Session "${summary.sessionId}" does not exist, so strata cannot store summary "${summary.id}" for it.`, {
        hint: 'Create the session first (or a putSession step earlier in the same batch); a forgotten session takes its summaries with it.',
      });
    }
    await tx.query('DELETE FROM summaries WHERE id = $1', [summary.id]);
    await tx.query('INSERT INTO summaries (id, session_id, namespace, level, from_seq, to_seq, text, created_at, degraded) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
      summary.id,
      summary.sessionId,
      summary.namespace,
      summary.level,
      summary.fromSeq,
      summary.toSeq,
      storedText(summary.text),
      summary.createdAt,
      summary.degraded,
    ]);
    await replaceSources(tx, 'summary', summary.id, summary.sourceMessageIds);
  }
  await replacePostings(
    tx,
    'summary',
    summaries.map((s) => s.id),
    summaries.map((s) => ({ namespace: s.namespace, kind: 'summary' as const, id: s.id, sessionId: s.sessionId, text: s.text })),
  );
}

/** Inserts or replaces each fact by id; superseded facts stay stored, searches skip them. */
export async function putFacts(tx: Transaction, facts: readonly Fact[]): Promise<void> {
  for (const fact of facts) {
    await tx.query('DELETE FROM facts WHERE id = $1', [fact.id]);
    await tx.query(
      `INSERT INTO facts (id, namespace, subject, predicate, object, text, valid_from, valid_to, superseded_by, confidence, created_at, degraded)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        fact.id,
        fact.namespace,
        storedText(fact.subject),
        storedText(fact.predicate),
        storedText(fact.object),
        storedText(fact.text),
        fact.validFrom,
        isCurrent(fact) ? null : fact.validTo,
        fact.supersededBy ?? null,
        fact.confidence,
        fact.createdAt,
        fact.degraded,
      ],
    );
    await replaceSources(tx, 'fact', fact.id, fact.sourceMessageIds);
  }
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

async function replaceSources(tx: Queryable, kind: 'summary' | 'fact', item: string, messageIds: readonly string[]): Promise<void> {
  await tx.query('DELETE FROM provenance WHERE item_kind = $1 AND item_id = $2', [kind, item]);
  if (messageIds.length === 0) return;
  // a message listed twice keeps its first position
  await tx.query(
    `INSERT INTO provenance (item_kind, item_id, message_id, position)
     SELECT $1, $2, message_id, position FROM unnest($3::text[]) WITH ORDINALITY AS s (message_id, position)
     ON CONFLICT DO NOTHING`,
    [kind, item, messageIds],
  );
}

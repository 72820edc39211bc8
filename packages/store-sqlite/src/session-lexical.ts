import { analyzeText } from '@strata/core';
import type { LexicalHit, LexicalKind, LexicalQuery } from '@strata/core';
import type { StatementCache } from './session-statement-cache.js';

/** The FTS5 index of each kind and the base table whose rowids it shares. */
const INDEXES: Record<LexicalKind, { fts: string; table: string; hasSession: boolean; current?: string }> = {
  turn: { fts: 'messages_fts', table: 'messages', hasSession: true },
  summary: { fts: 'summaries_fts', table: 'summaries', hasSession: true },
  // Superseded facts stay indexed for history; a search returns only current ones.
  fact: { fts: 'facts_fts', table: 'facts', hasSession: false, current: 'b.valid_to IS NULL' },
};

/**
 * BM25 search over the FTS5 indexes, best first, at most `k` hits, ties by kind then id
 * (the in-memory store's order). The query is analyzed like the indexed text (core's
 * `analyzeText`: stop words, stemming), and any shared term is a match.
 */
export function searchLexical(cache: StatementCache, query: LexicalQuery): LexicalHit[] {
  const terms = [...new Set(analyzeText(query.text))];
  const k = Number.isNaN(query.k) ? 0 : Math.max(0, Math.floor(query.k));
  if (terms.length === 0 || k === 0) return [];
  // Quoted, so that a term is never read as FTS5 syntax (AND, NEAR, column filters, ...).
  const match = terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
  const hits: LexicalHit[] = [];
  for (const kind of new Set(query.kinds)) {
    // Facts belong to the namespace, not to a session: a session-scoped search has none.
    if (kind === 'fact' && query.sessionId !== undefined) continue;
    hits.push(...searchKind(cache, kind, match, query, k));
  }
  return hits.sort(byScoreThenKindThenId).slice(0, k);
}

function searchKind(cache: StatementCache, kind: LexicalKind, match: string, query: LexicalQuery, k: number): LexicalHit[] {
  const index = INDEXES[kind];
  const inSession = index.hasSession && query.sessionId !== undefined;
  // FTS5's bm25() is lower-is-better (negative); strata's scores are higher-is-better.
  const sql = `SELECT b.id AS id, -bm25(${index.fts}) AS score
    FROM ${index.fts} JOIN ${index.table} b ON b.rowid = ${index.fts}.rowid
    WHERE ${index.fts} MATCH ? AND b.namespace = ?${inSession ? ' AND b.session_id = ?' : ''}${index.current ? ` AND ${index.current}` : ''}
    ORDER BY score DESC, b.id LIMIT ?`;
  const params = inSession ? [match, query.namespace, query.sessionId, limitOf(k)] : [match, query.namespace, limitOf(k)];
  const rows = cache.get(sql).all(...params) as { id: string; score: number }[];
  return rows.map((row) => ({ kind, id: row.id, score: row.score }));
}

/** SQLite reads LIMIT -1 as "no limit". */
function limitOf(k: number): number {
  return Number.isFinite(k) ? k : -1;
}

function byScoreThenKindThenId(a: LexicalHit, b: LexicalHit): number {
  return b.score - a.score || compare(a.kind, b.kind) || compare(a.id, b.id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

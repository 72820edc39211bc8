import type { Queryable } from './database.js';

/**
 * Planner statistics after imports. Autovacuum analyzes a table once about a tenth of it
 * changed, but only at its next round (a minute apart by default), and a table that was never
 * analyzed has no statistics at all. In between, the planner guesses: over 100k freshly imported
 * turns it scanned the whole messages table to read a few seq ranges (38 ms instead of 0.4 ms,
 * EXPLAIN ANALYZE). So a store counts the turns it imported and, once they pass autovacuum's
 * own threshold (50 rows + 10 % of the table as last analyzed), vacuums and analyzes the tables
 * an import grows at once. The vacuum sets their pages all-visible, so that counting a term's
 * postings is an index-only scan: over 1M turns, a search spent a quarter of its time fetching
 * heap rows to count them. The server's change counters cannot be used for this: a backend
 * reports its changes to them up to a second after it commits.
 */
export class ImportStatistics {
  /** The tables an import grows. */
  static readonly TABLES = ['lexical_docs', 'lexical_terms', 'messages', 'sessions'] as const;
  private importedSinceAnalyze = 0;

  constructor(private readonly schema: string) {}

  /** Notes `turns` imported; vacuums and analyzes the imported tables when they pass the threshold. Returns whether it did. */
  async imported(db: Queryable, turns: number): Promise<boolean> {
    this.importedSinceAnalyze += turns;
    const [row] = await db.query<{ rows: number }>(`SELECT GREATEST(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = to_regclass($1)`, [`${this.schema}.messages`]);
    if (this.importedSinceAnalyze < 50 + 0.1 * (row?.rows ?? 0)) return false;
    this.importedSinceAnalyze = 0;
    // the schema name was validated on open; the table names are the fixed list above
    for (const table of ImportStatistics.TABLES) await db.query(`VACUUM (ANALYZE) ${this.schema}.${table}`);
    return true;
  }
}

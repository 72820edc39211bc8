import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/open-database.js';
import { selectFacts, selectJobs, selectMessages, selectSummaries } from '../src/session-queries.js';
import { StatementCache } from '../src/session-statement-cache.js';
import { prepareWriteStatements } from '../src/session-statements.js';

/** Remembers the SQL of the last statement a read asked for, so that its plan can be read. */
class RecordingCache extends StatementCache {
  lastSql = '';

  override get(sql: string): ReturnType<StatementCache['get']> {
    this.lastSql = sql;
    return super.get(sql);
  }
}

/**
 * The main read and write paths use indexes: their query plans search an index rather than
 * scan a table. (Plans are read on an empty database; SQLite plans without statistics.)
 */
describe('SqliteSessionStore query plans', () => {
  let db: Database.Database;
  let cache: RecordingCache;

  /** EXPLAIN QUERY PLAN details; every `?` bound to NULL, since a plan does not depend on values. */
  const planOf = (sql: string): string[] => {
    const parameters = new Array<null>((sql.match(/\?/g) ?? []).length).fill(null);
    return db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...parameters)
      .map((row) => (row as { detail: string }).detail);
  };
  const planOfRead = (read: () => unknown): string[] => {
    read();
    return planOf(cache.lastSql);
  };

  beforeAll(() => {
    db = openDatabase({ path: ':memory:' });
    cache = new RecordingCache(db);
  });

  afterAll(() => {
    db.close();
  });

  it('messages of a session by seq range search the (session_id, seq) index', () => {
    const plan = planOfRead(() => selectMessages(cache, { sessionId: 's1', fromSeq: 10, toSeq: 20 }));
    expect(plan).toEqual([expect.stringMatching(/^SEARCH messages USING INDEX \S+ \(session_id=\? AND seq>\? AND seq<\?\)$/)]);
  });

  it('the last N messages of a session are read backwards through the index, without sorting the session', () => {
    const plan = planOfRead(() => selectMessages(cache, { sessionId: 's1', last: 20 }));
    const inner = plan.slice(plan.indexOf('CO-ROUTINE (subquery-1)') + 1, plan.indexOf('SCAN (subquery-1)'));
    // Only the N rows kept are sorted back into ascending order, outside the subquery.
    expect(inner).toEqual([expect.stringMatching(/^SEARCH messages USING INDEX \S+ \(session_id=\?\)$/)]);
  });

  it('summaries of a session by level and minToSeq search summaries_by_session; provenance by its key', () => {
    const plan = planOfRead(() => selectSummaries(cache, { sessionId: 's1', level: 'batch', minToSeq: 5 }));
    expect(plan).toContain('SEARCH s USING INDEX summaries_by_session (session_id=? AND level=? AND to_seq>?)');
    expect(plan).toContain('SEARCH p USING PRIMARY KEY (item_kind=? AND item_id=?)');
    expect(plan.filter((step) => step.startsWith('SCAN s') || step.startsWith('SCAN p'))).toEqual([]);
  });

  it('facts of a slot search facts_by_slot', () => {
    const plan = planOfRead(() => selectFacts(cache, { namespace: 'ns', subject: 'user', predicate: 'lives_in', includeSuperseded: true }));
    expect(plan).toContain('SEARCH f USING INDEX facts_by_slot (namespace=? AND subject=? AND predicate=?)');
    const integrity = prepareWriteStatements(db).currentFactsOfSlot.source;
    expect(planOf(integrity)).toContain('SEARCH facts USING INDEX facts_by_slot (namespace=? AND subject=? AND predicate=?)');
  });

  it('items derived from given messages are found through provenance_by_message', () => {
    for (const read of [() => selectSummaries(cache, { sourceMessageIds: ['m1'] }), () => selectFacts(cache, { sourceMessageIds: ['m1'] })]) {
      const plan = planOfRead(read);
      expect(plan).toContain('SEARCH p USING COVERING INDEX provenance_by_message (message_id=? AND item_kind=?)');
      expect(plan.filter((step) => /^SCAN (s|f|p)\b/.test(step))).toEqual([]);
    }
  });

  it('jobs of a session search jobs_by_session', () => {
    expect(planOfRead(() => selectJobs(cache, { sessionId: 's1', type: 'summarize' }))).toContain('SEARCH jobs USING INDEX jobs_by_session (session_id=? AND type=?)');
  });

  it('the overlap check and the session delete steps search indexes', () => {
    const statements = prepareWriteStatements(db);
    expect(planOf(statements.overlappingSummary.source)).toContain('SEARCH o USING INDEX summaries_by_session (session_id=? AND level=? AND to_seq>?)');
    for (const statement of [statements.deleteSessionSummarySources, statements.deleteSessionJobs]) {
      expect(planOf(statement.source).filter((step) => /^SCAN (messages|summaries|provenance|jobs)\b/.test(step))).toEqual([]);
    }
  });
});

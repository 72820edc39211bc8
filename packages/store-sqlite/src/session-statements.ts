import type Database from 'better-sqlite3';
import type { FactRow, JobRow, MessageRow, SessionRow, SummaryRow } from './session-rows.js';

type Statement<P extends unknown[] = unknown[], R = unknown> = Database.Statement<P, R>;

/** A stored batch summary (`t_`) and another batch summary of its session overlapping it. */
export interface OverlapRow {
  t_id: string;
  t_from: number;
  t_to: number;
  id: string;
  from_seq: number;
  to_seq: number;
}

interface SessionStatements {
  sessionById: Statement<[string], { namespace: string; last_seq: number; updated_at: number }>;
  upsertSession: Statement<[SessionRow]>;
  advanceSession: Statement<[{ id: string; last_seq: number; updated_at: number }]>;
  raiseLastSeq: Statement<[{ id: string; seq: number }]>;
  deleteSession: Statement<[string]>;
  deleteSessionSummarySources: Statement<[string]>;
  deleteSessionJobs: Statement<[string]>;
}

interface MessageStatements {
  messageById: Statement<[string], { session_id: string; seq: number }>;
  messageAtSeq: Statement<[string, number], { id: string }>;
  insertMessage: Statement<[MessageRow]>;
  deleteMessage: Statement<[string]>;
}

interface DerivedStatements {
  insertSummary: Statement<[SummaryRow]>;
  deleteSummary: Statement<[string]>;
  overlappingSummary: Statement<[string], OverlapRow>;
  insertFact: Statement<[FactRow]>;
  deleteFact: Statement<[string]>;
  currentFactsOfSlot: Statement<[string, string, string], string>;
  insertSource: Statement<[{ kind: string; item: string; message: string; position: number }]>;
  deleteSources: Statement<[string, string]>;
  jobExists: Statement<[string], number>;
  insertJob: Statement<[JobRow]>;
  deleteJob: Statement<[string]>;
}

/** Every statement a write step runs, prepared once per store. */
export type WriteStatements = SessionStatements & MessageStatements & DerivedStatements;

export function prepareWriteStatements(db: Database.Database): WriteStatements {
  return { ...prepareSessionStatements(db), ...prepareMessageStatements(db), ...prepareDerivedStatements(db) };
}

function prepareSessionStatements(db: Database.Database): SessionStatements {
  return {
    sessionById: db.prepare('SELECT namespace, last_seq, updated_at FROM sessions WHERE id = ?'),
    upsertSession: db.prepare(`
      INSERT INTO sessions (id, namespace, title, metadata, created_at, updated_at, last_seq)
      VALUES (@id, @namespace, @title, @metadata, @created_at, @updated_at, @last_seq)
      ON CONFLICT (id) DO UPDATE SET
        namespace = excluded.namespace, title = excluded.title, metadata = excluded.metadata,
        created_at = excluded.created_at, updated_at = excluded.updated_at,
        last_seq = max(sessions.last_seq, excluded.last_seq)`),
    advanceSession: db.prepare('UPDATE sessions SET last_seq = @last_seq, updated_at = @updated_at WHERE id = @id'),
    raiseLastSeq: db.prepare('UPDATE sessions SET last_seq = max(last_seq, @seq) WHERE id = @id'),
    deleteSession: db.prepare('DELETE FROM sessions WHERE id = ?'),
    deleteSessionSummarySources: db.prepare("DELETE FROM provenance WHERE item_kind = 'summary' AND item_id IN (SELECT id FROM summaries WHERE session_id = ?)"),
    deleteSessionJobs: db.prepare('DELETE FROM jobs WHERE session_id = ?'),
  };
}

function prepareMessageStatements(db: Database.Database): MessageStatements {
  return {
    messageById: db.prepare('SELECT session_id, seq FROM messages WHERE id = ?'),
    messageAtSeq: db.prepare('SELECT id FROM messages WHERE session_id = ? AND seq = ?'),
    insertMessage: db.prepare(`
      INSERT INTO messages (id, session_id, namespace, seq, role, content, name, tool_calls, tool_call_id, metadata, created_at, tokens, token_counter)
      VALUES (@id, @session_id, @namespace, @seq, @role, @content, @name, @tool_calls, @tool_call_id, @metadata, @created_at, @tokens, @token_counter)`),
    deleteMessage: db.prepare('DELETE FROM messages WHERE id = ?'),
  };
}

function prepareDerivedStatements(db: Database.Database): DerivedStatements {
  return {
    insertSummary: db.prepare(`
      INSERT INTO summaries (id, session_id, namespace, level, from_seq, to_seq, text, created_at, degraded)
      VALUES (@id, @session_id, @namespace, @level, @from_seq, @to_seq, @text, @created_at, @degraded)`),
    deleteSummary: db.prepare('DELETE FROM summaries WHERE id = ?'),
    // Only neighbours of the touched summary: a range scan of summaries_by_session.
    overlappingSummary: db.prepare(`
      SELECT t.id AS t_id, t.from_seq AS t_from, t.to_seq AS t_to, o.id, o.from_seq, o.to_seq
      FROM summaries t JOIN summaries o
        ON o.session_id = t.session_id AND o.level = 'batch' AND o.to_seq >= t.from_seq AND o.from_seq <= t.to_seq AND o.id <> t.id
      WHERE t.id = ? AND t.level = 'batch'
      ORDER BY o.from_seq, o.to_seq, o.id LIMIT 1`),
    insertFact: db.prepare(`
      INSERT INTO facts (id, namespace, subject, predicate, object, text, valid_from, valid_to, superseded_by, confidence, created_at, degraded)
      VALUES (@id, @namespace, @subject, @predicate, @object, @text, @valid_from, @valid_to, @superseded_by, @confidence, @created_at, @degraded)`),
    deleteFact: db.prepare('DELETE FROM facts WHERE id = ?'),
    // `+valid_from` keeps the planner on facts_by_slot (see selectFacts).
    currentFactsOfSlot: db
      .prepare<[string, string, string], string>('SELECT id FROM facts WHERE namespace = ? AND subject = ? AND predicate = ? AND valid_to IS NULL ORDER BY +valid_from, id')
      .pluck(),
    // OR IGNORE: the key is (item, message), so a message listed twice keeps its first position.
    insertSource: db.prepare('INSERT OR IGNORE INTO provenance (item_kind, item_id, message_id, position) VALUES (@kind, @item, @message, @position)'),
    deleteSources: db.prepare('DELETE FROM provenance WHERE item_kind = ? AND item_id = ?'),
    jobExists: db.prepare<[string], number>('SELECT 1 FROM jobs WHERE key = ?').pluck(),
    insertJob: db.prepare(`
      INSERT INTO jobs (key, type, session_id, from_seq, to_seq, applied_at, usage)
      VALUES (@key, @type, @session_id, @from_seq, @to_seq, @applied_at, @usage)
      ON CONFLICT (key) DO NOTHING`),
    deleteJob: db.prepare('DELETE FROM jobs WHERE key = ?'),
  };
}

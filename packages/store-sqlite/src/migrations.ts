// Kept in one file: the schema's migrations in order, so its history reads top to bottom and a new one goes at the end.
import type Database from 'better-sqlite3';
import { StrataError, nameProblem } from '@strata/core';

/**
 * Schema versions, applied in order and recorded in `PRAGMA user_version`. Never edit a
 * released migration: add the next one. Each runs in one transaction.
 */
/** A fact's predicate kind: `pet:dog` -> `pet`. The same expression in the index and in queries, so the index is used. */
export const predicateKindSql = (column: string): string => `(CASE WHEN instr(${column}, ':') > 0 THEN substr(${column}, 1, instr(${column}, ':') - 1) ELSE ${column} END)`;

export const MIGRATIONS: readonly { version: number; description: string; up: (db: Database.Database) => void }[] = [
  {
    version: 1,
    description: 'sessions, messages, summaries, facts, provenance, job ledger, knowledge vectors',
    up: (db) =>
      db.exec(`
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY,
          namespace TEXT NOT NULL,
          title TEXT,
          metadata TEXT NOT NULL DEFAULT '{}',
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          last_seq INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX sessions_by_namespace ON sessions (namespace, updated_at DESC);
        CREATE INDEX sessions_by_update ON sessions (updated_at DESC);

        CREATE TABLE messages (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          namespace TEXT NOT NULL,
          seq INTEGER NOT NULL,
          role TEXT NOT NULL,
          content TEXT NOT NULL,
          name TEXT,
          tool_calls TEXT,
          tool_call_id TEXT,
          metadata TEXT NOT NULL DEFAULT '{}',
          created_at INTEGER NOT NULL,
          UNIQUE (session_id, seq)
        );
        CREATE INDEX messages_by_namespace ON messages (namespace);

        CREATE TABLE summaries (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          namespace TEXT NOT NULL,
          level TEXT NOT NULL,
          from_seq INTEGER NOT NULL,
          to_seq INTEGER NOT NULL,
          text TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          degraded INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX summaries_by_session ON summaries (session_id, level, to_seq);
        CREATE INDEX summaries_by_namespace ON summaries (namespace);

        CREATE TABLE facts (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          namespace TEXT NOT NULL,
          subject TEXT NOT NULL,
          predicate TEXT NOT NULL,
          object TEXT NOT NULL,
          text TEXT NOT NULL,
          valid_from INTEGER NOT NULL,
          valid_to INTEGER,
          superseded_by TEXT,
          confidence REAL NOT NULL,
          created_at INTEGER NOT NULL,
          degraded INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX facts_by_slot ON facts (namespace, subject, predicate);
        CREATE INDEX facts_by_time ON facts (namespace, valid_from);

        -- which messages a summary or fact was derived from (invariant 5)
        CREATE TABLE provenance (
          item_kind TEXT NOT NULL CHECK (item_kind IN ('summary', 'fact')),
          item_id TEXT NOT NULL,
          message_id TEXT NOT NULL,
          position INTEGER NOT NULL,
          PRIMARY KEY (item_kind, item_id, message_id)
        ) WITHOUT ROWID;
        CREATE INDEX provenance_by_message ON provenance (message_id);

        -- no foreign key: the ledger may record a job of a session that is gone (a result
        -- applied after its session was forgotten); deleting a session deletes its jobs itself
        CREATE TABLE jobs (
          key TEXT PRIMARY KEY,
          type TEXT NOT NULL,
          session_id TEXT NOT NULL,
          from_seq INTEGER NOT NULL,
          to_seq INTEGER NOT NULL,
          applied_at INTEGER NOT NULL
        );
        CREATE INDEX jobs_by_session ON jobs (session_id, type, to_seq);

        -- the embedded knowledge base: an index, rebuildable from the tables above
        CREATE TABLE knowledge (
          id TEXT PRIMARY KEY,
          namespace TEXT NOT NULL,
          kind TEXT NOT NULL,
          session_id TEXT,
          current INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          vector BLOB NOT NULL
        );
        CREATE INDEX knowledge_by_namespace ON knowledge (namespace, kind);
        CREATE INDEX knowledge_by_session ON knowledge (session_id);
        CREATE TABLE knowledge_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      `),
  },
  {
    version: 2,
    description: 'FTS5 lexical indexes over messages, summaries and facts (terms analyzed by @strata/core)',
    up: (db) => {
      db.exec(`
        CREATE VIRTUAL TABLE messages_fts USING fts5 (terms, content = '', contentless_delete = 1, tokenize = 'unicode61');
        CREATE VIRTUAL TABLE summaries_fts USING fts5 (terms, content = '', contentless_delete = 1, tokenize = 'unicode61');
        CREATE VIRTUAL TABLE facts_fts USING fts5 (terms, content = '', contentless_delete = 1, tokenize = 'unicode61');
      `);
      // rows written under version 1 get their terms now
      db.exec(`
        INSERT INTO messages_fts (rowid, terms) SELECT rowid, strata_terms(content) FROM messages;
        INSERT INTO summaries_fts (rowid, terms) SELECT rowid, strata_terms(text) FROM summaries;
        INSERT INTO facts_fts (rowid, terms) SELECT rowid, strata_terms(text) FROM facts;
      `);
    },
  },
  {
    version: 3,
    description: 'topics, the conversation tree (turn links) and cold (compressed) message text',
    up: (db) =>
      db.exec(`
        -- a cold message keeps its text deflated in content_z (core's compressText) and an
        -- empty content; messages_fts is contentless and keeps the terms, so search still finds it
        ALTER TABLE messages ADD COLUMN content_z BLOB;
        ALTER TABLE messages ADD COLUMN text_bytes INTEGER;

        CREATE TABLE topics (
          id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          namespace TEXT NOT NULL,
          title TEXT NOT NULL,
          importance REAL NOT NULL,
          access_count INTEGER NOT NULL,
          last_active_at INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          centroid BLOB NOT NULL,
          vector_count INTEGER NOT NULL,
          cold_since INTEGER
        );
        CREATE INDEX topics_by_session ON topics (session_id, created_at);

        -- forgetting a message deletes its link (a session's go with its messages)
        CREATE TABLE turn_links (
          message_id TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
          session_id TEXT NOT NULL,
          namespace TEXT NOT NULL,
          seq INTEGER NOT NULL,
          role TEXT NOT NULL,
          parent_id TEXT,
          topic_id TEXT NOT NULL
        );
        CREATE INDEX turn_links_by_session ON turn_links (session_id, seq);
        CREATE INDEX turn_links_by_topic ON turn_links (topic_id, seq);
      `),
  },
  {
    version: 4,
    description: 'drop the FTS5 indexes: lexical search is answered in process (SessionLexicalCache) from the base tables',
    // Their pages go to the freelist and are reused by later writes (no VACUUM: it would
    // rewrite the whole file inside open). Base tables keep every text, so nothing is lost.
    up: (db) =>
      db.exec(`
        DROP TABLE messages_fts;
        DROP TABLE summaries_fts;
        DROP TABLE facts_fts;
      `),
  },
  {
    version: 5,
    description: "index facts by namespace and predicate kind (before ':'), for the profile read by every getContext",
    up: (db) => db.exec(`CREATE INDEX facts_by_kind ON facts (namespace, ${predicateKindSql('predicate')}, valid_to);`),
  },
  {
    version: 6,
    description: 'lexical index snapshots: a namespace is restored from one row instead of re-analyzing every text',
    up: (db) =>
      db.exec(`
        CREATE TABLE lexical_snapshots (
          namespace TEXT PRIMARY KEY,
          -- core's lexicalRulesFingerprint() when it was taken: other rules, other terms
          rules TEXT NOT NULL,
          -- the largest rowid of each table it holds: later rows are added on restore
          messages_rowid INTEGER NOT NULL,
          summaries_rowid INTEGER NOT NULL,
          facts_rowid INTEGER NOT NULL,
          documents INTEGER NOT NULL,
          data BLOB NOT NULL,
          saved_at INTEGER NOT NULL
        );
      `),
  },
  {
    version: 7,
    description: "a turn's prompt tokens, counted once when stored and named by the counter that counted them",
    up: (db) =>
      db.exec(`
        ALTER TABLE messages ADD COLUMN tokens INTEGER;
        ALTER TABLE messages ADD COLUMN token_counter TEXT;
      `),
  },
  {
    version: 8,
    description: 'namespaces stored before names had to be exact (no surrounding or invisible whitespace, no control characters, NFC), reported, not changed',
    up: (db) => {
      db.exec(`
        -- found by this migration; the rows stay readable (lookups compare exactly), nothing is renamed
        CREATE TABLE namespace_problems (namespace TEXT PRIMARY KEY, problem TEXT NOT NULL, found_at INTEGER NOT NULL);
      `);
      const namespaces = db.prepare('SELECT namespace FROM sessions UNION SELECT namespace FROM facts').pluck().all() as string[];
      const insert = db.prepare('INSERT INTO namespace_problems (namespace, problem, found_at) VALUES (?, ?, ?)');
      const now = Date.now();
      for (const namespace of namespaces) {
        const problem = nameProblem(namespace);
        if (problem !== undefined) insert.run(namespace, problem, now);
      }
    },
  },
  {
    version: 9,
    description: "a job's token usage, as the models reported it (JSON), beside its ledger record",
    // NULL on every older record and on jobs that called no model: their usage is unknown, not zero
    up: (db) => db.exec('ALTER TABLE jobs ADD COLUMN usage TEXT;'),
  },
];

/**
 * The schema version this package writes (`PRAGMA user_version`): opening a file migrates an
 * older one up to it and refuses a newer one (CONFIG_INVALID).
 */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Brings a database to SCHEMA_VERSION. A file from a newer strata, or a SQLite file that
 * holds someone else's tables, is refused rather than modified.
 */
export function migrate(db: Database.Database, file: string, upTo: number = SCHEMA_VERSION): void {
  for (const migration of MIGRATIONS) {
    if (migration.version > upTo) break;
    // Each step re-reads the version inside its write transaction: two processes opening a
    // new file at once must not both run a migration.
    db.transaction(() => {
      const current = versionOf(db, file);
      if (migration.version <= current) return;
      if (current === 0) assertEmpty(db, file);
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  versionOf(db, file);
}

function versionOf(db: Database.Database, file: string): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new StrataError('CONFIG_INVALID', `SQLite database ${file} has schema version ${current}, newer than this strata (${SCHEMA_VERSION})`, {
      hint: 'Upgrade @strata/store-sqlite, or point path at another file.',
    });
  }
  return current;
}

function assertEmpty(db: Database.Database, file: string): void {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
  if (tables.length > 0) {
    throw new StrataError('CONFIG_INVALID', `SQLite database ${file} is not a strata database (it has tables: ${tables.slice(0, 5).join(', ')})`, {
      hint: "Point path at a new file or an existing strata database; strata does not write into other applications' databases.",
    });
  }
}

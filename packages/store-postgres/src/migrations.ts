import { StrataError } from '@strata/core';
import type { Database, Queryable } from './database.js';

/**
 * Schema versions, applied in order and recorded in `schema_migrations` of strata's schema.
 * Never edit a released migration: add the next one. All pending ones run in one transaction
 * (PostgreSQL's DDL is transactional) under an advisory lock, so two processes opening a new
 * database at once migrate it once.
 */
export const MIGRATIONS: readonly { version: number; description: string; sql: string }[] = [
  {
    version: 1,
    description: 'sessions, messages, summaries, facts, provenance, job ledger, topics and turn links, lexical postings',
    sql: `
      -- text compares byte by byte (COLLATE "C"), as SQLite and JavaScript order ids, whatever the database's locale
      CREATE TABLE sessions (
        id text COLLATE "C" PRIMARY KEY,
        namespace text COLLATE "C" NOT NULL,
        title text COLLATE "C",
        metadata text COLLATE "C" NOT NULL,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        last_seq bigint NOT NULL DEFAULT 0
      );
      CREATE INDEX sessions_by_namespace ON sessions (namespace, updated_at DESC, id);
      CREATE INDEX sessions_by_update ON sessions (updated_at DESC, id);

      CREATE TABLE messages (
        id text COLLATE "C" PRIMARY KEY,
        session_id text COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        namespace text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        role text COLLATE "C" NOT NULL,
        -- empty while the text COLLATE "C" is cold: content_z then holds core's compressText of it
        content text COLLATE "C" NOT NULL,
        content_z bytea,
        text_bytes integer,
        name text COLLATE "C",
        tool_calls text COLLATE "C",
        tool_call_id text COLLATE "C",
        metadata text COLLATE "C" NOT NULL,
        created_at bigint NOT NULL,
        tokens integer,
        token_counter text COLLATE "C",
        UNIQUE (session_id, seq)
      );
      CREATE INDEX messages_by_namespace ON messages (namespace);

      CREATE TABLE summaries (
        id text COLLATE "C" PRIMARY KEY,
        session_id text COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        namespace text COLLATE "C" NOT NULL,
        level text COLLATE "C" NOT NULL,
        from_seq bigint NOT NULL,
        to_seq bigint NOT NULL,
        text text COLLATE "C" NOT NULL,
        created_at bigint NOT NULL,
        degraded boolean NOT NULL
      );
      CREATE INDEX summaries_by_session ON summaries (session_id, level, to_seq);
      CREATE INDEX summaries_by_namespace ON summaries (namespace);

      CREATE TABLE facts (
        id text COLLATE "C" PRIMARY KEY,
        namespace text COLLATE "C" NOT NULL,
        subject text COLLATE "C" NOT NULL,
        predicate text COLLATE "C" NOT NULL,
        object text COLLATE "C" NOT NULL,
        text text COLLATE "C" NOT NULL,
        valid_from bigint NOT NULL,
        valid_to bigint,
        superseded_by text COLLATE "C",
        confidence double precision NOT NULL,
        created_at bigint NOT NULL,
        degraded boolean NOT NULL
      );
      CREATE INDEX facts_by_slot ON facts (namespace, subject, predicate);
      CREATE INDEX facts_by_time ON facts (namespace, valid_from, id);
      -- a predicate's kind is the part before ':' (all of it without one), for the profile read
      CREATE INDEX facts_by_kind ON facts (namespace, split_part(predicate, ':', 1), valid_to);

      -- which messages a summary or fact was derived from (invariant 5)
      CREATE TABLE provenance (
        item_kind text COLLATE "C" NOT NULL CHECK (item_kind IN ('summary', 'fact')),
        item_id text COLLATE "C" NOT NULL,
        message_id text COLLATE "C" NOT NULL,
        position integer NOT NULL,
        PRIMARY KEY (item_kind, item_id, message_id)
      );
      CREATE INDEX provenance_by_message ON provenance (message_id);

      -- no foreign key: the ledger may record a job of a session that is gone (a result
      -- applied after its session was forgotten); deleting a session deletes its jobs itself
      CREATE TABLE jobs (
        key text COLLATE "C" PRIMARY KEY,
        type text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        from_seq bigint NOT NULL,
        to_seq bigint NOT NULL,
        applied_at bigint NOT NULL
      );
      CREATE INDEX jobs_by_session ON jobs (session_id, type, to_seq);

      CREATE TABLE topics (
        id text COLLATE "C" PRIMARY KEY,
        session_id text COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        namespace text COLLATE "C" NOT NULL,
        title text COLLATE "C" NOT NULL,
        importance double precision NOT NULL,
        access_count integer NOT NULL,
        last_active_at bigint NOT NULL,
        created_at bigint NOT NULL,
        -- float64 values, so a read returns exactly the centroid written
        centroid bytea NOT NULL,
        vector_count integer NOT NULL,
        cold_since bigint
      );
      CREATE INDEX topics_by_session ON topics (session_id, created_at, id);

      -- forgetting a message deletes its link (a session's go with its messages)
      CREATE TABLE turn_links (
        message_id text COLLATE "C" PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
        session_id text COLLATE "C" NOT NULL,
        namespace text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        role text COLLATE "C" NOT NULL,
        parent_id text COLLATE "C",
        topic_id text COLLATE "C" NOT NULL
      );
      CREATE INDEX turn_links_by_session ON turn_links (session_id, seq);
      CREATE INDEX turn_links_by_topic ON turn_links (topic_id, seq);

      -- Lexical search (BM25) answered by the server from postings of terms analyzed by
      -- @strata/core, so that every process sees one index. A document is a turn, a summary
      -- or a current fact; doc numbers give the indexing order that breaks ties.
      CREATE TABLE lexical_docs (
        doc bigserial PRIMARY KEY,
        namespace text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL CHECK (kind IN ('turn', 'summary', 'fact')),
        id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C",
        length integer NOT NULL,
        UNIQUE (kind, id)
      );
      -- a posting carries its document's length and session, so a search reads the postings of
      -- its terms and nothing else until the best k are chosen
      CREATE TABLE lexical_terms (
        namespace text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL,
        term text COLLATE "C" NOT NULL,
        doc bigint NOT NULL REFERENCES lexical_docs (doc) ON DELETE CASCADE,
        tf real NOT NULL,
        length integer NOT NULL,
        session_id text COLLATE "C",
        PRIMARY KEY (namespace, kind, term, doc)
      );
      CREATE INDEX lexical_terms_by_doc ON lexical_terms (doc);
      -- documents and their total length per namespace and kind (BM25's N and average length),
      -- summed over 16 shards: a write adds to the shard of its transaction id, so concurrent
      -- writers of one namespace seldom wait on one row
      CREATE TABLE lexical_stats (
        namespace text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL,
        shard smallint NOT NULL,
        documents bigint NOT NULL,
        total_length bigint NOT NULL,
        PRIMARY KEY (namespace, kind, shard)
      );
    `,
  },
  {
    version: 2,
    description: "a job's token usage, as the models reported it, beside its ledger record",
    sql: `
      -- NULL on every older record and on jobs that called no model: their usage is unknown, not zero
      ALTER TABLE jobs ADD COLUMN usage jsonb;
    `,
  },
  {
    version: 3,
    description: 'postings without a foreign key to their document: removed with it by the statement that removes it',
    sql: `
      -- the key's check ran once per posting (about a tenth of a millisecond: most of an append's
      -- and an import's time); every statement that removes documents removes their postings too
      ALTER TABLE lexical_terms DROP CONSTRAINT IF EXISTS lexical_terms_doc_fkey;
    `,
  },
  {
    version: 4,
    description: "a posting's weight inputs in its key's index: a search reads each term's postings from the index alone",
    sql: `
      -- a search reads every posting of its terms: tf, length and session came from a heap page
      -- each, scattered across the table (at 1M turns the table outgrows the buffer cache and a
      -- search read thousands of pages). In the key's index as INCLUDE columns, a term's postings
      -- are read in key order from the index's leaves (index-only scans; VACUUM keeps the
      -- visibility map that allows them up to date). Rebuilding the index takes the table's lock
      -- for the time it takes (about 35 s at 1M turns on a 2-core host).
      ALTER TABLE lexical_terms DROP CONSTRAINT lexical_terms_pkey,
        ADD CONSTRAINT lexical_terms_pkey PRIMARY KEY (namespace, kind, term, doc) INCLUDE (tf, length, session_id);
    `,
  },
  {
    version: 5,
    description: "which transaction wrote each lexical document, and a log of removed ones: what a process's replica of a namespace catches up from",
    sql: `
      -- the transaction that indexed a document (NULL: written before schema 5, older than any
      -- replica). A replica keeps the snapshot of its last read and asks for the documents and
      -- removals that snapshot did not see: in commit order or not, none is missed or read twice
      ALTER TABLE lexical_docs ADD COLUMN tx xid8;
      ALTER TABLE lexical_docs ALTER COLUMN tx SET DEFAULT pg_current_xact_id();
      CREATE INDEX lexical_docs_by_tx ON lexical_docs (namespace, tx);
      -- a namespace's documents in indexing order, for a replica's first load, page by page
      CREATE INDEX lexical_docs_by_namespace ON lexical_docs (namespace, doc);
      -- what was removed (kind and id only, never text), kept a day: a replica that has not read
      -- for half of that loads its namespace again
      CREATE TABLE lexical_removals (
        namespace text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
        at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX lexical_removals_by_tx ON lexical_removals (namespace, tx);
      CREATE INDEX lexical_removals_by_age ON lexical_removals (at);
    `,
  },
];

/**
 * The schema version this package writes (the highest version in `schema_migrations`): opening a
 * schema migrates an older one up to it and refuses a newer one (CONFIG_INVALID).
 */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Brings strata's schema to SCHEMA_VERSION, creating it if needed. A schema from a newer
 * strata, or one that holds someone else's tables, is refused rather than modified.
 */
export async function migrate(db: Database): Promise<void> {
  const schema = db.schema;
  await db.transaction(async (tx) => {
    // one lock per schema, held to the end of this transaction: a second process waits, then finds the work done
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`strata.migrate.${schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    const isNew = (await tx.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [`${schema}.schema_migrations`]))[0]?.exists !== true;
    if (isNew) {
      await assertEmpty(tx, schema, db.where);
      await tx.query(`CREATE TABLE ${schema}.schema_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at bigint NOT NULL)`);
    }
    const current = (await tx.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${schema}.schema_migrations`))[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new StrataError('CONFIG_INVALID', `${db.where} has schema version ${current}, newer than this strata (${SCHEMA_VERSION}).`, {
        hint: 'Upgrade @strata/store-postgres in every process that opens this database, or use another schema.',
      });
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await tx.query(`SET LOCAL search_path TO ${schema}`);
      await tx.query(migration.sql);
      await tx.query(`INSERT INTO ${schema}.schema_migrations (version, description, applied_at) VALUES ($1, $2, $3)`, [migration.version, migration.description, Date.now()]);
    }
  });
}

async function assertEmpty(tx: Queryable, schema: string, where: string): Promise<void> {
  const tables = await tx.query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name LIMIT 5', [schema]);
  if (tables.length === 0) return;
  throw new StrataError('CONFIG_INVALID', `${where} is not a strata schema (it has tables: ${tables.map((t) => t.name).join(', ')}).`, {
    hint: "Pass another schema (option schema, e.g. 'strata'); strata does not write into other applications' tables.",
  });
}

import type Database from 'better-sqlite3';
import { StrataError } from '@strata/core';
import type { KnowledgeEntry, KnowledgeFilter } from '@strata/core';
import { entryOf, valuesOf, whereClause } from './knowledge-rows.js';
import type { KnowledgeRow, KnowledgeRowValues } from './knowledge-rows.js';
import { REINDEX_HINT } from '@strata/core';
import { WalCheckpointer } from './wal-checkpointer.js';

/** What every connection to the file agrees on, from `knowledge_meta`. */
export interface KnowledgeMeta {
  /** Bumped by each write that changed something: another value means another connection wrote. */
  epoch: number;
  /** Fixed by the first writer; null while the file holds no vector yet. */
  dimensions: number | null;
}

/** The meta before and after one write transaction, and how many rows it changed. */
export interface WriteOutcome {
  before: KnowledgeMeta;
  after: KnowledgeMeta;
  changes: number;
}

/** Rows are handed to the cache in chunks so that loading a big namespace never holds it twice as arrays. */
const LOAD_CHUNK = 1024;

const UPSERT_SQL = `
  INSERT INTO knowledge (id, namespace, kind, session_id, current, created_at, vector) VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET namespace = excluded.namespace, kind = excluded.kind, session_id = excluded.session_id,
    current = excluded.current, created_at = excluded.created_at, vector = excluded.vector`;
const META_SQL = `SELECT (SELECT value FROM knowledge_meta WHERE key = 'epoch') AS epoch,
  (SELECT value FROM knowledge_meta WHERE key = 'dimensions') AS dimensions`;
const BUMP_EPOCH_SQL = `INSERT INTO knowledge_meta (key, value) VALUES ('epoch', '1')
  ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`;

function prepareStatements(db: Database.Database) {
  return {
    meta: db.prepare<[], { epoch: string | null; dimensions: string | null }>(META_SQL),
    bumpEpoch: db.prepare<[]>(BUMP_EPOCH_SQL),
    setDimensions: db.prepare<[string]>("INSERT INTO knowledge_meta (key, value) VALUES ('dimensions', ?)"),
    upsert: db.prepare<KnowledgeRowValues>(UPSERT_SQL),
    setCurrent: db.prepare<[number, string]>('UPDATE knowledge SET current = ? WHERE id = ?'),
    deleteId: db.prepare<[string]>('DELETE FROM knowledge WHERE id = ?'),
    namespaceRows: db.prepare<[string], KnowledgeRow>('SELECT id, kind, session_id, current, created_at, vector FROM knowledge WHERE namespace = ?'),
  };
}

/**
 * The SQL of the embedded knowledge base over one connection: statements prepared once, rows
 * mapped to entries. It holds no state of its own; the file is the truth.
 */
export class KnowledgeTable {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly writeTransaction: Database.Transaction<(work: (meta: KnowledgeMeta) => number) => WriteOutcome>;
  private readonly checkpoints: WalCheckpointer;

  constructor(private readonly db: Database.Database) {
    this.statements = prepareStatements(db);
    this.checkpoints = new WalCheckpointer(db);
    this.writeTransaction = db.transaction((work: (meta: KnowledgeMeta) => number): WriteOutcome => {
      const before = this.readMeta();
      const changes = work(before);
      // A no-op write leaves the epoch alone so that other connections keep their caches.
      if (changes > 0) this.statements.bumpEpoch.run();
      return { before, after: changes > 0 ? this.readMeta() : before, changes };
    });
  }

  readMeta(): KnowledgeMeta {
    const row = this.statements.meta.get();
    const dimensions = row?.dimensions ?? null;
    return { epoch: Number(row?.epoch ?? 0), dimensions: dimensions === null ? null : Number(dimensions) };
  }

  /**
   * Runs `work` (which returns how many rows it changed) in one IMMEDIATE transaction, after
   * reading the meta inside it: checks against it see every other connection's writes.
   */
  write(work: (meta: KnowledgeMeta) => number): WriteOutcome {
    const outcome = this.writeTransaction.immediate(work);
    this.checkpoints.afterCommit();
    return outcome;
  }

  /** Runs `read` in one read transaction: every statement in it sees the same snapshot. */
  snapshot<T>(read: () => T): T {
    return this.db.transaction(read).deferred();
  }

  /** Records `dimensions` in a new file, or checks it against the file's; writes only when needed. */
  claimDimensions(dimensions: number | undefined): KnowledgeMeta {
    const meta = this.readMeta();
    if (dimensions === undefined || meta.dimensions === dimensions) return meta;
    return this.write((current) => {
      if (current.dimensions === null) {
        this.setDimensions(dimensions);
        return 1;
      }
      if (current.dimensions === dimensions) return 0;
      const message = `SQLite database ${this.db.name} holds ${current.dimensions}-dimensional vectors; options.dimensions is ${dimensions}.`;
      throw new StrataError('CONFIG_INVALID', message, { hint: REINDEX_HINT });
    }).after;
  }

  setDimensions(dimensions: number): void {
    this.statements.setDimensions.run(String(dimensions));
  }

  upsert(entries: KnowledgeEntry[]): number {
    let changes = 0;
    for (const entry of entries) changes += this.statements.upsert.run(...valuesOf(entry)).changes;
    return changes;
  }

  setCurrent(changes: { id: string; current: boolean }[]): number {
    let changed = 0;
    for (const { id, current } of changes) changed += this.statements.setCurrent.run(current ? 1 : 0, id).changes;
    return changed;
  }

  /** Repeated ids count once: the second delete finds nothing. */
  deleteIds(ids: string[]): number {
    let removed = 0;
    for (const id of ids) removed += this.statements.deleteId.run(id).changes;
    return removed;
  }

  // Filtered statements are prepared per call: their shape varies, and they are not on a hot path.
  deleteWhere(filter: KnowledgeFilter): number {
    const where = whereClause(filter);
    return this.db.prepare(`DELETE FROM knowledge ${where.sql}`).run(...where.params).changes;
  }

  count(filter: KnowledgeFilter): number {
    const where = whereClause(filter);
    return (
      this.db
        .prepare<unknown[], number>(`SELECT count(*) FROM knowledge ${where.sql}`)
        .pluck()
        .get(...where.params) ?? 0
    );
  }

  /** Hands every entry of `namespace` to `onChunk`, a chunk at a time, in storage order. */
  eachNamespaceChunk(namespace: string, onChunk: (entries: KnowledgeEntry[]) => void): void {
    let chunk: KnowledgeEntry[] = [];
    for (const row of this.statements.namespaceRows.iterate(namespace)) {
      chunk.push(entryOf(row, namespace));
      if (chunk.length === LOAD_CHUNK) {
        onChunk(chunk);
        chunk = [];
      }
    }
    if (chunk.length > 0) onChunk(chunk);
  }

  /** Lets go of the checkpoint thread, then closes the connection. */
  async close(): Promise<void> {
    await this.checkpoints.release();
    this.db.close();
  }
}

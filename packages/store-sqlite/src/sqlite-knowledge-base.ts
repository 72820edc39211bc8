import {
  InMemoryKnowledgeBase,
  StrataError,
  knowledgeDimensionMismatch,
  invalidKnowledgeInput,
  validateChanges,
  validateDimensionsOption,
  validateEntries,
  validateFilter,
  validateIds,
  validateQueryNamespace,
} from '@strata/core';
import type { KnowledgeBase, KnowledgeEntry, KnowledgeFilter, KnowledgeMatch, KnowledgeQuery } from '@strata/core';
import { roundedEntry } from './knowledge-rows.js';
import { KnowledgeTable } from './knowledge-table.js';
import type { KnowledgeMeta, WriteOutcome } from './knowledge-table.js';
import { openDatabase } from './open-database.js';
import type { SqliteOpenOptions } from './open-database.js';
import { toStrataError } from './to-strata-error.js';

/** Options of `createSqliteKnowledgeBase`: how to open the file, and the vectors' dimension. */
export type SqliteKnowledgeBaseOptions = SqliteOpenOptions & {
  /**
   * Output size of the embeddings model. Fixed per file: stored on first use, and a file that
   * holds another dimension is refused. Omit it to take the file's, or the first upsert's.
   */
  dimensions?: number;
};

/**
 * Embedded {@link KnowledgeBase}: vectors as float32 BLOBs in the strata SQLite file, beside
 * the session store. SQLite is the truth; queries are answered by an in-process
 * InMemoryKnowledgeBase that loads a namespace on its first query, so opening a big file is
 * instant. Every write bumps an epoch in the file; a query that finds another epoch than the
 * one this instance last saw (another connection or process wrote) drops the cache first.
 *
 * Ordering: each SQL step and the matching cache call run in one synchronous stretch, with no
 * `await` between them, so the cache receives changes in the order SQLite committed them.
 */
export class SqliteKnowledgeBase implements KnowledgeBase {
  private cache!: InMemoryKnowledgeBase;
  private cacheDimensions: number | null = null;
  private seenEpoch = 0;
  /** Namespaces whose every row is in the cache. */
  private readonly loaded = new Set<string>();
  private closed = false;

  /** @internal use createSqliteKnowledgeBase() */
  constructor(
    private readonly table: KnowledgeTable,
    private readonly path: string,
    meta: KnowledgeMeta,
  ) {
    this.resetCache(meta);
  }

  /** All-or-nothing: the batch is validated, then written in one transaction. */
  async upsert(entries: KnowledgeEntry[]): Promise<void> {
    this.assertOpen();
    const dimensions = validateEntries(entries, this.cacheDimensions);
    if (dimensions === null || entries.length === 0) return;
    const rounded = entries.map(roundedEntry);
    await this.commit(
      (meta) => {
        // The meta read inside the transaction also sees what other connections fixed.
        const first = rounded[0] as KnowledgeEntry;
        if (meta.dimensions !== null && meta.dimensions !== dimensions) {
          throw knowledgeDimensionMismatch(`entries[0] (id "${first.id}")`, dimensions, meta.dimensions);
        }
        if (meta.dimensions === null) this.table.setDimensions(dimensions);
        return this.table.upsert(rounded);
      },
      () => this.cacheUpsert(rounded),
    );
  }

  async query(query: KnowledgeQuery): Promise<KnowledgeMatch[]> {
    this.assertOpen();
    const namespace = validateQueryNamespace(query);
    const loading = this.sql(() => this.refresh(namespace));
    const [, matches] = await Promise.all([loading, this.cache.query(query)]);
    return matches;
  }

  async setCurrent(changes: { id: string; current: boolean }[]): Promise<void> {
    this.assertOpen();
    validateChanges(changes);
    if (changes.length === 0) return;
    await this.commit(
      () => this.table.setCurrent(changes),
      () => this.cache.setCurrent(changes),
    );
  }

  async delete(target: { ids: string[] } | { filter: KnowledgeFilter }): Promise<number> {
    this.assertOpen();
    if (typeof target !== 'object' || target === null) throw invalidKnowledgeInput(`delete expects { ids } or { filter } (got ${String(target)}).`);
    if ('ids' in target) {
      validateIds(target.ids, 'target.ids');
      if (target.ids.length === 0) return 0;
      return this.commit(
        () => this.table.deleteIds(target.ids),
        () => this.cache.delete(target),
      );
    }
    validateFilter(target.filter, 'target.filter');
    return this.commit(
      () => this.table.deleteWhere(target.filter),
      () => this.cache.delete(target),
    );
  }

  /** Counted by SQLite: no namespace needs loading. */
  async count(filter: KnowledgeFilter): Promise<number> {
    this.assertOpen();
    validateFilter(filter, 'filter');
    return this.sql(() => this.table.count(filter));
  }

  /** Closes this instance's connection; later calls (except close) throw CLOSED. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.loaded.clear();
    try {
      await this.table.close();
    } catch (error) {
      throw toStrataError(error, this.path);
    }
    await this.cache.close();
  }

  /**
   * Writes in one IMMEDIATE transaction, then brings the cache in line: applies the change, or
   * drops the cache when another connection wrote since this one last looked (its changes are
   * unknown here) or when the write fixed the dimension. Returns how many rows changed.
   */
  private async commit(work: (meta: KnowledgeMeta) => number, applyToCache: () => Promise<unknown>): Promise<number> {
    const { before, after, changes }: WriteOutcome = this.sql(() => this.table.write(work));
    if (before.epoch !== this.seenEpoch || after.dimensions !== this.cacheDimensions) {
      this.resetCache(after);
      return changes;
    }
    this.seenEpoch = after.epoch;
    await applyToCache();
    return changes;
  }

  /** Entries of loaded namespaces go to the cache; others only leave it (an id may move out of a loaded namespace). */
  private cacheUpsert(rounded: KnowledgeEntry[]): Promise<unknown> {
    const last = [...new Map(rounded.map((entry) => [entry.id, entry])).values()];
    const cached = last.filter((entry) => this.loaded.has(entry.namespace));
    const moved = last.filter((entry) => !this.loaded.has(entry.namespace)).map((entry) => entry.id);
    return Promise.all([this.cache.delete({ ids: moved }), this.cache.upsert(cached)]);
  }

  /** Drops a stale cache, then loads `namespace` if needed, from one snapshot of the file. */
  private refresh(namespace: string): Promise<unknown> {
    this.syncWith(this.table.readMeta());
    if (this.loaded.has(namespace)) return Promise.resolve();
    const loads: Promise<void>[] = [];
    this.table.snapshot(() => {
      this.syncWith(this.table.readMeta());
      this.table.eachNamespaceChunk(namespace, (chunk) => loads.push(this.cache.upsert(chunk)));
    });
    this.loaded.add(namespace);
    return Promise.all(loads).catch((error: unknown) => {
      // A row the cache refuses: load the namespace again next time rather than answer from part of it.
      this.loaded.delete(namespace);
      throw error;
    });
  }

  private syncWith(meta: KnowledgeMeta): void {
    if (meta.epoch !== this.seenEpoch || meta.dimensions !== this.cacheDimensions) this.resetCache(meta);
  }

  private resetCache(meta: KnowledgeMeta): void {
    this.cache = new InMemoryKnowledgeBase(meta.dimensions === null ? {} : { dimensions: meta.dimensions });
    this.cacheDimensions = meta.dimensions;
    this.seenEpoch = meta.epoch;
    this.loaded.clear();
  }

  private sql<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      throw toStrataError(error, this.path);
    }
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new StrataError('CLOSED', `The SQLite knowledge base on ${this.path} is closed.`, {
        hint: 'Create a new one with createSqliteKnowledgeBase(); close() is final.',
      });
    }
  }
}

/**
 * Opens (creating and migrating if needed) the knowledge base of a strata SQLite file.
 * @throws StrataError CONFIG_INVALID when `dimensions` differs from the file's, or the file is
 *   not a strata database; BACKEND_UNAVAILABLE when it cannot be opened.
 * @example
 * const kb = await createSqliteKnowledgeBase({ path: './strata.db', dimensions: 256 });
 * await kb.upsert([{ id: 'f1', namespace: 'user:42', kind: 'fact', sessionId: null,
 *   vector: embedding, current: true, createdAt: Date.now() }]);
 * const matches = await kb.query({ vector: queryEmbedding, k: 5, filter: { namespace: 'user:42' } });
 */
export async function createSqliteKnowledgeBase(options: SqliteKnowledgeBaseOptions): Promise<KnowledgeBase> {
  const dimensions = validateDimensionsOption(options?.dimensions);
  const db = openDatabase(options);
  let table: KnowledgeTable | undefined;
  try {
    table = new KnowledgeTable(db);
    return new SqliteKnowledgeBase(table, options.path, table.claimDimensions(dimensions));
  } catch (error) {
    if (table === undefined) db.close();
    else await table.close();
    throw toStrataError(error, options.path);
  }
}

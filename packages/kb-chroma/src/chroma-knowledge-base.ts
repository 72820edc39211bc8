import { StrataError, invalidKnowledgeInput, validateChanges, validateEntries, validateFilter, validateIds, validateQuery } from '@strata/core';
import type { KnowledgeBase, KnowledgeEntry, KnowledgeFilter, KnowledgeMatch, KnowledgeQuery } from '@strata/core';
import { MATCHES_NOTHING, whereOf } from './chroma-metadata.js';
import { parseChromaOptions } from './chroma-options.js';
import type { ChromaKnowledgeBaseOptions } from './chroma-options.js';
import type { ChromaRecords } from './chroma-records.js';
import { openCollection } from './open-collection.js';
import { toStrataError } from './to-strata-error.js';
import type { ChromaPlace } from './to-strata-error.js';

/**
 * {@link KnowledgeBase} on a Chroma server: one collection per embeddings model and
 * dimension, records keyed by strata's deterministic ids, the filter fields as metadata.
 * Chroma answers queries with its HNSW index (approximate for large collections; exact
 * enough for the sizes strata's tests use).
 *
 * Writes are not transactional: a batch is validated as a whole before anything is sent, but
 * a large batch goes out in several requests, and a failure midway leaves the first ones
 * stored. Every write is idempotent, so repeating the call completes it.
 */
export class ChromaKnowledgeBase implements KnowledgeBase {
  private closed = false;

  /** @internal use createChromaKnowledgeBase() */
  constructor(
    private readonly records: ChromaRecords,
    private readonly place: ChromaPlace,
    private readonly dimensions: number,
  ) {}

  /** Checked against the collection's dimension before anything is sent. Repeated ids: the last one wins. */
  async upsert(entries: KnowledgeEntry[]): Promise<void> {
    this.assertOpen();
    validateEntries(entries, this.dimensions);
    if (entries.length === 0) return;
    // Chroma refuses a request that names an id twice.
    const last = [...new Map(entries.map((entry) => [entry.id, entry])).values()];
    await this.call(() => this.records.upsert(last));
  }

  async query(query: KnowledgeQuery): Promise<KnowledgeMatch[]> {
    this.assertOpen();
    const k = validateQuery(query, this.dimensions);
    validateFilter(query.filter, 'query.filter');
    const where = whereOf(query.filter);
    if (k === 0 || where === MATCHES_NOTHING) return [];
    return this.call(() => this.records.query(query.vector, k, where));
  }

  /**
   * Asks which ids exist first, so that "unknown ids are ignored" does not depend on how a
   * given Chroma version treats an update of a missing record (some log or refuse it).
   */
  async setCurrent(changes: { id: string; current: boolean }[]): Promise<void> {
    this.assertOpen();
    validateChanges(changes);
    if (changes.length === 0) return;
    const wanted = new Map(changes.map((change) => [change.id, change.current]));
    await this.call(async () => {
      const existing = await this.records.existing([...wanted.keys()]);
      await this.records.setCurrent(existing.map((id) => ({ id, current: wanted.get(id) === true })));
    });
  }

  /** Counts what it removes by listing the ids first: Chroma's delete does not say how many. */
  async delete(target: { ids: string[] } | { filter: KnowledgeFilter }): Promise<number> {
    this.assertOpen();
    if (typeof target !== 'object' || target === null) throw invalidKnowledgeInput(`delete expects { ids } or { filter } (got ${String(target)}).`);
    const list = 'ids' in target ? this.listExisting(target.ids) : this.listMatching(target.filter);
    if (list === null) return 0;
    return this.call(async () => {
      const ids = await list();
      await this.records.deleteIds(ids);
      return ids.length;
    });
  }

  /** A filter without a namespace spans every namespace. */
  async count(filter: KnowledgeFilter): Promise<number> {
    this.assertOpen();
    validateFilter(filter, 'filter');
    const where = whereOf(filter);
    if (where === MATCHES_NOTHING) return 0;
    return this.call(() => this.records.count(where));
  }

  /** The client keeps no connection open: closing only refuses later calls (except close) with CLOSED. */
  async close(): Promise<void> {
    this.closed = true;
  }

  /** Validates now; returns how to list the ids that exist, or null when none can. */
  private listExisting(ids: string[]): (() => Promise<string[]>) | null {
    validateIds(ids, 'target.ids');
    return ids.length === 0 ? null : () => this.records.existing(ids);
  }

  private listMatching(filter: KnowledgeFilter): (() => Promise<string[]>) | null {
    validateFilter(filter, 'target.filter');
    const where = whereOf(filter);
    return where === MATCHES_NOTHING ? null : () => this.records.idsWhere(where);
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toStrataError(error, this.place);
    }
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new StrataError('CLOSED', `The Chroma knowledge base on collection "${this.place.collection}" (${this.place.url}) is closed.`, {
        hint: 'Create a new one with createChromaKnowledgeBase(); close() is final.',
      });
    }
  }
}

/**
 * Connects to a Chroma server and gets or creates the collection of `embeddingModel` at
 * `dimensions` (named `<collectionPrefix>__<embeddingModel>__<dimensions>`): a new model
 * means a fresh, empty collection, which `memory.reindex()` fills from the session store.
 * @throws StrataError CONFIG_INVALID on bad options, or when the collection holds another
 *   model's or dimension's vectors; BACKEND_UNAVAILABLE when the server does not answer.
 * @example
 * const embeddings = new HashingEmbeddings({ dimensions: 256 });
 * const knowledge = await createChromaKnowledgeBase({
 *   url: 'http://127.0.0.1:8000', embeddingModel: embeddings.modelName, dimensions: embeddings.dimensions,
 * });
 * const memory = await createMemory({ knowledge, embeddings });
 */
export async function createChromaKnowledgeBase(options: ChromaKnowledgeBaseOptions): Promise<KnowledgeBase> {
  const settings = parseChromaOptions(options);
  const place: ChromaPlace = { url: settings.url, collection: settings.collection };
  try {
    return new ChromaKnowledgeBase(await openCollection(settings), place, settings.dimensions);
  } catch (error) {
    throw toStrataError(error, place);
  }
}

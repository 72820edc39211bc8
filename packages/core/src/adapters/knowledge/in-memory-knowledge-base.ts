import { StrataError } from '../../errors/strata-error.js';
import { validateChanges, validateDimensionsOption, validateEntries, validateQuery } from './knowledge-validation.js';
import { KnowledgePartition as Partition } from './knowledge-partition.js';
import { KIND_BITS, isMatch, rowOf, toRowFilter } from './knowledge-row.js';
import type { Row } from './knowledge-row.js';
import { TopK, offerPartition } from './knowledge-top-k.js';
import type { KnowledgeBase, KnowledgeEntry, KnowledgeFilter, KnowledgeMatch, KnowledgeQuery } from '../../ports/knowledge-base.js';

function partitionKey(namespace: string, kind: string): string {
  return `${namespace}\u0000${kind}`;
}

/**
 * Exact cosine {@link KnowledgeBase} held in memory, no persistence: every matching entry is
 * scored (sparse vectors through posting lists, which skip the entries scoring exactly 0),
 * best first, equal scores by id. Fits tests, scripts and indexes up to about a hundred
 * thousand vectors per namespace.
 */
export class InMemoryKnowledgeBase implements KnowledgeBase {
  private dimensions: number | null;
  private readonly byId = new Map<string, Row>();
  private readonly partitions = new Map<string, Partition>();
  private closed = false;

  constructor(options: { dimensions?: number } = {}) {
    this.dimensions = validateDimensionsOption(options.dimensions) ?? null;
  }

  /** All-or-nothing: every entry is validated before any is stored. */
  async upsert(entries: KnowledgeEntry[]): Promise<void> {
    this.assertOpen();
    const dimensions = validateEntries(entries, this.dimensions);
    if (dimensions === null) return;
    this.dimensions = dimensions;
    for (const entry of entries) this.store(entry, dimensions);
  }

  async query(query: KnowledgeQuery): Promise<KnowledgeMatch[]> {
    this.assertOpen();
    const k = validateQuery(query, this.dimensions);
    if (k === 0) return [];
    const { indices, values } = nonZerosOf(toUnit(query.vector));
    const filter = toRowFilter(query.filter);
    const partitions = this.partitionsOf(query.filter.namespace, query.filter.kinds);
    const top = new TopK(
      Math.min(
        k,
        partitions.reduce((sum, partition) => sum + partition.live, 0),
      ),
    );
    if (top.k === 0) return [];
    // One top-k across the partitions: the best of the first (turns) raises the bar for the next.
    for (const partition of partitions) offerPartition(partition, indices, values, filter, top);
    return top.rows.slice(0, top.size).map((row, i) => ({ id: row.id, kind: row.kind, sessionId: row.sessionId, score: top.scores[i] as number }));
  }

  /**
   * Entries are partitioned by namespace and kind, so a query for facts does not scan the
   * (far more numerous) turns. No namespace: every partition.
   */
  private partitionsOf(namespace: string | undefined, kinds: readonly string[] | undefined): Partition[] {
    if (namespace === undefined) return [...this.partitions.values()];
    // a kind listed twice must not offer its rows twice
    const wanted = kinds === undefined ? Object.keys(KIND_BITS) : [...new Set(kinds)];
    return wanted.flatMap((kind) => this.partitions.get(partitionKey(namespace, kind)) ?? []);
  }

  async setCurrent(changes: { id: string; current: boolean }[]): Promise<void> {
    this.assertOpen();
    validateChanges(changes);
    for (const { id, current } of changes) {
      const row = this.byId.get(id);
      if (row !== undefined) row.current = current;
    }
  }

  async delete(target: { ids: string[] } | { filter: KnowledgeFilter }): Promise<number> {
    this.assertOpen();
    const rows = 'ids' in target ? this.rowsById(target.ids) : this.rowsMatching(target.filter);
    for (const row of rows) this.remove(row);
    return rows.length;
  }

  async count(filter: KnowledgeFilter): Promise<number> {
    this.assertOpen();
    return this.rowsMatching(filter).length;
  }

  /** Drops every entry; later calls (except close) throw CLOSED. */
  async close(): Promise<void> {
    this.closed = true;
    this.byId.clear();
    this.partitions.clear();
  }

  private store(entry: KnowledgeEntry, dimensions: number): void {
    const row = rowOf(entry);
    let existing = this.byId.get(entry.id);
    if (existing !== undefined && (existing.namespace !== entry.namespace || existing.kind !== entry.kind)) {
      this.remove(existing);
      existing = undefined;
    }
    this.byId.set(row.id, row);
    const key = partitionKey(entry.namespace, entry.kind);
    let partition = this.partitions.get(key);
    if (partition === undefined) {
      partition = new Partition(dimensions);
      this.partitions.set(key, partition);
    }
    // A replaced entry leaves a dead slot: its posting entries go at the next compaction.
    if (existing !== undefined) partition.remove(existing);
    partition.add(row, entry.vector);
  }

  private remove(row: Row): void {
    this.byId.delete(row.id);
    const key = partitionKey(row.namespace, row.kind);
    const partition = this.partitions.get(key);
    partition?.remove(row);
    if (partition?.live === 0) this.partitions.delete(key);
  }

  private rowsById(ids: string[]): Row[] {
    const rows = new Map<string, Row>();
    for (const id of ids) {
      const row = this.byId.get(id);
      if (row !== undefined) rows.set(id, row);
    }
    return [...rows.values()];
  }

  /** A filter without a namespace spans every namespace. */
  private rowsMatching(filter: KnowledgeFilter): Row[] {
    const rowFilter = toRowFilter(filter);
    return this.partitionsOf(filter.namespace, filter.kinds).flatMap((partition) => partition.rows.filter((row): row is Row => row !== null && isMatch(row, rowFilter)));
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new StrataError('CLOSED', 'This in-memory knowledge base is closed.', {
        hint: 'Create a new knowledge base; close() is final.',
      });
    }
  }
}

/**
 * Creates an empty {@link InMemoryKnowledgeBase}. Without `dimensions`, the first upsert fixes it.
 * @example
 * const kb = await createInMemoryKnowledgeBase({ dimensions: 256 });
 * await kb.upsert([{ id: 'f1', namespace: 'user:42', kind: 'fact', sessionId: null,
 *   vector: embedding, current: true, createdAt: Date.now() }]);
 * const matches = await kb.query({ vector: queryEmbedding, k: 5, filter: { namespace: 'user:42' } });
 */
export async function createInMemoryKnowledgeBase(options: { dimensions?: number } = {}): Promise<KnowledgeBase> {
  return new InMemoryKnowledgeBase(options);
}

/** The non-zero coordinates of a query vector, in index order. */
function nonZerosOf(unit: Float32Array): { indices: Int32Array; values: Float32Array } {
  let count = 0;
  for (let d = 0; d < unit.length; d++) if (unit[d] !== 0) count++;
  const indices = new Int32Array(count);
  const values = new Float32Array(count);
  let j = 0;
  for (let d = 0; d < unit.length; d++) {
    const value = unit[d] as number;
    if (value === 0) continue;
    indices[j] = d;
    values[j++] = value;
  }
  return { indices, values };
}

/** Float32 like the stored vectors: mixed float32 x float64 multiplies run about 2x slower in V8. */
function toUnit(vector: number[]): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  return Float32Array.from(vector, (value) => value * scale);
}

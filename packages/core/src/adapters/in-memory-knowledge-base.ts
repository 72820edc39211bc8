import { StrataError } from '../errors/strata-error.js';
import { validateChanges, validateDimensionsOption, validateEntries, validateQuery } from './knowledge-validation.js';
import type {
  KnowledgeBase,
  KnowledgeEntry,
  KnowledgeFilter,
  KnowledgeKind,
  KnowledgeMatch,
  KnowledgeQuery,
} from '../ports/knowledge-base.js';

/** An entry's metadata; its unit vector lives in its partition at `slot`. */
interface Row {
  id: string;
  namespace: string;
  kind: KnowledgeKind;
  /** The kind as a bit, so that a kinds filter is one AND per row. */
  kindBit: number;
  sessionId: string | null;
  current: boolean;
  createdAt: number;
  slot: number;
}

/** A filter resolved once per call into plain fields: checking a row allocates nothing. */
interface RowFilter {
  namespace: string | undefined;
  kindMask: number;
  sessionId: string | undefined;
  currentOnly: boolean;
}

const KIND_BITS: Readonly<Record<string, number>> = { turn: 1, summary: 2, fact: 4 };

function partitionKey(namespace: string, kind: string): string {
  return `${namespace}\u0000${kind}`;
}

/**
 * The entries of one namespace and kind. Vectors sit column-major (dimension d of every slot
 * contiguous, `capacity` apart), so that a query reads only the dimensions it has non-zero,
 * each as one sequential run; removal swaps the last slot in to keep it dense.
 */
class Partition {
  readonly rows: Row[] = [];
  vectors: Float32Array;
  capacity = 64;

  constructor(readonly dimensions: number) {
    this.vectors = new Float32Array(dimensions * this.capacity);
  }

  add(row: Row, vector: number[]): void {
    if (this.rows.length === this.capacity) this.grow(this.capacity * 2);
    row.slot = this.rows.length;
    this.rows.push(row);
    this.write(row.slot, vector);
  }

  private grow(capacity: number): void {
    const grown = new Float32Array(this.dimensions * capacity);
    for (let d = 0; d < this.dimensions; d++) grown.set(this.vectors.subarray(d * this.capacity, d * this.capacity + this.rows.length), d * capacity);
    this.vectors = grown;
    this.capacity = capacity;
  }

  /** Stores the vector divided by its norm once, so a query is a plain dot product. */
  write(slot: number, vector: number[]): void {
    let sum = 0;
    for (const value of vector) sum += value * value;
    const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let d = 0; d < this.dimensions; d++) this.vectors[d * this.capacity + slot] = (vector[d] ?? 0) * scale;
  }

  replace(previous: Row, row: Row, vector: number[]): void {
    row.slot = previous.slot;
    this.rows[row.slot] = row;
    this.write(row.slot, vector);
  }

  remove(row: Row): void {
    const last = this.rows.pop();
    if (last === undefined || last === row) return;
    for (let d = 0; d < this.dimensions; d++) {
      const base = d * this.capacity;
      this.vectors[base + row.slot] = this.vectors[base + last.slot] as number;
    }
    last.slot = row.slot;
    this.rows[row.slot] = last;
  }
}

/**
 * Brute-force cosine {@link KnowledgeBase} held in memory: exact results, no persistence.
 * Fits tests, scripts and indexes up to about a hundred thousand vectors per namespace.
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
    const unit = toUnit(query.vector);
    const filter = toRowFilter(query.filter);
    const matches: KnowledgeMatch[] = [];
    for (const partition of this.partitionsOf(query.filter.namespace, query.filter.kinds)) {
      for (const { slot, score } of selectTopK(partition, unit, Math.min(k, partition.rows.length), filter)) {
        const row = partition.rows[slot] as Row;
        matches.push({ id: row.id, kind: row.kind, sessionId: row.sessionId, score: Math.max(-1, Math.min(1, score)) });
      }
    }
    return matches.sort((a, b) => b.score - a.score).slice(0, k);
  }

  /**
   * Entries are partitioned by namespace and kind, so a query for facts does not scan the
   * (far more numerous) turns. No namespace: every partition.
   */
  private partitionsOf(namespace: string | undefined, kinds: readonly string[] | undefined): Partition[] {
    if (namespace === undefined) return [...this.partitions.values()];
    const wanted = kinds ?? Object.keys(KIND_BITS);
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
    if (existing === undefined) partition.add(row, entry.vector);
    else partition.replace(existing, row, entry.vector);
  }

  private remove(row: Row): void {
    this.byId.delete(row.id);
    const key = partitionKey(row.namespace, row.kind);
    const partition = this.partitions.get(key);
    partition?.remove(row);
    if (partition?.rows.length === 0) this.partitions.delete(key);
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
    return this.partitionsOf(filter.namespace, filter.kinds).flatMap((partition) => partition.rows.filter((row) => isMatch(row, rowFilter)));
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

/** One literal with a fixed field order: all rows share one hidden class, so the scan stays monomorphic. */
function rowOf(entry: KnowledgeEntry): Row {
  return {
    id: entry.id,
    namespace: entry.namespace,
    kind: entry.kind,
    kindBit: KIND_BITS[entry.kind] ?? 0,
    sessionId: entry.sessionId,
    current: entry.current,
    createdAt: entry.createdAt,
    slot: -1,
  };
}

/** `kinds: []` matches nothing, like SQL's `IN ()`. */
function toRowFilter(filter: KnowledgeFilter): RowFilter {
  const { namespace, kinds, sessionId, currentOnly } = filter;
  const kindMask = kinds === undefined ? 7 : kinds.reduce((mask, kind) => mask | (KIND_BITS[kind] ?? 0), 0);
  return { namespace, kindMask, sessionId, currentOnly: currentOnly === true };
}

// A plain function rather than a per-query closure: V8 inlines it into the scan loop.
function isMatch(row: Row, filter: RowFilter): boolean {
  return (
    (filter.namespace === undefined || row.namespace === filter.namespace) &&
    (row.kindBit & filter.kindMask) !== 0 &&
    (filter.sessionId === undefined || row.sessionId === filter.sessionId) &&
    (!filter.currentOnly || row.current)
  );
}

/** Rows scored per block: the block's partial sums stay in L1 while the columns stream by. */
const BLOCK = 512;

/**
 * Scores rows a block at a time, adding one column per non-zero query coordinate (a hashed
 * embedding of a short question has a handful of 256; a model embedding has all of them),
 * then keeps the best `k` in a sorted buffer: most rows are rejected by one comparison
 * against the current k-th score, and only those that would enter are checked against the filter.
 */
function selectTopK(
  partition: Partition,
  unit: Float32Array,
  k: number,
  filter: RowFilter,
): { slot: number; score: number }[] {
  const { rows, vectors, capacity } = partition;
  const { indices, values } = nonZerosOf(unit);
  const scores = new Float64Array(k);
  const slots = new Int32Array(k);
  const block = new Float32Array(BLOCK);
  let size = 0;
  for (let start = 0; start < rows.length; start += BLOCK) {
    const count = Math.min(BLOCK, rows.length - start);
    block.fill(0);
    // four columns per pass: the block is read and written a quarter as often (dense queries)
    let j = 0;
    for (; j + 4 <= indices.length; j += 4) {
      const b0 = (indices[j] as number) * capacity + start;
      const b1 = (indices[j + 1] as number) * capacity + start;
      const b2 = (indices[j + 2] as number) * capacity + start;
      const b3 = (indices[j + 3] as number) * capacity + start;
      const q0 = values[j] as number;
      const q1 = values[j + 1] as number;
      const q2 = values[j + 2] as number;
      const q3 = values[j + 3] as number;
      for (let i = 0; i < count; i++) {
        block[i] = (block[i] as number) + q0 * (vectors[b0 + i] as number) + q1 * (vectors[b1 + i] as number) + q2 * (vectors[b2 + i] as number) + q3 * (vectors[b3 + i] as number);
      }
    }
    for (; j < indices.length; j++) {
      const base = (indices[j] as number) * capacity + start;
      const q = values[j] as number;
      for (let i = 0; i < count; i++) block[i] = (block[i] as number) + q * (vectors[base + i] as number);
    }
    for (let i = 0; i < count; i++) {
      const dot = block[i] as number;
      if (size === k && dot <= (scores[k - 1] as number)) continue;
      if (!isMatch(rows[start + i] as Row, filter)) continue;
      let at = size < k ? size++ : k - 1;
      for (; at > 0 && (scores[at - 1] as number) < dot; at--) {
        scores[at] = scores[at - 1] as number;
        slots[at] = slots[at - 1] as number;
      }
      scores[at] = dot;
      slots[at] = start + i;
    }
  }
  return Array.from({ length: size }, (_, i) => ({ slot: slots[i] as number, score: scores[i] as number }));
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


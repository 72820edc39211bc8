import { describe, expect, it } from 'vitest';
import { InMemoryKnowledgeBase } from '../src/adapters/knowledge/in-memory-knowledge-base.js';
import type { KnowledgeEntry, KnowledgeFilter, KnowledgeKind, KnowledgeMatch, KnowledgeQuery } from '../src/ports/knowledge-base.js';

// The in-memory KB is the reference implementation: whatever path a query takes (posting
// lists or column scan, before or after compaction), its answer must equal a naive scan.
// The naive scan below repeats the KB's arithmetic (float32 unit vectors, float64 sums in
// dimension order), so scores must match exactly and ties (equal scores, broken by id) too.

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function toUnit32(vector: number[]): number[] {
  const sum = vector.reduce((total, value) => total + value * value, 0);
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  return vector.map((value) => Math.fround(value * scale));
}

function matchesFilter(entry: KnowledgeEntry, filter: KnowledgeFilter): boolean {
  return (
    (filter.namespace === undefined || entry.namespace === filter.namespace) &&
    (filter.kinds === undefined || filter.kinds.includes(entry.kind)) &&
    (filter.sessionId === undefined || entry.sessionId === filter.sessionId) &&
    (filter.currentOnly !== true || entry.current)
  );
}

/** Every matching entry scored, best first, equal scores by id. */
function naiveQuery(entries: Iterable<KnowledgeEntry>, vector: number[], k: number, filter: KnowledgeFilter): KnowledgeMatch[] {
  const query = toUnit32(vector);
  const scored = [...entries]
    .filter((entry) => matchesFilter(entry, filter))
    .map((entry) => {
      const unit = toUnit32(entry.vector);
      let dot = 0;
      for (let d = 0; d < query.length; d++) dot += (query[d] as number) * (unit[d] as number);
      return { id: entry.id, kind: entry.kind, sessionId: entry.sessionId, score: Math.max(-1, Math.min(1, dot)) };
    });
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, k);
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let d = 0; d < a.length; d++) {
    dot += (a[d] as number) * (b[d] as number);
    na += (a[d] as number) ** 2;
    nb += (b[d] as number) ** 2;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

type VectorSource = (random: () => number, pool: KnowledgeEntry[]) => number[];

/** 64 dimensions, 0-6 small integer coordinates set: many exact ties, a zero vector now and then. */
const sparse: VectorSource = (random) => {
  const vector = new Array<number>(64).fill(0);
  const count = Math.floor(random() * 7);
  for (let i = 0; i < count; i++) vector[Math.floor(random() * 64)] = [-2, -1, 1, 2, 3][Math.floor(random() * 5)] as number;
  return vector;
};

/** 64 dense coordinates; one in ten copies a stored vector, scaled, so that ties occur. */
const dense: VectorSource = (random, pool) => {
  const copied = pool[Math.floor(random() * pool.length)];
  if (copied !== undefined && random() < 0.1) return copied.vector.map((value) => value * 2);
  return Array.from({ length: 64 }, () => random() * 2 - 1);
};

/** Runs random phases of writes on a KB and on a plain map, and compares queries after each. */
async function checkAgainstNaive(seed: number, sources: VectorSource[], rowsPerPhase: number): Promise<void> {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const kb = new InMemoryKnowledgeBase();
  const model = new Map<string, KnowledgeEntry>();
  const kinds: KnowledgeKind[] = ['turn', 'summary', 'fact'];
  const namespaces = ['a', 'b'];
  const idSpace = rowsPerPhase * 2;
  for (let phase = 0; phase < 6; phase++) {
    const source = sources[phase % sources.length] as VectorSource;
    const pool = [...model.values()];
    const batch: KnowledgeEntry[] = [];
    for (let i = 0; i < rowsPerPhase; i++) {
      // ids drawn from a bounded space: later phases replace entries, sometimes into another partition
      const id = `e${Math.floor(random() * idSpace)}`;
      const kind = random() < 0.8 ? 'turn' : pick(kinds);
      const entry: KnowledgeEntry = {
        id,
        namespace: random() < 0.9 ? 'a' : 'b',
        kind,
        sessionId: random() < 0.2 ? null : `s${Math.floor(random() * 5)}`,
        vector: source(random, pool),
        current: random() < 0.8,
        createdAt: phase,
      };
      batch.push(entry);
    }
    await kb.upsert(batch);
    for (const entry of batch) model.set(entry.id, entry);
    const ids = [...model.keys()];
    // most of a partition removed at times, so dead slots outnumber live ones and compaction runs
    const removed = ids.filter(() => random() < (phase % 3 === 2 ? 0.6 : 0.15));
    expect(await kb.delete({ ids: removed })).toBe(removed.length);
    for (const id of removed) model.delete(id);
    if (phase === 3) {
      const filter: KnowledgeFilter = { namespace: 'b' };
      const gone = [...model.values()].filter((entry) => matchesFilter(entry, filter));
      expect(await kb.delete({ filter })).toBe(gone.length);
      for (const entry of gone) model.delete(entry.id);
    }
    const changes = [...model.keys()].filter(() => random() < 0.1).map((id) => ({ id, current: random() < 0.5 }));
    await kb.setCurrent(changes);
    for (const { id, current } of changes) model.set(id, { ...(model.get(id) as KnowledgeEntry), current });

    expect(await kb.count({})).toBe(model.size);
    for (let q = 0; q < 25; q++) {
      const stored = [...model.values()];
      const vector = q % 5 === 0 && stored.length > 0 ? pick(stored).vector : source(random, stored);
      const filter: KnowledgeQuery['filter'] = { namespace: pick(namespaces) };
      if (random() < 0.5) filter.kinds = kinds.filter(() => random() < 0.6);
      if (random() < 0.3) filter.sessionId = `s${Math.floor(random() * 5)}`;
      if (random() < 0.5) filter.currentOnly = true;
      const k = pick([1, 5, 60, 100_000]);
      const actual = await kb.query({ vector, k, filter });
      const expected = naiveQuery(model.values(), vector, k, filter);
      expect(actual).toEqual(expected);
      for (const match of actual) expect(Math.abs(match.score - cosine(vector, (model.get(match.id) as KnowledgeEntry).vector))).toBeLessThan(1e-6);
    }
  }
}

describe('InMemoryKnowledgeBase answers like a naive scan', () => {
  it('on sparse vectors (posting lists), across upserts, replaces, removals and compactions', async () => {
    await checkAgainstNaive(1, [sparse], 6000);
  });

  it('on dense vectors (column scan)', async () => {
    await checkAgainstNaive(2, [dense], 1500);
  });

  it('when sparse and dense vectors alternate in the same partitions', async () => {
    await checkAgainstNaive(3, [sparse, dense], 1500);
  });

  it('breaks ties by id, across kinds too', async () => {
    const kb = new InMemoryKnowledgeBase();
    const entry = (id: string, kind: KnowledgeKind, vector: number[]): KnowledgeEntry => ({
      id,
      namespace: 'n',
      kind,
      sessionId: null,
      vector,
      current: true,
      createdAt: 0,
    });
    await kb.upsert([entry('c', 'turn', [1, 0, 0]), entry('a', 'summary', [2, 0, 0]), entry('b', 'turn', [0, 1, 0]), entry('d', 'fact', [3, 0, 0])]);
    await kb.upsert([entry('e', 'turn', [0, 0, 1])]);
    const matches = await kb.query({ vector: [1, 0, 0], k: 4, filter: { namespace: 'n' } });
    expect(matches.map((m) => [m.id, m.score])).toEqual([
      ['a', 1],
      ['c', 1],
      ['d', 1],
      ['b', 0],
    ]);
    const listedTwice = await kb.query({ vector: [1, 0, 0], k: 10, filter: { namespace: 'n', kinds: ['turn', 'turn'] } });
    expect(listedTwice.map((m) => m.id)).toEqual(['c', 'b', 'e']);
    expect(await kb.count({ namespace: 'n', kinds: ['turn', 'turn'] })).toBe(3);
  });
});

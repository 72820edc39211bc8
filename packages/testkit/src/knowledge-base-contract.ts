// Kept in one file: one contract suite (the KnowledgeBase port), its cases side by side.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import type { KnowledgeBase, KnowledgeEntry, KnowledgeFilter, KnowledgeMatch } from '@strata/core';

export interface KnowledgeBaseContractOptions {
  /** A fresh, empty knowledge base for each test. */
  create: (opts: { dimensions: number }) => Promise<KnowledgeBase>;
  /** Releases what `create` made (drop a collection, delete a file). `close()` is called first. */
  destroy?: (kb: KnowledgeBase) => Promise<void>;
  /** Test title -> reason: known gaps of this adapter, shown in the skipped test's name. */
  skip?: Record<string, string>;
}

const DIM = 8;
/** Scores are compared loosely: adapters store float32 or compute distances differently. */
const PRECISION = 4;

/** Unit vector along axis `i`, optionally mixed with axis `j` at weight `w`. */
function axis(i: number, j?: number, w = 0): number[] {
  const v = new Array<number>(DIM).fill(0);
  v[i] = 1;
  if (j !== undefined) v[j] = w;
  return v;
}

function entry(id: string, vector: number[], overrides: Partial<KnowledgeEntry> = {}): KnowledgeEntry {
  const createdAt = 1_700_000_000_000;
  return { id, namespace: 'ns-a', kind: 'fact', sessionId: null, vector, current: true, createdAt, ...overrides };
}

const ids = (matches: KnowledgeMatch[]): string[] => matches.map((m) => m.id);
const sorted = (values: string[]): string[] => [...values].sort();

/**
 * The behaviour every {@link KnowledgeBase} adapter must have. Vectors are tiny and built by
 * hand, scores are checked to 1e-4, and ties are never assumed to come in a given order.
 */
export function describeKnowledgeBaseContract(name: string, options: KnowledgeBaseContractOptions): void {
  describe(`KnowledgeBase contract: ${name}`, () => {
    let kb: KnowledgeBase;
    const test = (title: string, fn: () => Promise<void>): void => {
      const reason = options.skip?.[title];
      if (reason === undefined) it(title, fn);
      else it.skip(`${title} (skipped: ${reason})`, fn);
    };

    beforeEach(async () => {
      kb = await options.create({ dimensions: DIM });
    });
    afterEach(async () => {
      await kb.close();
      await options.destroy?.(kb);
    });

    describeQueries(test, () => kb);
    describeFilters(test, () => kb);
    describeMutations(test, () => kb);
  });
}

type Define = (title: string, fn: () => Promise<void>) => void;

function describeQueries(test: Define, kb: () => KnowledgeBase): void {
  test('query on an empty knowledge base returns nothing', async () => {
    expect(await kb().query({ vector: axis(0), k: 5, filter: { namespace: 'ns-a' } })).toEqual([]);
  });

  test('returns the nearest first with cosine scores', async () => {
    await kb().upsert([
      entry('orthogonal', axis(1)),
      entry(
        'opposite',
        axis(0).map((x) => -x),
      ),
      entry('same', axis(0)),
      entry('diagonal', axis(0, 1, 1)),
    ]);
    const matches = await kb().query({ vector: axis(0), k: 4, filter: { namespace: 'ns-a' } });
    expect(ids(matches)).toEqual(['same', 'diagonal', 'orthogonal', 'opposite']);
    const scores = matches.map((m) => m.score);
    [1, Math.SQRT1_2, 0, -1].forEach((expected, i) => {
      expect(scores[i]).toBeCloseTo(expected, PRECISION);
    });
  });

  test('scores ignore vector length', async () => {
    await kb().upsert([
      entry(
        'long',
        axis(2).map((x) => x * 40),
      ),
      entry('mixed', axis(2, 3, 1)),
    ]);
    const matches = await kb().query({ vector: axis(2).map((x) => x * 0.1), k: 2, filter: { namespace: 'ns-a' } });
    expect(ids(matches)).toEqual(['long', 'mixed']);
    expect(matches[0]?.score).toBeCloseTo(1, PRECISION);
    expect(matches[1]?.score).toBeCloseTo(Math.SQRT1_2, PRECISION);
  });

  test('returns at most k matches, the best ones', async () => {
    await kb().upsert([entry('a', axis(0)), entry('b', axis(0, 1, 0.5)), entry('c', axis(0, 1, 2)), entry('d', axis(1))]);
    const matches = await kb().query({ vector: axis(0), k: 2, filter: { namespace: 'ns-a' } });
    expect(ids(matches)).toEqual(['a', 'b']);
  });

  test('k larger than the matches returns them all', async () => {
    await kb().upsert([entry('a', axis(0)), entry('b', axis(1))]);
    expect(sorted(ids(await kb().query({ vector: axis(0), k: 50, filter: { namespace: 'ns-a' } })))).toEqual(['a', 'b']);
  });

  test('k = 0 returns nothing', async () => {
    await kb().upsert([entry('a', axis(0))]);
    expect(await kb().query({ vector: axis(0), k: 0, filter: { namespace: 'ns-a' } })).toEqual([]);
  });

  test('matches carry kind and sessionId', async () => {
    await kb().upsert([entry('t', axis(0), { kind: 'turn', sessionId: 's1' }), entry('f', axis(0, 1, 1), { kind: 'fact' })]);
    const matches = await kb().query({ vector: axis(0), k: 2, filter: { namespace: 'ns-a' } });
    expect(matches.map(({ id, kind, sessionId }) => ({ id, kind, sessionId }))).toEqual([
      { id: 't', kind: 'turn', sessionId: 's1' },
      { id: 'f', kind: 'fact', sessionId: null },
    ]);
  });

  test('a namespace never sees another namespace, even its closest vector', async () => {
    await kb().upsert([entry('b-exact', axis(0), { namespace: 'ns-b' }), entry('a-far', axis(1), { namespace: 'ns-a' })]);
    const inA = await kb().query({ vector: axis(0), k: 10, filter: { namespace: 'ns-a' } });
    expect(ids(inA)).toEqual(['a-far']);
    const inB = await kb().query({ vector: axis(1), k: 10, filter: { namespace: 'ns-b' } });
    expect(ids(inB)).toEqual(['b-exact']);
    expect(await kb().query({ vector: axis(0), k: 10, filter: { namespace: 'ns-empty' } })).toEqual([]);
  });

  test('a vector of another dimension is rejected with CONFIG_INVALID', async () => {
    await kb().upsert([entry('a', axis(0))]);
    const error: unknown = await kb()
      .upsert([entry('short', [1, 0, 0, 0])])
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(StrataError.is(error, 'CONFIG_INVALID')).toBe(true);
    expect(await kb().count({})).toBe(1);
  });
}

function describeFilters(test: Define, kb: () => KnowledgeBase): void {
  const seed = (): Promise<void> =>
    kb().upsert([
      entry('turn-s1', axis(0), { kind: 'turn', sessionId: 's1' }),
      entry('summary-s1', axis(0, 1, 0.1), { kind: 'summary', sessionId: 's1' }),
      entry('turn-s2', axis(0, 1, 0.2), { kind: 'turn', sessionId: 's2' }),
      entry('fact-current', axis(0, 1, 0.3), { kind: 'fact' }),
      entry('fact-old', axis(0, 1, 0.4), { kind: 'fact', current: false }),
      entry('other-ns', axis(0), { namespace: 'ns-b', kind: 'turn', sessionId: 's1' }),
    ]);
  const found = async (filter: Omit<KnowledgeFilter, 'namespace'>): Promise<string[]> => sorted(ids(await kb().query({ vector: axis(0), k: 10, filter: { namespace: 'ns-a', ...filter } })));

  test('filters by kinds', async () => {
    await seed();
    expect(await found({ kinds: ['turn'] })).toEqual(['turn-s1', 'turn-s2']);
    expect(await found({ kinds: ['summary', 'fact'] })).toEqual(['fact-current', 'fact-old', 'summary-s1']);
  });

  test('filters by sessionId', async () => {
    await seed();
    expect(await found({ sessionId: 's1' })).toEqual(['summary-s1', 'turn-s1']);
    expect(await found({ sessionId: 'unknown' })).toEqual([]);
  });

  test('currentOnly hides superseded entries', async () => {
    await seed();
    expect(await found({ currentOnly: true })).toEqual(['fact-current', 'summary-s1', 'turn-s1', 'turn-s2']);
    expect(await found({ currentOnly: false })).toContain('fact-old');
  });

  test('filters combine', async () => {
    await seed();
    expect(await found({ kinds: ['turn'], sessionId: 's1', currentOnly: true })).toEqual(['turn-s1']);
  });

  test('count applies the filter; without a namespace it spans all namespaces', async () => {
    await seed();
    expect(await kb().count({})).toBe(6);
    expect(await kb().count({ namespace: 'ns-a' })).toBe(5);
    expect(await kb().count({ namespace: 'ns-a', kinds: ['fact'], currentOnly: true })).toBe(1);
    expect(await kb().count({ sessionId: 's1' })).toBe(3);
    expect(await kb().count({ namespace: 'ns-none' })).toBe(0);
  });
}

function describeMutations(test: Define, kb: () => KnowledgeBase): void {
  test('upserting an existing id replaces its vector and metadata', async () => {
    await kb().upsert([entry('x', axis(0), { kind: 'turn', sessionId: 's1' }), entry('y', axis(1))]);
    await kb().upsert([entry('x', axis(3), { kind: 'summary', sessionId: 's2' })]);
    expect(await kb().count({})).toBe(2);
    const [best] = await kb().query({ vector: axis(3), k: 1, filter: { namespace: 'ns-a' } });
    expect(best).toMatchObject({ id: 'x', kind: 'summary', sessionId: 's2' });
    expect(best?.score).toBeCloseTo(1, PRECISION);
    expect(await kb().count({ kinds: ['turn'] })).toBe(0);
  });

  test('upserting an id into another namespace moves it', async () => {
    await kb().upsert([entry('x', axis(0))]);
    await kb().upsert([entry('x', axis(0), { namespace: 'ns-b' })]);
    expect(await kb().query({ vector: axis(0), k: 5, filter: { namespace: 'ns-a' } })).toEqual([]);
    expect(ids(await kb().query({ vector: axis(0), k: 5, filter: { namespace: 'ns-b' } }))).toEqual(['x']);
  });

  test('upsert is idempotent', async () => {
    const batch = [entry('a', axis(0)), entry('b', axis(1))];
    await kb().upsert(batch);
    await kb().upsert(batch);
    expect(await kb().count({})).toBe(2);
  });

  test('setCurrent flips visibility for currentOnly and ignores unknown ids', async () => {
    await kb().upsert([entry('a', axis(0)), entry('b', axis(0, 1, 1), { current: false })]);
    await kb().setCurrent([
      { id: 'a', current: false },
      { id: 'b', current: true },
      { id: 'ghost', current: true },
    ]);
    const current = await kb().query({ vector: axis(0), k: 5, filter: { namespace: 'ns-a', currentOnly: true } });
    expect(ids(current)).toEqual(['b']);
    expect(await kb().count({})).toBe(2);
  });

  test('delete by ids returns how many were removed', async () => {
    await kb().upsert([entry('a', axis(0)), entry('b', axis(1)), entry('c', axis(2))]);
    expect(await kb().delete({ ids: ['a', 'c', 'ghost'] })).toBe(2);
    expect(ids(await kb().query({ vector: axis(0), k: 5, filter: { namespace: 'ns-a' } }))).toEqual(['b']);
    expect(await kb().delete({ ids: [] })).toBe(0);
  });

  test('delete by filter removes only the matching entries', async () => {
    await kb().upsert([
      entry('s1-a', axis(0), { kind: 'turn', sessionId: 's1' }),
      entry('s1-b', axis(1), { kind: 'summary', sessionId: 's1' }),
      entry('s2-a', axis(2), { kind: 'turn', sessionId: 's2' }),
      entry('s1-ns-b', axis(0), { namespace: 'ns-b', kind: 'turn', sessionId: 's1' }),
    ]);
    expect(await kb().delete({ filter: { namespace: 'ns-a', sessionId: 's1', kinds: ['turn'] } })).toBe(1);
    expect(await kb().delete({ filter: { sessionId: 's1' } })).toBe(2);
    expect(await kb().count({})).toBe(1);
    expect(ids(await kb().query({ vector: axis(2), k: 5, filter: { namespace: 'ns-a' } }))).toEqual(['s2-a']);
  });

  test('close is idempotent', async () => {
    await kb().upsert([entry('a', axis(0))]);
    await kb().close();
    await expect(kb().close()).resolves.toBeUndefined();
  });
}

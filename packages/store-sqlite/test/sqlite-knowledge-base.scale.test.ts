import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInMemoryKnowledgeBase } from '@strata/core';
import type { KnowledgeBase, KnowledgeEntry, KnowledgeKind, KnowledgeQuery } from '@strata/core';
import { createSqliteKnowledgeBase } from '../src/sqlite-knowledge-base.js';

const COUNT = 20_000;
const DIM = 64;
const KINDS: KnowledgeKind[] = ['turn', 'summary', 'fact'];

/** mulberry32: a small seeded PRNG, so that every run stores the same vectors. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// Components are float32 values, so both knowledge bases are fed exactly the same numbers.
function vectors(random: () => number, count: number): number[][] {
  return Array.from({ length: count }, () => Array.from({ length: DIM }, () => Math.fround(random() * 2 - 1)));
}

function entries(random: () => number): KnowledgeEntry[] {
  return vectors(random, COUNT).map((vector, i) => ({
    id: `e${i}`,
    namespace: i % 4 === 0 ? 'ns-small' : 'ns-big',
    kind: KINDS[i % 3] as KnowledgeKind,
    sessionId: i % 5 === 0 ? null : `s${i % 7}`,
    vector,
    current: i % 11 !== 0,
    createdAt: 1_700_000_000_000 + i,
  }));
}

function queries(random: () => number): KnowledgeQuery[] {
  const filters: KnowledgeQuery['filter'][] = [
    { namespace: 'ns-big' },
    { namespace: 'ns-small' },
    { namespace: 'ns-big', kinds: ['fact'], currentOnly: true },
    { namespace: 'ns-big', sessionId: 's3' },
    { namespace: 'ns-small', kinds: ['turn', 'summary'], sessionId: 's1' },
  ];
  return vectors(random, 20).map((vector, i) => ({ vector, k: 10, filter: filters[i % filters.length] as KnowledgeQuery['filter'] }));
}

describe(`SqliteKnowledgeBase with ${COUNT} vectors`, () => {
  const random = prng(20_240_601);
  const stored = entries(random);
  const probes = queries(random);
  let directory: string;
  let file: string;
  let reference: KnowledgeBase;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'strata-kb-scale-'));
    file = join(directory, 'strata.db');
    reference = await createInMemoryKnowledgeBase({ dimensions: DIM });
    await reference.upsert(stored);
  });
  afterAll(async () => {
    await reference.close();
    await rm(directory, { recursive: true, force: true });
  });

  const expectSameAnswers = async (kb: KnowledgeBase): Promise<void> => {
    for (const query of probes) {
      const expected = await reference.query(query);
      expect(expected).toHaveLength(10);
      expect(await kb.query(query)).toEqual(expected);
    }
  };

  it('returns the same top-k as an InMemoryKnowledgeBase, queried, written in batches, queried again', async () => {
    const kb = await createSqliteKnowledgeBase({ path: file, dimensions: DIM });
    // Querying first caches both (empty) namespaces: the batches then also go through the cache.
    for (const query of probes) expect(await kb.query(query)).toEqual([]);
    for (let i = 0; i < stored.length; i += 500) await kb.upsert(stored.slice(i, i + 500));
    await expectSameAnswers(kb);
    expect(await kb.count({ namespace: 'ns-big' })).toBe(await reference.count({ namespace: 'ns-big' }));
    await kb.close();
  });

  it('returns the same top-k after reopening the file, loading each namespace from SQLite', async () => {
    const kb = await createSqliteKnowledgeBase({ path: file });
    await expectSameAnswers(kb);
    expect(await kb.count({ kinds: ['fact'], currentOnly: true })).toBe(await reference.count({ kinds: ['fact'], currentOnly: true }));
    await kb.close();
  });
});

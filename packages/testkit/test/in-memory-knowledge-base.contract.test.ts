import { describe, expect, it } from 'vitest';
import { InMemoryKnowledgeBase, StrataError, createInMemoryKnowledgeBase } from '@strata/core';
import type { KnowledgeEntry } from '@strata/core';
import { describeKnowledgeBaseContract } from '../src/knowledge-base-contract.js';

describeKnowledgeBaseContract('InMemoryKnowledgeBase', {
  create: ({ dimensions }) => createInMemoryKnowledgeBase({ dimensions }),
});

function entry(id: string, vector: number[], overrides: Partial<KnowledgeEntry> = {}): KnowledgeEntry {
  return { id, namespace: 'ns', kind: 'turn', sessionId: 's1', vector, current: true, createdAt: 1, ...overrides };
}

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

// Behaviour specific to the in-memory adapter, beyond the port contract.
describe('InMemoryKnowledgeBase', () => {
  it('takes its dimension from the first upsert and explains a mismatch', async () => {
    const kb = new InMemoryKnowledgeBase();
    await kb.upsert([entry('a', [1, 0, 0])]);
    const error = await errorOf(kb.upsert([entry('b', [1, 0])]));
    expect(StrataError.is(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as StrataError).hint).toContain('reindex()');
    const queryError = await errorOf(kb.query({ vector: [1, 0], k: 1, filter: { namespace: 'ns' } }));
    expect(StrataError.is(queryError, 'CONFIG_INVALID')).toBe(true);
  });

  it('rejects invalid entries with INVALID_INPUT and stores none of the batch', async () => {
    const kb = new InMemoryKnowledgeBase({ dimensions: 2 });
    const batches = [
      [entry('ok', [1, 0]), entry('', [1, 0])],
      [entry('ok', [1, 0]), entry('x', [1, 0], { namespace: '' })],
      [entry('ok', [1, 0]), entry('x', [Number.NaN, 0])],
      [entry('ok', [1, 0]), entry('x', [1, 0], { createdAt: Number.POSITIVE_INFINITY })],
    ];
    for (const batch of batches) expect(StrataError.is(await errorOf(kb.upsert(batch)), 'INVALID_INPUT')).toBe(true);
    expect(await kb.count({})).toBe(0);
  });

  it('scores a zero vector 0 instead of NaN', async () => {
    const kb = new InMemoryKnowledgeBase({ dimensions: 2 });
    await kb.upsert([entry('zero', [0, 0]), entry('unit', [0, 1])]);
    const matches = await kb.query({ vector: [1, 0], k: 2, filter: { namespace: 'ns' } });
    expect(matches.map((m) => [m.id, m.score])).toEqual(
      expect.arrayContaining([
        ['zero', 0],
        ['unit', 0],
      ]),
    );
  });

  it('keeps the best k among many, in order', async () => {
    const kb = new InMemoryKnowledgeBase({ dimensions: 2 });
    const angles = Array.from({ length: 200 }, (_, i) => (i * 7919) % 200);
    await kb.upsert(angles.map((a) => entry(`a${a}`, [Math.cos(a / 100), Math.sin(a / 100)])));
    const matches = await kb.query({ vector: [1, 0], k: 5, filter: { namespace: 'ns' } });
    expect(matches.map((m) => m.id)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    expect(matches[1]?.score).toBeCloseTo(Math.cos(0.01), 5);
  });

  it('throws CLOSED after close', async () => {
    const kb = await createInMemoryKnowledgeBase();
    await kb.close();
    expect(StrataError.is(await errorOf(kb.count({})), 'CLOSED')).toBe(true);
    expect(StrataError.is(await errorOf(kb.upsert([])), 'CLOSED')).toBe(true);
  });
});

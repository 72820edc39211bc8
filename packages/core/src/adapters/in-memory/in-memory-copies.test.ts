import { describe, expect, it } from 'vitest';
import { copyData, copyFact, copyMessage, copySummary, factFields, messageFields, summaryFields } from './in-memory-copies.js';
import type { StoredMessage } from '../../domain/message.js';
import type { Fact, Summary } from '../../domain/derived.js';

describe('copyData', () => {
  it('copies nested plain data so that no object is shared', () => {
    const value = { a: [1, { b: 'x' }], c: { d: null, e: true } };
    const copy = copyData(value);
    expect(copy).toEqual(value);
    expect(copy.a).not.toBe(value.a);
    expect(copy.a[1]).not.toBe(value.a[1]);
    expect(copy.c).not.toBe(value.c);
  });

  it('copies values that are not plain objects (Date, Map) as structuredClone does', () => {
    const when = new Date(1_700_000_000_000);
    const value = { when, tags: new Map([['k', 1]]) };
    const copy = copyData(value);
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(when);
    expect(copy.when.getTime()).toBe(when.getTime());
    expect(copy.tags).toEqual(new Map([['k', 1]]));
    expect(copy.tags).not.toBe(value.tags);
  });

  it('copies a cycle (through structuredClone) instead of recursing forever', () => {
    const value: Record<string, unknown> = { name: 'loop' };
    value.self = value;
    const copy = copyData(value);
    expect(copy).not.toBe(value);
    expect(copy.self).toBe(copy);
  });
});

describe('copyMessage', () => {
  it('shares nothing mutable with the stored message and can replace the content', () => {
    const stored: StoredMessage = {
      id: 'm1',
      sessionId: 's1',
      namespace: 'ns',
      seq: 1,
      role: 'assistant',
      content: '',
      createdAt: 1,
      metadata: { tags: ['a'] },
      toolCalls: [{ id: 'c1', name: 'lookup', args: { q: { deep: 1 } } }],
      tokens: { counter: 't', count: 3 },
    };
    const copy = copyMessage(stored, 'restored text');
    expect(copy).toEqual({ ...stored, content: 'restored text' });
    (copy.metadata.tags as string[]).push('b');
    (copy.toolCalls?.[0]?.args.q as { deep: number }).deep = 2;
    if (copy.tokens) copy.tokens.count = 9;
    expect(stored.metadata).toEqual({ tags: ['a'] });
    expect(stored.toolCalls?.[0]?.args).toEqual({ q: { deep: 1 } });
    expect(stored.tokens).toEqual({ counter: 't', count: 3 });
  });
});

describe('record copies', () => {
  it('copy every field of a record that has them all', () => {
    const message: StoredMessage = {
      id: 'm1',
      sessionId: 's1',
      namespace: 'ns',
      seq: 2,
      role: 'assistant',
      content: 'hi',
      name: 'Ana',
      toolCalls: [{ id: 'c1', name: 'f', args: {} }],
      toolCallId: 'c0',
      createdAt: 3,
      metadata: { a: 1 },
      tokens: { counter: 't', count: 4 },
    };
    const summary: Summary = { id: 'sum1', sessionId: 's1', namespace: 'ns', level: 'batch', fromSeq: 1, toSeq: 4, text: 't', sourceMessageIds: ['m1'], createdAt: 5, degraded: false };
    const fact: Fact = {
      id: 'f1',
      namespace: 'ns',
      subject: 'user',
      predicate: 'lives_in',
      object: 'Lisbon',
      text: 'lives in Lisbon',
      sourceMessageIds: ['m1'],
      validFrom: 1,
      validTo: 2,
      supersededBy: 'f2',
      confidence: 0.9,
      createdAt: 1,
      degraded: true,
    };
    const cases: [object, object, string[]][] = [
      [message, copyMessage(message), messageFields],
      [summary, copySummary(summary), summaryFields],
      [fact, copyFact(fact), factFields],
    ];
    for (const [original, copy, fields] of cases) {
      expect(Object.keys(original).sort()).toEqual([...fields].sort());
      expect(copy).toStrictEqual(original);
      expect(copy).not.toBe(original);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { copyData, copyFact, copyJob, copyMessage, copySummary, factFields, jobFields, messageFields, summaryFields } from './in-memory-copies.js';
import type { StoredMessage } from '../../domain/message.js';
import type { Fact, JobRecord, Summary } from '../../domain/derived.js';

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
    const job: JobRecord = {
      key: 'summarize:s1:1-4',
      type: 'summarize',
      sessionId: 's1',
      fromSeq: 1,
      toSeq: 4,
      appliedAt: 6,
      usage: { inputTokens: 10, outputTokens: 2, calls: 1, byModel: { m: { inputTokens: 10, outputTokens: 2, calls: 1 } } },
    };
    const cases: [object, object, string[]][] = [
      [message, copyMessage(message), messageFields],
      [summary, copySummary(summary), summaryFields],
      [fact, copyFact(fact), factFields],
      [job, copyJob(job), jobFields],
    ];
    for (const [original, copy, fields] of cases) {
      expect(Object.keys(original).sort()).toEqual([...fields].sort());
      expect(copy).toStrictEqual(original);
      expect(copy).not.toBe(original);
    }
  });
});

describe('copyJob', () => {
  it('shares no usage object with the stored job, and leaves usage out when the job has none', () => {
    const stored: JobRecord = {
      key: 'k',
      type: 'ingest',
      sessionId: 's1',
      fromSeq: 1,
      toSeq: 2,
      appliedAt: 3,
      usage: { inputTokens: 5, outputTokens: 1, calls: 1, byModel: { a: { inputTokens: 5, outputTokens: 1, calls: 1 } } },
    };
    const copy = copyJob(stored);
    if (copy.usage?.byModel?.a === undefined) throw new Error('usage was not copied');
    copy.usage.inputTokens = 99;
    copy.usage.byModel.a.calls = 99;
    copy.usage.byModel.b = { inputTokens: 1, outputTokens: 1, calls: 1 };
    expect(stored.usage).toEqual({ inputTokens: 5, outputTokens: 1, calls: 1, byModel: { a: { inputTokens: 5, outputTokens: 1, calls: 1 } } });
    const { usage: _, ...withoutUsage } = stored;
    expect(copyJob(withoutUsage)).toStrictEqual(withoutUsage);
    expect('usage' in copyJob(withoutUsage)).toBe(false);
  });

  it('copies a model named __proto__ as an own name', () => {
    const byModel = JSON.parse('{"__proto__": {"inputTokens": 1, "outputTokens": 2, "calls": 1}}') as Record<string, { inputTokens: number; outputTokens: number; calls: number }>;
    const copy = copyJob({ key: 'k', type: 'ingest', sessionId: 's1', fromSeq: 1, toSeq: 1, appliedAt: 1, usage: { inputTokens: 1, outputTokens: 2, calls: 1, byModel } });
    expect(Object.keys(copy.usage?.byModel ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy.usage?.byModel)).toBe(Object.prototype);
  });
});

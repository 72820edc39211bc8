import { describe, expect, it } from 'vitest';
import type { Topic } from '../../domain/topic.js';
import { assessTopic, halfLifeOf, planDecay, touchTopics } from './decay.js';

const HOUR = 3_600_000;
const policy = { baseHalfLifeMs: 10 * HOUR, accessesPerDoubling: 2, maxHalfLifeMs: 80 * HOUR, longTermHalfLifeMs: 40 * HOUR, floor: 0.1 };

const topic = (id: string, over: Partial<Topic> = {}): Topic => ({
  id,
  sessionId: 's',
  namespace: 'ns',
  title: id,
  importance: 0.8,
  accessCount: 0,
  lastActiveAt: 0,
  createdAt: 0,
  centroid: [],
  vectorCount: 0,
  ...over,
});

describe('halfLifeOf', () => {
  it.each([
    { accesses: 0, expected: 10 * HOUR },
    { accesses: 1, expected: 10 * HOUR },
    { accesses: 2, expected: 20 * HOUR },
    { accesses: 5, expected: 40 * HOUR },
    { accesses: 6, expected: 80 * HOUR },
    { accesses: 40, expected: 80 * HOUR },
    { accesses: 5000, expected: 80 * HOUR },
  ])('$accesses accesses -> $expected ms', ({ accesses, expected }) => {
    expect(halfLifeOf(accesses, policy)).toBe(expected);
  });
});

describe('assessTopic', () => {
  it.each([
    { name: 'just active', accessCount: 0, age: 0, priority: 0.8, memoryType: 'short-term' },
    { name: 'one half-life', accessCount: 0, age: 10 * HOUR, priority: 0.4, memoryType: 'short-term' },
    { name: 'three half-lives', accessCount: 0, age: 30 * HOUR, priority: 0.1, memoryType: 'short-term' },
    { name: 'accessed twice: half-life doubled', accessCount: 2, age: 20 * HOUR, priority: 0.4, memoryType: 'short-term' },
    { name: 'accessed often: long-term', accessCount: 4, age: 40 * HOUR, priority: 0.4, memoryType: 'long-term' },
    { name: 'clock behind the topic counts as age 0', accessCount: 0, age: -HOUR, priority: 0.8, memoryType: 'short-term' },
  ])('$name', ({ accessCount, age, priority, memoryType }) => {
    const assessed = assessTopic(topic('t', { accessCount, lastActiveAt: 1000 }), 1000 + age, policy);
    expect(assessed.priority).toBeCloseTo(priority, 10);
    expect(assessed.memoryType).toBe(memoryType);
  });
});

describe('planDecay', () => {
  it.each([
    { name: 'over the floor stays', topics: [topic('a', { lastActiveAt: 0 })], now: 29 * HOUR, keep: [], cooled: [] },
    { name: 'under the floor leaves', topics: [topic('a')], now: 31 * HOUR, keep: [], cooled: ['a'] },
    { name: 'kept topic stays whatever its priority', topics: [topic('a')], now: 100 * HOUR, keep: ['a'], cooled: [] },
    { name: 'already cold is not listed again', topics: [topic('a', { coldSince: 5 })], now: 100 * HOUR, keep: [], cooled: [] },
    { name: 'importance 0 leaves at once', topics: [topic('a', { importance: 0 }), topic('b', { importance: 1 })], now: 1, keep: [], cooled: ['a'] },
    { name: 'accesses slow the decay', topics: [topic('a', { accessCount: 2 }), topic('b')], now: 40 * HOUR, keep: [], cooled: ['b'] },
  ])('$name', ({ topics, now, keep, cooled }) => {
    const plan = planDecay(topics, now, policy, new Set(keep));
    expect(plan.map((t) => t.id)).toEqual(cooled);
    for (const t of plan) expect(t.coldSince).toBe(now);
  });
});

describe('touchTopics', () => {
  it('counts an access, reactivates, and reports which were cold', () => {
    const { topics, returned } = touchTopics([topic('a', { coldSince: 9, lastActiveAt: 5 }), topic('b', { accessCount: 3, lastActiveAt: 50 })], 40);
    expect(returned).toEqual(['a']);
    expect(topics.map((t) => [t.id, t.accessCount, t.lastActiveAt, t.coldSince])).toEqual([
      ['a', 1, 40, undefined],
      ['b', 4, 50, undefined],
    ]);
    expect('coldSince' in (topics[0] ?? {})).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import type { Fact } from '../../domain/derived.js';
import type { ExtractedFact } from '../../domain/jobs.js';
import { isSameObject, reconcileFacts } from './reconcile-facts.js';

const said = (predicate: string, object: string, at: number, id = `m${at}`): ExtractedFact => ({
  subject: 'user',
  predicate,
  object,
  text: `User ${predicate} ${object}.`,
  sourceMessageIds: [id],
  validFrom: at,
  confidence: 0.8,
});

const run = (existing: Fact[], incoming: ExtractedFact[]) => reconcileFacts({ namespace: 'n', existing, incoming, now: 1000, degraded: false });

describe('reconcileFacts', () => {
  it('adds a fact to an empty slot', () => {
    const out = run([], [said('lives_in', 'Paris', 10)]);
    expect(out.put).toHaveLength(1);
    expect(out.put[0]).toMatchObject({ subject: 'user', predicate: 'lives_in', object: 'Paris', validFrom: 10 });
    expect(out.put[0]?.validTo).toBeUndefined();
    expect(out.created).toEqual([out.put[0]?.id]);
  });

  it('supersedes the current fact of the same slot and keeps it as history', () => {
    const paris = run([], [said('lives_in', 'Paris', 10)]).put[0]!;
    const out = run([paris], [said('lives_in', 'Berlin', 20)]);
    const old = out.put.find((f) => f.object === 'Paris')!;
    const current = out.put.find((f) => f.object === 'Berlin')!;
    expect(old.validTo).toBe(20);
    expect(old.supersededBy).toBe(current.id);
    expect(current.validTo).toBeUndefined();
    expect(out.superseded).toEqual([old.id]);
  });

  it('merges a repeated statement into the current fact instead of adding a duplicate', () => {
    const paris = run([], [said('lives_in', 'Paris', 10)]).put[0]!;
    const out = run([paris], [said('lives_in', 'paris', 30, 'm-again')]);
    expect(out.created).toEqual([]);
    expect(out.put).toHaveLength(1);
    expect(out.put[0]?.sourceMessageIds).toEqual(['m10', 'm-again']);
  });

  it('never touches other slots', () => {
    const paris = run([], [said('lives_in', 'Paris', 10)]).put[0]!;
    const out = run([paris], [said('employer', 'Acme', 20)]);
    expect(out.put.map((f) => f.predicate)).toEqual(['employer']);
    expect(out.superseded).toEqual([]);
  });

  it('stores an older statement applied late as history, not as current', () => {
    const berlin = run([], [said('lives_in', 'Berlin', 20)]).put[0]!;
    const out = run([berlin], [said('lives_in', 'Paris', 10)]);
    const paris = out.put.find((f) => f.object === 'Paris')!;
    expect(paris.validTo).toBe(20);
    expect(paris.supersededBy).toBe(berlin.id);
    expect(out.superseded).toEqual([]);
  });

  it('chains three statements in one batch in time order', () => {
    const out = run([], [said('lives_in', 'Rome', 30), said('lives_in', 'Paris', 10), said('lives_in', 'Berlin', 20)]);
    const byObject = Object.fromEntries(out.put.map((f) => [f.object, f]));
    expect(byObject.Paris?.validTo).toBe(20);
    expect(byObject.Berlin?.validTo).toBe(30);
    expect(byObject.Rome?.validTo).toBeUndefined();
  });

  it('gives the same ids when run twice (idempotent derivation)', () => {
    expect(run([], [said('lives_in', 'Paris', 10)]).put[0]?.id).toBe(run([], [said('lives_in', 'Paris', 10)]).put[0]?.id);
  });

  it.each([
    ['Paris', 'paris', true],
    ['New York City', 'new york city', true],
    ['software engineer', 'software engineers', true],
    ['Paris', 'Berlin', false],
    ['dog named Rex', 'cat named Tom', false],
  ])('isSameObject(%j, %j) = %s', (a, b, expected) => {
    expect(isSameObject(a, b)).toBe(expected);
  });
});

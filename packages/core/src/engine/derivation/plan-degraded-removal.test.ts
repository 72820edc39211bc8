import { describe, expect, it } from 'vitest';
import type { Fact } from '../../domain/derived.js';
import { planDegradedRemoval } from './plan-degraded-removal.js';

const fact = (id: string, object: string, validFrom: number, sources: string[], extra: Partial<Fact> = {}): Fact => ({
  id,
  namespace: 'n',
  subject: 'user',
  predicate: 'lives_in',
  object,
  text: `User lives in ${object}.`,
  sourceMessageIds: sources,
  validFrom,
  confidence: 0.8,
  createdAt: validFrom,
  degraded: false,
  ...extra,
});

describe('planDegradedRemoval', () => {
  it('deletes a degraded fact stated only by the re-derived turns and makes the fact it superseded current again', () => {
    const old = fact('old', 'Lisbon', 10, ['m1'], { validTo: 20, supersededBy: 'd' });
    const degraded = fact('d', 'Porto', 20, ['m2'], { degraded: true });
    const plan = planDegradedRemoval({ degraded: [degraded], slotFacts: [old, degraded], messageIds: new Set(['m2']) });
    expect(plan.deleted).toEqual(['d']);
    expect(plan.put).toEqual([fact('old', 'Lisbon', 10, ['m1'])]);
  });

  it('splices a deleted fact out of the history chain when something later superseded it', () => {
    const old = fact('old', 'Lisbon', 10, ['m1'], { validTo: 20, supersededBy: 'd' });
    const degraded = fact('d', 'Porto', 20, ['m2'], { degraded: true, validTo: 30, supersededBy: 'new' });
    const newer = fact('new', 'Faro', 30, ['m3']);
    const plan = planDegradedRemoval({ degraded: [degraded], slotFacts: [old, degraded, newer], messageIds: new Set(['m2']) });
    expect(plan.deleted).toEqual(['d']);
    expect(plan.put).toEqual([{ ...old, validTo: 30, supersededBy: 'new' }]);
  });

  it('keeps a degraded fact with other sources, trimming the re-derived turns from its provenance', () => {
    const degraded = fact('d', 'Porto', 20, ['m2', 'm9'], { degraded: true });
    const plan = planDegradedRemoval({ degraded: [degraded], slotFacts: [degraded], messageIds: new Set(['m2']) });
    expect(plan).toEqual({ deleted: [], put: [{ ...degraded, sourceMessageIds: ['m9'] }] });
  });

  it('never deletes a fact that is not degraded', () => {
    const confirmed = fact('c', 'Porto', 20, ['m2']);
    expect(planDegradedRemoval({ degraded: [confirmed], slotFacts: [confirmed], messageIds: new Set(['m2']) })).toEqual({ deleted: [], put: [] });
  });

  it('handles two degraded facts of one chain removed together', () => {
    const old = fact('old', 'Lisbon', 10, ['m1'], { validTo: 20, supersededBy: 'd1' });
    const d1 = fact('d1', 'Porto', 20, ['m2'], { degraded: true, validTo: 25, supersededBy: 'd2' });
    const d2 = fact('d2', 'Faro', 25, ['m3'], { degraded: true });
    const plan = planDegradedRemoval({ degraded: [d2, d1], slotFacts: [old, d1, d2], messageIds: new Set(['m2', 'm3']) });
    expect(plan.deleted.sort()).toEqual(['d1', 'd2']);
    expect(plan.put).toEqual([fact('old', 'Lisbon', 10, ['m1'])]);
  });

  it('lets only the newest of several facts it had superseded become current (one current fact per slot)', () => {
    // 'late' was applied out of order: stored as history, superseded by the then-current 'd'.
    const old = fact('old', 'Lisbon', 10, ['m1'], { validTo: 30, supersededBy: 'd' });
    const late = fact('late', 'Braga', 20, ['m2'], { validTo: 30, supersededBy: 'd' });
    const degraded = fact('d', 'Porto', 30, ['m3'], { degraded: true });
    const plan = planDegradedRemoval({ degraded: [degraded], slotFacts: [old, late, degraded], messageIds: new Set(['m3']) });
    expect(plan.deleted).toEqual(['d']);
    expect(plan.put).toEqual([{ ...old, validTo: 20, supersededBy: 'late' }, fact('late', 'Braga', 20, ['m2'])]);
  });
});

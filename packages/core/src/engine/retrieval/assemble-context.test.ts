import { describe, expect, it } from 'vitest';
import { assembleContext, type ContextItem, type Section } from './assemble-context.js';

const item = (section: Section, id: string, tokens: number, order: number, extra: Partial<ContextItem> = {}): ContextItem => ({
  kind: section === 'recent' ? 'turn' : section === 'facts' ? 'fact' : 'summary',
  id,
  tier: section === 'recent' ? 'immediate' : 'long-term',
  section,
  tokens,
  order,
  sourceMessageIds: [id],
  reason: 'test',
  ...extra,
});

const base = {
  shares: { working: 0.2, profile: 0, facts: 0.2, recall: 0.1, recent: 0.5 },
  memoryOverhead: 5,
  headingTokens: { working: 3, profile: 3, facts: 3, recall: 3 },
};
const empty = { working: [], profile: [], facts: [], recall: [], recent: [] };

describe('assembleContext', () => {
  it('gives the profile its share whatever else competes, and lets its unused share flow on', () => {
    const candidates = {
      ...empty,
      profile: [item('profile', 'p1', 8, 1, { kind: 'fact' }), item('profile', 'p2', 8, 2, { kind: 'fact' })],
      recall: Array.from({ length: 20 }, (_, i) => item('recall', `r${i}`, 10, i)),
    };
    const out = assembleContext({ ...base, shares: { ...base.shares, profile: 0.3, recent: 0.2 }, budgetTokens: 100, candidates });
    expect(out.included.profile.map((i) => i.id)).toEqual(['p1', 'p2']);
    const without = assembleContext({ ...base, shares: { ...base.shares, profile: 0.3, recent: 0.2 }, budgetTokens: 100, candidates: { ...candidates, profile: [] } });
    expect(without.included.recall.length).toBeGreaterThan(out.included.recall.length);
  });

  it('never exceeds the budget and lists every candidate in the manifest', () => {
    const candidates = {
      working: [item('working', 'w1', 30, 1)],
      profile: [],
      facts: [item('facts', 'f1', 10, 1), item('facts', 'f2', 10, 2)],
      recall: [item('recall', 'r1', 40, 1)],
      recent: [item('recent', 't3', 20, 3), item('recent', 't2', 20, 2), item('recent', 't1', 20, 1)],
    };
    for (const budget of [10, 50, 77, 100, 1000]) {
      const out = assembleContext({ ...base, budgetTokens: budget, candidates });
      expect(out.tokens).toBeLessThanOrEqual(budget);
      expect(out.manifest.map((m) => m.id).sort()).toEqual(['f1', 'f2', 'r1', 't1', 't2', 't3', 'w1']);
    }
  });

  it('lets unused share flow on to sections that still want it', () => {
    const candidates = { ...empty, recent: [item('recent', 't3', 30, 3), item('recent', 't2', 30, 2), item('recent', 't1', 30, 1)] };
    const out = assembleContext({ ...base, budgetTokens: 100, candidates });
    expect(out.included.recent.map((i) => i.id)).toEqual(['t1', 't2', 't3']);
    expect(out.tokens).toBe(90);
  });

  it('keeps recent turns contiguous: a big turn stops older ones from jumping in', () => {
    const candidates = { ...empty, recent: [item('recent', 't3', 10, 3), item('recent', 't2', 500, 2), item('recent', 't1', 10, 1)] };
    const out = assembleContext({ ...base, budgetTokens: 100, candidates });
    expect(out.included.recent.map((i) => i.id)).toEqual(['t3']);
    expect(out.manifest.find((m) => m.id === 't1')?.included).toBe(false);
  });

  it('does not start the recent window with an orphaned tool result', () => {
    const candidates = {
      ...empty,
      recent: [item('recent', 't3', 10, 3), item('recent', 'tool', 10, 2, { isToolResult: true }), item('recent', 'call', 500, 1)],
    };
    const out = assembleContext({ ...base, budgetTokens: 100, candidates });
    expect(out.included.recent.map((i) => i.id)).toEqual(['t3']);
    expect(out.manifest.find((m) => m.id === 'tool')?.reason).toMatch(/tool result/);
  });

  it('charges the memory message and heading overheads once', () => {
    const candidates = { ...empty, facts: [item('facts', 'f1', 10, 1), item('facts', 'f2', 10, 2)] };
    const out = assembleContext({ ...base, budgetTokens: 1000, candidates });
    expect(out.tokens).toBe(5 + 3 + 10 + 10);
  });

  it('outputs sections in their reading order, not priority order', () => {
    const candidates = { ...empty, recall: [item('recall', 'late', 5, 200), item('recall', 'early', 5, 100)] };
    const out = assembleContext({ ...base, budgetTokens: 1000, candidates });
    expect(out.included.recall.map((i) => i.id)).toEqual(['early', 'late']);
  });
});

describe('assembleContext: the current turn', () => {
  it('packs the pinned turns and fixed tokens first, whatever they cost, then what is left', () => {
    const pinned = [item('recent', 't5', 30, 5, { isToolResult: true }), item('recent', 't4', 10, 4), item('recent', 't3', 10, 3)];
    const candidates = { ...empty, facts: [item('facts', 'f1', 10, 1)], recent: [item('recent', 't2', 10, 2), item('recent', 't1', 10, 1)] };
    const out = assembleContext({ ...base, budgetTokens: 75, candidates, pinned, fixedTokens: 12 });
    expect(out.included.recent.map((i) => i.id)).toEqual(['t2', 't3', 't4', 't5']);
    expect(out.tokens).toBe(72);
    expect(out.overBudget).toBe(false);
    expect(out.manifest.find((m) => m.id === 't1')?.included).toBe(false);
    expect(out.manifest.find((m) => m.id === 'f1')?.included).toBe(false);
  });

  it('sends the pinned turns over the budget, cuts everything else, and says so', () => {
    const pinned = [item('recent', 't3', 500, 3, { isToolResult: true }), item('recent', 't2', 10, 2)];
    const candidates = { ...empty, facts: [item('facts', 'f1', 1, 1)], recent: [item('recent', 't1', 1, 1)] };
    const out = assembleContext({ ...base, budgetTokens: 20, candidates, pinned });
    expect(out.overBudget).toBe(true);
    expect(out.included.recent.map((i) => i.id)).toEqual(['t2', 't3']);
    expect(out.included.facts).toEqual([]);
    expect(out.tokens).toBe(510);
    expect(out.manifest.find((m) => m.id === 't3')?.reason).toMatch(/kept over the budget/);
    expect(
      out.manifest
        .filter((m) => m.included)
        .map((m) => m.id)
        .sort(),
    ).toEqual(['t2', 't3']);
  });
});

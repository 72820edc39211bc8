import { describe, expect, it } from 'vitest';
import { createMemory } from '../src/create-memory.js';
import { steppingClock } from './helpers.js';

const HISTORY = Array.from({ length: 60 }, (_, i) => ({
  role: i % 2 ? ('assistant' as const) : ('user' as const),
  name: i % 2 ? 'Ana' : 'Ben',
  content: i % 2 ? `I planted ${i} tulips in the garden last weekend.` : `How many tulips did you plant this time, round ${i}?`,
}));

interface LooseBundle {
  sessions: { session: { id: string }; messages: unknown[]; summaries: unknown[]; jobs: unknown[] }[];
  facts: unknown[];
}

describe('an imported bundle derives in the background', () => {
  it('a bundle of verbatim turns (no summaries, facts or job ledger) is summarized and mined after import', async () => {
    const source = await createMemory({ clock: steppingClock() });
    const session = await source.sessions.create({ namespace: 'ns' });
    await source.append(session.id, HISTORY);
    await source.flush();
    const bundle = JSON.parse(await source.export(session.id, { format: 'json' })) as LooseBundle;
    await source.close();
    for (const entry of bundle.sessions) Object.assign(entry, { summaries: [], jobs: [] });
    bundle.facts = [];

    const target = await createMemory({ clock: steppingClock() });
    const report = await target.import(bundle);
    expect(report.sessionIds).toEqual([session.id]);
    await target.flush();
    const context = await target.getContext(session.id, { budgetTokens: 400 });
    expect(context.pending.watermarkSeq).toBeGreaterThan(0);
    expect(context.manifest.some((item) => item.tier === 'working')).toBe(true);
    expect((await target.facts.list({ namespace: 'ns' })).length).toBeGreaterThan(0);
    await target.close();
  });
});

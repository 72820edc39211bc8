import { describe, expect, it } from 'vitest';
import { createMemory } from '../src/create-memory.js';
import type { JobFilter, WriteBatch } from '../src/index.js';
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

/** An in-memory store whose planning reads of a session's jobs first await `planning(sessionId)`. */
async function storeWithPlanningGate(planning: (sessionId: string) => Promise<void>) {
  const { createInMemorySessionStore } = await import('../src/adapters/in-memory/in-memory-session-store.js');
  const inner = await createInMemorySessionStore();
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key !== 'jobs') return Reflect.get(target, key, receiver);
      return async (filter: JobFilter) => {
        if (filter.sessionId !== undefined) await planning(filter.sessionId);
        return target.jobs(filter);
      };
    },
  });
}

/** A bundle of `count` sessions of 10 verbatim turns, with nothing derived (all of it to derive after import). */
async function verbatimBundle(count: number): Promise<LooseBundle> {
  const source = await createMemory();
  const bundles: LooseBundle[] = [];
  for (let i = 0; i < count; i++) {
    const session = await source.sessions.create({ namespace: 'ns' });
    await source.append(session.id, HISTORY.slice(0, 10));
    bundles.push(JSON.parse(await source.export(session.id, { format: 'json' })) as LooseBundle);
  }
  await source.close();
  const bundle = { ...(bundles[0] as LooseBundle), sessions: bundles.flatMap((b) => b.sessions), facts: [] };
  for (const entry of bundle.sessions) Object.assign(entry, { summaries: [], jobs: [] });
  return bundle;
}

describe('reading one session after an import of many', () => {
  it('waits for the planning of that session only, not for the rest of the import', { timeout: 10_000 }, async () => {
    // the planning of the first imported session hangs until released (a slow store, a busy pool)
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const bundle = await verbatimBundle(4);
    const blocked = bundle.sessions[0]?.session.id ?? '';
    const store = await storeWithPlanningGate(async (sessionId) => {
      if (sessionId === blocked) await released;
    });
    const target = await createMemory({ store });
    const report = await target.import(bundle);
    const last = report.sessionIds.find((id) => id !== blocked) as string;
    // a macrotask later the background planning has started, and is stuck on the first session
    await new Promise((resolve) => setImmediate(resolve));
    // with the first session's planning stuck, another's context is still served (before the
    // change, this waited for the whole import's planning and the test timed out)
    const context = await target.getContext(last, { budgetTokens: 400 });
    expect(context.messages.map((m) => m.content)).toEqual(expect.arrayContaining(HISTORY.slice(0, 10).map((m) => m.content)));
    release();
    await target.flush();
    await target.close();
  });
});

describe('closing after an import', () => {
  it('drops the planning not yet done when the queue drops its jobs at close, instead of waiting for it', { timeout: 10_000 }, async () => {
    // every session's planning waits for the gate: the first one runs while close is called
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let planning = 0;
    const store = await storeWithPlanningGate(async () => {
      planning++;
      await gate;
    });
    // the default in-process queue drops queued jobs at close
    const target = await createMemory({ store });
    await target.import(await verbatimBundle(3));
    // a macrotask later the background planning has started on the first session
    await new Promise((resolve) => setImmediate(resolve));
    expect(planning).toBe(1);
    const closing = target.close();
    open();
    await closing;
    // close waited for the running planning, and dropped the other two sessions' (it planned all three before)
    expect(planning).toBe(1);
  });
});

describe('writing an imported bundle', () => {
  it('writes one step of each kind for the whole bundle, every session before its records, all in one write', async () => {
    const source = await createMemory({ clock: steppingClock() });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const session = await source.sessions.create({ namespace: 'ns' });
      await source.append(session.id, HISTORY.slice(0, 30));
      ids.push(session.id);
    }
    await source.flush();
    const parts: LooseBundle[] = [];
    for (const id of ids) parts.push(JSON.parse(await source.export(id, { format: 'json' })) as LooseBundle);
    await source.close();
    const bundle = { ...(parts[0] as LooseBundle), sessions: parts.flatMap((b) => b.sessions) };
    const { createInMemorySessionStore } = await import('../src/adapters/in-memory/in-memory-session-store.js');
    const inner = await createInMemorySessionStore();
    const writes: WriteBatch[] = [];
    const store = new Proxy(inner, {
      get(target, key, receiver) {
        if (key !== 'write') return Reflect.get(target, key, receiver);
        return (batch: WriteBatch) => {
          writes.push(batch);
          return target.write(batch);
        };
      },
    });
    const target = await createMemory({ store, clock: steppingClock() });
    const report = await target.import(bundle);
    expect(report).toMatchObject({ sessions: 3, messages: 90 });
    expect(report.summaries).toBeGreaterThan(0);
    const [written] = writes;
    expect(written?.ops.map((op) => op.type)).toEqual(['putSession', 'putSession', 'putSession', 'insertMessages', 'putSummaries', 'recordJobs', 'putFacts']);
    const step = <T extends WriteBatch['ops'][number]['type']>(type: T) => written?.ops.find((op) => op.type === type) as Extract<WriteBatch['ops'][number], { type: T }>;
    expect(new Set(step('insertMessages').messages.map((m) => m.sessionId))).toEqual(new Set(report.sessionIds));
    expect(step('insertMessages').messages).toHaveLength(90);
    expect(new Set(step('recordJobs').jobs.map((j) => j.sessionId))).toEqual(new Set(report.sessionIds));
    // and what was written reads back as in the source
    for (const id of report.sessionIds) expect(await target.messages(id)).toHaveLength(30);
    await target.close();
  });
});

import { describe, expect, it } from 'vitest';
import { createMemory } from '../src/create-memory.js';
import { createInMemorySessionStore } from '../src/adapters/in-memory/in-memory-session-store.js';
import { createInProcessJobQueue } from '../src/adapters/queues/in-process-job-queue.js';
import type { SessionStore } from '../src/ports/session-store.js';
import type { TopicStore } from '../src/ports/topic-store.js';
import { ExtractiveSummarizer } from '../src/models/summaries/extractive-summarizer.js';
import { TiktokenTokenCounter } from '../src/models/tokens/tiktoken-token-counter.js';
import type { Summarizer } from '../src/ports/models.js';
import { steppingClock } from './helpers.js';

/** Store reads whose rows are counted: a quadratic path shows as rows read per turn growing with the session. */
const COUNTED = ['messages', 'summaries', 'jobs', 'facts'] as const;

/** The reference store, with the rows each read returns counted (a real store, not a mock: every call goes through). */
async function countingStore(): Promise<{ store: SessionStore & TopicStore; rows: () => number }> {
  const inner = await createInMemorySessionStore();
  let rows = 0;
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (!(COUNTED as readonly (string | symbol)[]).includes(key)) return value.bind(target);
      return async (...args: unknown[]) => {
        const result = (await (value as (...a: unknown[]) => Promise<unknown[]>).apply(target, args)) as unknown[];
        rows += result.length;
        return result;
      };
    },
  });
  return { store, rows: () => rows };
}

const turn = (i: number) => ({
  role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
  content: i % 2 ? `Noted: step ${i} of the garden plan, with ${i % 7} beds.` : `I planted ${i % 5} rows of beans on day ${i} and watered the roses.`,
});

/** Appends `n` turns one by one (derivation piles up behind them, as in an import), then waits for all of it. */
async function rowsReadPerTurn(n: number): Promise<number> {
  const { store, rows } = await countingStore();
  const memory = await createMemory({ store, clock: steppingClock(), queue: await createInProcessJobQueue() });
  const session = await memory.sessions.create({ namespace: 'n' });
  for (let i = 0; i < n; i++) await memory.append(session.id, turn(i));
  await memory.flush();
  const perTurn = rows() / n;
  // everything was derived: a synopsis, and no backlog left
  const context = await memory.getContext(session.id, { budgetTokens: 500 });
  expect(context.pending.jobs).toEqual([]);
  expect((await store.summaries({ sessionId: session.id, level: 'synopsis' })).length).toBe(1);
  await memory.close();
  return perTurn;
}

describe('derivation work grows linearly with the session (rows read, not milliseconds)', () => {
  it('planning, applying and consolidating read about as many rows per turn at 4,000 turns as at 1,000', async () => {
    const small = await rowsReadPerTurn(1000);
    const large = await rowsReadPerTurn(4000);
    // Reading every uncovered turn at each planning, or every synopsis source at each fold,
    // made this ratio grow with the session (about 4x between these sizes).
    expect(large / small).toBeLessThan(1.3);
  }, 120_000);

  it('a getContext over a backlog of 3,000 turns not yet summarized reads a window, not the backlog', async () => {
    const { store, rows } = await countingStore();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = new ExtractiveSummarizer({ tokens: new TiktokenTokenCounter() });
    const gated: Summarizer = {
      name: 'gated',
      summarize: async (input) => {
        await gate;
        return inner.summarize(input);
      },
      consolidate: (input) => inner.consolidate(input),
    };
    const memory = await createMemory({ store, summarizer: gated, clock: steppingClock(), queue: await createInProcessJobQueue() });
    const session = await memory.sessions.create({ namespace: 'n' });
    await memory.append(
      session.id,
      Array.from({ length: 3000 }, (_, i) => turn(i)),
    );
    await memory.getContext(session.id, { budgetTokens: 1000 }); // plans the derivation of the 3,000 turns (reads them once)
    const before = rows();
    const context = await memory.getContext(session.id, { query: 'roses', budgetTokens: 1000 });
    const read = rows() - before;
    expect(await store.summaries({ sessionId: session.id })).toEqual([]);
    const listed = context.manifest.filter((m) => m.tier === 'immediate');
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.length).toBeLessThan(200);
    expect(context.pending.unlistedThroughSeq).toBeGreaterThan(2700);
    expect(context.pending.uncoveredMessages).toBe(3000);
    expect(context.pending.watermarkSeq).toBe(0);
    // the window (64-turn chunks until the budget is held), recalled turns and their neighbours, the profile
    expect(read).toBeLessThan(600);
    release();
    await memory.flush();
    await memory.close();
  });
});

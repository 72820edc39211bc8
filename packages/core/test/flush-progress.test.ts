import { describe, expect, it } from 'vitest';
import { createMemory } from '../src/create-memory.js';
import { createInMemorySessionStore } from '../src/adapters/in-memory/in-memory-session-store.js';
import { createInMemoryKnowledgeBase } from '../src/adapters/knowledge/in-memory-knowledge-base.js';
import { createInProcessJobQueue } from '../src/adapters/queues/in-process-job-queue.js';
import type { DerivationProgress } from '../src/services/derivation/derivation-progress.js';
import { steppingClock } from './helpers.js';

const TURNS = 3000;

const history = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    content: i % 2 ? `Noted, turn ${i}: the trip on day ${i} sounds good.` : `Turn ${i}: on day ${i} I went hiking near Lake Bled with Ana.`,
  }));

/** A memory on the in-memory store, the in-process queue and the offline models: derivation runs in the background. */
async function backgroundMemory() {
  return createMemory({
    store: await createInMemorySessionStore(),
    knowledge: await createInMemoryKnowledgeBase(),
    queue: createInProcessJobQueue(),
    clock: steppingClock(),
  });
}

describe('flush({ onProgress }): following derivation of a long history', () => {
  it('reports monotonic progress, with intermediate events, that ends at the total', async () => {
    const memory = await backgroundMemory();
    const session = await memory.sessions.create({ namespace: 'n' });
    for (let i = 0; i < TURNS; i += 1000) await memory.append(session.id, history(TURNS).slice(i, i + 1000));
    const events: DerivationProgress[] = [];
    await memory.flush({ onProgress: (p) => events.push(p), progressIntervalMs: 10 });

    const last = events[events.length - 1];
    expect(last).toMatchObject({ derivedTurns: TURNS, totalTurns: TURNS, pendingJobs: 0, failedJobs: 0, sessions: 1, done: true });
    expect(events.filter((e) => e.done)).toHaveLength(1);
    for (const [i, e] of events.entries()) {
      expect(e.derivedTurns).toBeLessThanOrEqual(e.totalTurns);
      if (i > 0) expect(e.derivedTurns).toBeGreaterThanOrEqual(events[i - 1]?.derivedTurns ?? 0);
    }
    // several distinct steps between the start and the end, not just the two
    const intermediate = new Set(events.map((e) => e.derivedTurns).filter((d) => d > 0 && d < TURNS));
    expect(intermediate.size).toBeGreaterThanOrEqual(3);
    expect(events[0]?.derivedTurns).toBeLessThan(TURNS);
    // what flush waited for has landed: every turn's ingest is in the ledger
    const context = await memory.getContext(session.id, { query: 'Lake Bled' });
    expect(context.pending.jobs).toEqual([]);
    await memory.close();
  });

  it('with nothing pending, sends the start and the done event, with nothing to follow', async () => {
    const memory = await backgroundMemory();
    const events: DerivationProgress[] = [];
    await memory.flush({ onProgress: (p) => events.push(p) });
    const idle = { derivedTurns: 0, totalTurns: 0, pendingJobs: 0, failedJobs: 0, sessions: 0 };
    expect(events).toEqual([
      { ...idle, done: false },
      { ...idle, done: true },
    ]);
    await memory.close();
  });

  it('rejects bad options with INVALID_INPUT, and flush() without options still drains', async () => {
    const memory = await backgroundMemory();
    const session = await memory.sessions.create({ namespace: 'n' });
    await expect(memory.flush({ progressIntervalMs: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(memory.flush({ onProgress: 'bar' as unknown as () => void })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await memory.append(session.id, history(50));
    await memory.flush();
    expect((await memory.getContext(session.id)).pending.jobs).toEqual([]);
    await memory.close();
  });

  it('a listener that throws fails the flush only after derivation has settled', async () => {
    const memory = await backgroundMemory();
    const session = await memory.sessions.create({ namespace: 'n' });
    await memory.append(session.id, history(200));
    const boom = new Error('listener broke');
    await expect(
      memory.flush({
        onProgress: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    expect((await memory.getContext(session.id)).pending.jobs).toEqual([]);
    await memory.close();
  });
});

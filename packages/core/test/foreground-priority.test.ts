import { describe, expect, it } from 'vitest';
import { createInMemoryKnowledgeBase } from '../src/adapters/knowledge/in-memory-knowledge-base.js';
import { createInMemorySessionStore } from '../src/adapters/in-memory/in-memory-session-store.js';
import { createMemory } from '../src/create-memory.js';
import type { FactExtractor } from '../src/ports/models.js';
import { FOREGROUND_WAIT_MS } from '../src/shared/foreground.js';
import { steppingClock } from './helpers.js';

const HOLD_MS = 5 * FOREGROUND_WAIT_MS;

describe('derivation in the same event loop gives way to the app calls in flight', () => {
  it('starts no job while a getContext is in flight, for FOREGROUND_WAIT_MS at most, and derives everything afterwards', async () => {
    const store = await createInMemorySessionStore();
    const knowledge = await createInMemoryKnowledgeBase();
    // the getContext's read of the profile facts waits while `held` is set (a slow network
    // read; planning derivation, which the call does first, reads no facts by kind)
    let held: Promise<void> | undefined;
    const facts = store.facts.bind(store);
    store.facts = async (filter) => {
      if (held && filter.predicateKinds) await held;
      return facts(filter);
    };
    const extracted: number[] = [];
    const extractor: FactExtractor = {
      name: 'recording',
      extract: async () => {
        extracted.push(performance.now());
        return [];
      },
    };
    const memory = await createMemory({ store, knowledge, extractor, clock: steppingClock() });
    const session = await memory.sessions.create({ namespace: 'ns' });
    await memory.append(
      session.id,
      Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `Turn ${i}: I moved to Porto and adopted a cat.` })),
    );
    // derivation of those turns is planned inside this call, before its held read: every job is queued while it is in flight
    let release = (): void => undefined;
    held = new Promise((resolve) => {
      release = resolve;
    });
    const heldAt = performance.now();
    const context = memory.getContext(session.id, { query: 'Where do I live?' });
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    held = undefined;
    release();
    await context;
    await memory.flush();
    await memory.close();

    expect(extracted.length).toBeGreaterThan(0);
    // the first job started only once the wait ran out (the call was still in flight then)
    expect(Math.min(...extracted) - heldAt).toBeGreaterThanOrEqual(FOREGROUND_WAIT_MS - 1);
  });
});

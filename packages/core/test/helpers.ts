import { createMemory } from '../src/create-memory.js';
import { createInMemorySessionStore } from '../src/adapters/in-memory/in-memory-session-store.js';
import { createInMemoryKnowledgeBase } from '../src/adapters/knowledge/in-memory-knowledge-base.js';
import { createInlineJobQueue } from '../src/adapters/queues/inline-job-queue.js';
import type { MemoryOptions } from '../src/memory-options.js';
import type { Clock } from '../src/ports/models.js';

/** A clock that advances one second per reading, from a fixed start. */
export function steppingClock(start = Date.UTC(2026, 10, 20, 10, 0, 0)): Clock & { set(ms: number): void } {
  let now = start;
  return { now: () => (now += 1000), set: (ms) => (now = ms) };
}

/** A memory on the reference adapters with the inline queue: derivation lands before append returns. */
export async function createTestMemory(options: MemoryOptions = {}) {
  const store = await createInMemorySessionStore();
  const knowledge = await createInMemoryKnowledgeBase();
  const clock = steppingClock();
  const memory = await createMemory({
    store,
    knowledge,
    clock,
    queue: await createInlineJobQueue(),
    policy: { immediate: { maxMessages: 6, minMessages: 2 }, working: { batchMessages: 3, maxSummaries: 3 } },
    ...options,
  });
  return { memory, store, knowledge, clock };
}

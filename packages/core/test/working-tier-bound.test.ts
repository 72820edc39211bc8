import { describe, expect, it } from 'vitest';
import { createMemory } from '../src/create-memory.js';
import { createInMemorySessionStore } from '../src/adapters/in-memory/in-memory-session-store.js';
import { createInProcessJobQueue } from '../src/adapters/queues/in-process-job-queue.js';
import type { MessageInput } from '../src/domain/message.js';

const turns = (n: number): MessageInput[] => Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `Turn ${i} is about topic ${i % 37} and the number ${i}.` }));

describe('the working tier stays bounded', () => {
  it.each([
    ['appends of one turn', 1],
    ['appends of 100 turns (consolidation lands while summaries are still being applied)', 100],
  ])(
    '%s: after flush at most maxSummaries batch summaries follow the synopsis',
    async (_title, size) => {
      const store = await createInMemorySessionStore();
      const maxSummaries = 6;
      const memory = await createMemory({ store, queue: await createInProcessJobQueue({ concurrency: 2 }), policy: { working: { maxSummaries } } });
      const session = await memory.sessions.create({ namespace: 'n' });
      const all = turns(1000);
      for (let i = 0; i < all.length; i += size) await memory.append(session.id, all.slice(i, i + size));
      await memory.flush();

      const summaries = await store.summaries({ sessionId: session.id });
      const synopsis = summaries.filter((s) => s.level === 'synopsis');
      expect(synopsis).toHaveLength(1);
      const after = summaries.filter((s) => s.level === 'batch' && s.fromSeq > synopsis[0]!.toSeq);
      expect(after.length).toBeLessThanOrEqual(maxSummaries);
      // the synopsis and the batches after it still cover every turn that left the immediate tier
      const context = await memory.getContext(session.id, { budgetTokens: 2000 });
      const immediate = context.manifest.filter((m) => m.tier === 'immediate').length;
      const coveredThrough = Math.max(synopsis[0]!.toSeq, ...after.map((s) => s.toSeq));
      expect(coveredThrough + immediate).toBeGreaterThanOrEqual(1000);
      expect(context.pending.jobs).toEqual([]);
      await memory.close();
    },
    60_000,
  );
});

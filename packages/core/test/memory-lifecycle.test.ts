import { describe, expect, it } from 'vitest';
import { createMemory } from '../src/create-memory.js';
import { createInMemorySessionStore } from '../src/adapters/in-memory/in-memory-session-store.js';
import { createInMemoryKnowledgeBase } from '../src/adapters/knowledge/in-memory-knowledge-base.js';
import { createInProcessJobQueue } from '../src/adapters/queues/in-process-job-queue.js';
import { TiktokenTokenCounter } from '../src/models/tokens/tiktoken-token-counter.js';
import { messageTokens } from '../src/services/retrieval/context.js';
import type { ContextResult } from '../src/services/retrieval/context.js';
import type { Fact } from '../src/domain/derived.js';
import type { Session } from '../src/domain/session.js';
import type { SessionStore } from '../src/ports/session-store.js';
import { scriptTurn, type Planted } from './conversation-script.js';

const TURNS = 200;
const PLANTS: Record<string, Planted[]> = {
  alice: [
    { session: 0, turn: 10, text: 'I live in Paris.' },
    { session: 1, turn: 60, text: 'I moved to Berlin.' },
    { session: 2, turn: 20, text: 'I work at Acme.' },
  ],
  bob: [
    { session: 0, turn: 10, text: 'I live in Lisbon.' },
    { session: 1, turn: 60, text: 'I moved to Madrid.' },
    { session: 2, turn: 20, text: 'I work at Globex.' },
  ],
};

/** Current values of the profile slots; the script's filler turns also yield observations, each in a slot of its own. */
function slotObjects(facts: readonly Fact[]): string[] {
  return facts
    .filter((f) => !f.predicate.startsWith('observation:'))
    .map((f) => f.object)
    .sort();
}

/** Every stored turn is covered by an applied summary, or in the immediate tier, or older than the listed turns that already fill the budget. */
async function assertNoGap(store: SessionStore, session: Session, context: ContextResult): Promise<void> {
  const all = await store.messages({ sessionId: session.id });
  const summaries = await store.summaries({ sessionId: session.id });
  const covered = new Set(summaries.flatMap((s) => s.sourceMessageIds));
  const immediate = new Set(context.manifest.filter((m) => m.tier === 'immediate').map((m) => m.id));
  const missing = all.filter((m) => !covered.has(m.id) && !immediate.has(m.id));
  // Older uncovered turns may go unlisted only when the listed ones already hold the budget.
  const unlisted = context.pending.unlistedThroughSeq;
  expect(missing.filter((m) => m.seq > unlisted).map((m) => m.seq)).toEqual([]);
  if (missing.length > 0) {
    const listedTokens = context.manifest.filter((m) => m.tier === 'immediate').reduce((sum, m) => sum + m.tokens, 0);
    expect(listedTokens).toBeGreaterThanOrEqual(context.budgetTokens);
  }
}

describe('memory lifecycle: 2 namespaces x 3 sessions x 200 turns', () => {
  it('promotes, stays within budget, never drops a turn, supersedes facts, isolates, and forgets', async () => {
    const store = await createInMemorySessionStore();
    const knowledge = await createInMemoryKnowledgeBase();
    const tokens = new TiktokenTokenCounter();
    const memory = await createMemory({ store, knowledge, tokens, queue: await createInProcessJobQueue({ concurrency: 2 }) });
    const sessions: Record<string, Session[]> = { alice: [], bob: [] };
    const budgets = [150, 400, 1000, 2500];
    let contexts = 0;

    for (const namespace of ['alice', 'bob']) {
      for (let s = 0; s < 3; s++) {
        const session = await memory.sessions.create({ namespace, title: `${namespace} ${s}` });
        sessions[namespace]!.push(session);
        for (let t = 0; t < TURNS; t++) {
          await memory.append(session.id, scriptTurn(t, s, PLANTS[namespace]!));
          if (t % 15 === 14) {
            const budgetTokens = budgets[contexts++ % budgets.length]!;
            const context = await memory.getContext(session.id, { budgetTokens });
            const recount = context.messages.reduce((sum, m) => sum + messageTokens({ tokens }, m), 0);
            expect(context.tokens).toBe(recount);
            expect(recount).toBeLessThanOrEqual(budgetTokens);
            await assertNoGap(store, session, context);
          }
        }
      }
    }
    await memory.flush();

    // promotion happened: every session has summaries and a synopsis; raw turns all kept
    for (const session of [...sessions.alice!, ...sessions.bob!]) {
      const summaries = await store.summaries({ sessionId: session.id });
      expect(summaries.filter((s) => s.level === 'batch').length).toBeGreaterThan(10);
      expect(summaries.filter((s) => s.level === 'synopsis')).toHaveLength(1);
      expect(await store.messages({ sessionId: session.id })).toHaveLength(TURNS);
      const context = await memory.getContext(session.id, { budgetTokens: 800 });
      await assertNoGap(store, session, context);
      expect(context.pending.jobs.filter((j) => j.state !== 'failed')).toEqual([]);
    }

    // the latest fact of a slot is current; the old one is kept with validTo
    const aliceFacts = await memory.facts.list({ namespace: 'alice', includeSuperseded: true });
    const livesIn = aliceFacts.filter((f) => f.predicate === 'lives_in');
    expect(livesIn.map((f) => [f.object, f.validTo === undefined])).toEqual([
      ['Paris', false],
      ['Berlin', true],
    ]);
    const paris = livesIn[0]!;
    expect(paris.supersededBy).toBe(livesIn[1]!.id);
    expect(paris.validTo).toBe(livesIn[1]!.validFrom);
    expect(aliceFacts.find((f) => f.predicate === 'employer')).toMatchObject({ object: 'Acme' });
    expect(slotObjects(await memory.facts.list({ namespace: 'alice' }))).toEqual(['Acme', 'Berlin']);

    // a query in one namespace never returns the other's items
    const aliceMessageIds = new Set((await store.messages({ namespace: 'alice' })).map((m) => m.id));
    for (const query of ['Lisbon', 'Madrid', 'Globex', 'where do I live', 'octopuses documentary', 'Entry 1-42']) {
      const hits = await memory.search({ namespace: 'alice', query, k: 20 });
      for (const hit of hits) expect(hit.messageIds.every((id) => aliceMessageIds.has(id))).toBe(true);
    }
    const crossContext = await memory.getContext(sessions.alice![0]!.id, { query: 'Madrid Globex Lisbon', budgetTokens: 2000 });
    expect(JSON.stringify(crossContext.messages)).not.toMatch(/Madrid|Globex|Lisbon/);

    // forget({ sessionId }) leaves no derived trace in the store or the KB
    const gone = sessions.alice![1]!;
    const goneIds = new Set((await store.messages({ sessionId: gone.id })).map((m) => m.id));
    const goneSummaryIds = (await store.summaries({ sessionId: gone.id })).map((s) => s.id);
    await memory.forget({ sessionId: gone.id });
    await memory.flush();
    expect(await store.sessions({ ids: [gone.id] })).toEqual([]);
    expect(await store.messages({ sessionId: gone.id })).toEqual([]);
    expect(await store.summaries({ sessionId: gone.id })).toEqual([]);
    expect(await store.jobs({ sessionId: gone.id })).toEqual([]);
    const remainingFacts = await store.facts({ namespace: 'alice', includeSuperseded: true });
    expect(remainingFacts.filter((f) => f.sourceMessageIds.some((id) => goneIds.has(id)))).toEqual([]);
    expect(await knowledge.count({ sessionId: gone.id })).toBe(0);
    const hits = await memory.search({ namespace: 'alice', query: 'Berlin moved', k: 50 });
    expect(hits.filter((h) => h.messageIds.some((id) => goneIds.has(id)) || goneSummaryIds.includes(h.id))).toEqual([]);
    // Berlin came only from the forgotten session: Paris is current again
    expect(slotObjects(await memory.facts.list({ namespace: 'alice' }))).toEqual(['Acme', 'Paris']);
    // the KB holds exactly what a rebuild from the store would hold
    const before = await knowledge.count({ namespace: 'alice' });
    await memory.reindex();
    expect(await knowledge.count({ namespace: 'alice' })).toBe(before);
    await memory.close();
  }, 120_000);
});

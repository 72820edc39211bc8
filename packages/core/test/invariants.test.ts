import { describe, expect, it } from 'vitest';
import { createInlineJobQueue } from '../src/adapters/queues/inline-job-queue.js';
import { createInProcessJobQueue } from '../src/adapters/queues/in-process-job-queue.js';
import { ExtractiveSummarizer } from '../src/models/summaries/extractive-summarizer.js';
import { TiktokenTokenCounter } from '../src/models/tokens/tiktoken-token-counter.js';
import type { DeriveJob } from '../src/domain/jobs.js';
import type { JobQueue } from '../src/ports/job-queue.js';
import type { SummarizeInput, Summarizer } from '../src/ports/models.js';
import { createTestMemory } from './helpers.js';

const chat = (n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) => ({
    role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
    content: i === 4 ? 'I live in Lisbon and I love surfing.' : `Turn ${i + offset}: we discussed topic ${(i * 7) % 13} at length.`,
  }));

describe('DESIGN invariants', () => {
  it('1. nothing is lost: promotion never overwrites or deletes a raw message', async () => {
    const { memory, store } = await createTestMemory();
    const s = await memory.sessions.create({ namespace: 'n' });
    const input = chat(40);
    for (const m of input) await memory.append(s.id, m);
    await memory.flush();
    expect((await store.summaries({ sessionId: s.id, level: 'synopsis' })).length).toBe(1);
    const stored = await store.messages({ sessionId: s.id });
    expect(stored.map((m) => [m.seq, m.role, m.content])).toEqual(input.map((m, i) => [i + 1, m.role, m.content]));
    await memory.close();
  });

  it('2. no gap: a turn leaves the immediate tier only once the summary covering it has landed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = new ExtractiveSummarizer({ tokens: new TiktokenTokenCounter() });
    const slow: Summarizer = {
      name: 'gated',
      summarize: async (input: SummarizeInput) => {
        await gate;
        return inner.summarize(input);
      },
      consolidate: (input) => inner.consolidate(input),
    };
    const { memory, store } = await createTestMemory({ summarizer: slow, queue: await createInProcessJobQueue() });
    const s = await memory.sessions.create({ namespace: 'n' });
    for (const m of chat(12)) await memory.append(s.id, m);
    const before = await memory.getContext(s.id, { budgetTokens: 4000 });
    expect(before.manifest.filter((m) => m.tier === 'immediate')).toHaveLength(12);
    expect(before.pending.jobs.some((j) => j.type === 'summarize')).toBe(true);
    expect(before.pending.watermarkSeq).toBe(0);
    expect(await store.summaries({ sessionId: s.id })).toEqual([]);
    release();
    await memory.flush();
    const after = await memory.getContext(s.id, { budgetTokens: 4000 });
    const covered = (await store.summaries({ sessionId: s.id })).flatMap((x) => x.sourceMessageIds);
    const immediate = after.manifest.filter((m) => m.tier === 'immediate').map((m) => m.id);
    expect(immediate.length).toBeLessThan(12);
    expect(after.pending.watermarkSeq).toBe(12 - immediate.length);
    const all = (await store.messages({ sessionId: s.id })).map((m) => m.id);
    expect([...new Set([...covered, ...immediate])].sort()).toEqual([...all].sort());
    await memory.close();
  });

  it('3. idempotent derivation: replaying every job stores the same results, no duplicates', async () => {
    const inline = await createInlineJobQueue();
    const seen: DeriveJob[] = [];
    const recording: JobQueue = {
      derivesInline: inline.derivesInline,
      keepsJobs: inline.keepsJobs,
      start: (runtime) => inline.start(runtime),
      enqueue: async (jobs) => {
        seen.push(...jobs);
        await inline.enqueue(jobs);
      },
      pending: (sessionId) => inline.pending(sessionId),
      drain: () => inline.drain(),
      close: () => inline.close(),
    };
    const { memory, store, knowledge } = await createTestMemory({ queue: recording });
    const s = await memory.sessions.create({ namespace: 'n' });
    for (const m of chat(30)) await memory.append(s.id, m);
    await memory.flush();
    const snapshot = async () => ({
      summaries: await store.summaries({ sessionId: s.id }),
      facts: await store.facts({ namespace: 'n', includeSuperseded: true }),
      jobs: (await store.jobs({ sessionId: s.id })).map((j) => j.key),
      kb: await knowledge.count({ namespace: 'n' }),
    });
    const first = await snapshot();
    expect(new Set(first.jobs).size).toBe(first.jobs.length);
    expect(seen.length).toBeGreaterThan(5);
    await inline.enqueue([...seen]);
    await memory.flush();
    expect(await snapshot()).toEqual(first);
    await memory.close();
  });

  it('4. isolation: a query scoped to one namespace never returns another namespace', async () => {
    const { memory } = await createTestMemory();
    const a = await memory.sessions.create({ namespace: 'a' });
    const b = await memory.sessions.create({ namespace: 'b' });
    await memory.append(a.id, { role: 'user', content: 'I live in Lisbon and my cat is called Miso.' });
    await memory.append(b.id, { role: 'user', content: 'I live in Lisbon and my cat is called Tofu.' });
    const hits = await memory.search({ namespace: 'a', query: 'Lisbon cat Tofu Miso', k: 50 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.some((h) => h.text.includes('Tofu'))).toBe(false);
    const facts = await memory.facts.list({ namespace: 'a' });
    expect(facts.every((f) => f.namespace === 'a')).toBe(true);
    const ctx = await memory.getContext(a.id, { query: 'Tofu', budgetTokens: 2000 });
    expect(JSON.stringify(ctx.messages)).not.toContain('Tofu');
    await memory.close();
  });

  it('5. provenance: derived items name their sources; forgetting a turn re-derives what was built from it', async () => {
    const { memory, store, knowledge } = await createTestMemory();
    const s = await memory.sessions.create({ namespace: 'n' });
    const messages = [];
    for (const m of chat(40)) messages.push(...(await memory.append(s.id, m)));
    await memory.flush();
    const ids = new Set(messages.map((m) => m.id));
    const summaries = await store.summaries({ sessionId: s.id });
    const facts = await store.facts({ namespace: 'n', includeSuperseded: true });
    for (const d of [...summaries, ...facts]) {
      expect(d.sourceMessageIds.length).toBeGreaterThan(0);
      expect(d.sourceMessageIds.every((id) => ids.has(id))).toBe(true);
    }
    const lisbon = messages[4]!;
    const fromLisbon = facts.filter((f) => f.sourceMessageIds.includes(lisbon.id));
    expect(fromLisbon.map((f) => f.object).sort()).toEqual(['Lisbon', 'loves']);
    const summaryWithIt = summaries.find((x) => x.level === 'batch' && x.sourceMessageIds.includes(lisbon.id))!;
    expect(summaryWithIt).toBeDefined();
    // The synopsis covers the turn through the synopsis it replaced: it names only its last fold's turns.
    const synopsis = summaries.find((x) => x.level === 'synopsis')!;
    expect(synopsis.toSeq).toBeGreaterThan(lisbon.seq);
    expect(synopsis.sourceMessageIds).not.toContain(lisbon.id);

    await memory.forget({ messageIds: [lisbon.id] });
    await memory.flush();
    const after = await store.summaries({ sessionId: s.id });
    expect(after.some((x) => x.sourceMessageIds.includes(lisbon.id))).toBe(false);
    expect(after.some((x) => x.id === synopsis.id)).toBe(false);
    expect(
      after
        .filter((x) => x.level === 'synopsis')
        .map((x) => x.text)
        .join(' '),
    ).not.toMatch(/Lisbon/);
    const rederived = after.find((x) => x.level === 'batch' && x.fromSeq <= lisbon.seq && x.toSeq >= lisbon.seq);
    expect(rederived?.sourceMessageIds.sort()).toEqual(summaryWithIt.sourceMessageIds.filter((id) => id !== lisbon.id).sort());
    expect(await store.facts({ sourceMessageIds: [lisbon.id], includeSuperseded: true })).toEqual([]);
    expect(await store.messages({ ids: [lisbon.id] })).toEqual([]);
    const kbIds = [lisbon.id, summaryWithIt.id, ...fromLisbon.map((f) => f.id)];
    for (const id of kbIds) expect(await knowledge.delete({ ids: [id] })).toBe(0);
    const hits = await memory.search({ namespace: 'n', query: 'Lisbon surfing', k: 20 });
    expect(hits.filter((h) => h.text.includes('Lisbon'))).toEqual([]);
    await memory.close();
  });

  it('6. the knowledge base is an index: rebuilt from the store, it answers as before', async () => {
    // vector ranking on, so that what the KB holds shows in search (the hashing default leaves it out)
    const { memory, knowledge } = await createTestMemory({ policy: { immediate: { maxMessages: 6, minMessages: 2 }, working: { batchMessages: 3, maxSummaries: 3 }, context: { vectorWeight: 1 } } });
    const s = await memory.sessions.create({ namespace: 'n' });
    for (const m of chat(24)) await memory.append(s.id, m);
    await memory.flush();
    const queries = ['where do I live', 'surfing', 'topic 5 discussed', 'turn 17'];
    const search = () => Promise.all(queries.map((query) => memory.search({ namespace: 'n', query, k: 8 })));
    const before = await search();
    const count = await knowledge.count({});
    expect(count).toBeGreaterThan(24);
    await knowledge.delete({ filter: {} });
    expect(await knowledge.count({})).toBe(0);
    expect(await search()).not.toEqual(before);
    const report = await memory.reindex();
    expect(report.turns).toBe(24);
    expect(await knowledge.count({})).toBe(count);
    expect(await search()).toEqual(before);
    await memory.close();
  });
});

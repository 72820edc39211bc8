import { describe, expect, it } from 'vitest';
import { createInMemorySessionStore } from '../src/adapters/in-memory/in-memory-session-store.js';
import { createInMemoryKnowledgeBase } from '../src/adapters/knowledge/in-memory-knowledge-base.js';
import { createInlineJobQueue } from '../src/adapters/queues/inline-job-queue.js';
import { policySchema } from '../src/config/policy.js';
import type { DeriveResult } from '../src/domain/jobs.js';
import { jobKey } from '../src/engine/ids.js';
import { ExtractiveSummarizer } from '../src/models/summaries/extractive-summarizer.js';
import { HashingEmbeddings } from '../src/models/embeddings/hashing-embeddings.js';
import { HeuristicFactExtractor } from '../src/models/facts/heuristic-fact-extractor.js';
import { CharTokenCounter } from '../src/models/tokens/char-token-counter.js';
import { LinearThreadSelector } from '../src/models/threads/linear-thread-selector.js';
import type { MemoryDeps } from '../src/services/deps.js';
import { attachIngested } from '../src/services/topics/topic-attach.js';

async function depsWithTurns() {
  const store = await createInMemorySessionStore();
  const tokens = new CharTokenCounter();
  const deps: MemoryDeps = {
    store,
    lexical: store,
    topics: store,
    threads: new LinearThreadSelector(),
    knowledge: await createInMemoryKnowledgeBase(),
    queue: await createInlineJobQueue(),
    summarizer: new ExtractiveSummarizer({ tokens }),
    extractor: new HeuristicFactExtractor(),
    embeddings: new HashingEmbeddings(),
    tokens,
    clock: { now: () => 5_000 },
    policy: policySchema.parse({}),
    reportError: (event) => {
      throw event.error;
    },
  };
  const now = 1_000;
  await store.write({
    ops: [
      { type: 'putSession', session: { id: 's1', namespace: 'ns', metadata: {}, createdAt: now, updatedAt: now, lastSeq: 0 } },
      {
        type: 'appendMessages',
        sessionId: 's1',
        messages: [
          { id: 'm1', role: 'user', content: 'Berlin bike lanes for cycling?', createdAt: now, metadata: {} },
          { id: 'm2', role: 'assistant', content: 'Berlin has good bike lanes.', createdAt: now + 1, metadata: {} },
        ],
      },
    ],
  });
  const vectors = await deps.embeddings.embedDocuments(['Berlin bike lanes for cycling?', 'Berlin has good bike lanes.']);
  const result: DeriveResult = {
    job: { key: jobKey('ingest', 's1', 1, 2), type: 'ingest', sessionId: 's1', namespace: 'ns', fromSeq: 1, toSeq: 2 },
    turnVectors: [
      { id: 'm1', vector: vectors[0] ?? [] },
      { id: 'm2', vector: vectors[1] ?? [] },
    ],
    facts: [],
    degraded: false,
  };
  return { deps, store, result };
}

describe('attachIngested', () => {
  it('is idempotent: a replayed ingest result changes no topic or link', async () => {
    const { deps, store, result } = await depsWithTurns();
    await attachIngested(deps, result);
    const once = { topics: await store.topics({}), links: await store.links({}) };
    expect(once.links.map((l) => [l.messageId, l.parentId])).toEqual([
      ['m1', null],
      ['m2', 'm1'],
    ]);
    expect(once.topics).toHaveLength(1);
    expect(once.topics[0]?.vectorCount).toBe(2);
    await attachIngested(deps, result);
    expect({ topics: await store.topics({}), links: await store.links({}) }).toEqual(once);
  });

  it('ignores re-derivation results (their turns are linked already)', async () => {
    const { deps, store, result } = await depsWithTurns();
    await attachIngested(deps, { ...result, job: { ...result.job, rederive: { markerKey: 'k' } } } as DeriveResult);
    expect(await store.links({})).toEqual([]);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { createInlineJobQueue, createInMemorySessionStore, createMemory, HashingEmbeddings } from '@strata/core';
import type { KnowledgeBase, SessionStore } from '@strata/core';
import { createChromaKnowledgeBase } from '../src/index.js';
import type { Collection } from 'chromadb';
import { adminClient, CHROMA_URL, chromaUnavailable, dropCollections, uniquePrefix } from './chroma-server.js';

const unavailable = await chromaUnavailable();

const RUN = uniquePrefix();
let serial = 0;
const embeddings = new HashingEmbeddings({ dimensions: 64 });

async function chromaKb(collectionPrefix: string): Promise<KnowledgeBase> {
  return createChromaKnowledgeBase({ url: CHROMA_URL, collectionPrefix, embeddingModel: embeddings.modelName, dimensions: embeddings.dimensions });
}

/** Lexical search comes from the store, vectors from Chroma. */
async function openMemory(store: SessionStore, knowledge: KnowledgeBase) {
  return createMemory({
    store,
    knowledge,
    embeddings,
    queue: await createInlineJobQueue(),
    // vector ranking on: what a Chroma knowledge base is for (turns are embedded only then)
    policy: { immediate: { maxMessages: 6, minMessages: 2 }, working: { batchMessages: 3, maxSummaries: 3 }, context: { vectorWeight: 1 } },
  });
}

async function converse(memory: Awaited<ReturnType<typeof openMemory>>): Promise<void> {
  const session = await memory.sessions.create({ namespace: 'u1', title: 'Planning' });
  await memory.append(session.id, { role: 'user', content: 'I live in Paris.', createdAt: '2026-10-01T09:00:00Z' });
  for (let i = 0; i < 14; i++) {
    await memory.append(session.id, { role: i % 2 ? 'assistant' : 'user', content: `Trip planning note ${i} about the Kyoto temples.` });
  }
  await memory.append(session.id, { role: 'user', content: 'I moved to Berlin.', createdAt: '2026-11-01T09:00:00Z' });
  await memory.flush();
}

const QUERIES = ['Kyoto temples', 'where do I live', 'moved to Berlin'];

/** A memory on a fresh Chroma collection after the conversation, with that collection as Chroma holds it. */
async function withConversation(run: (memory: Awaited<ReturnType<typeof openMemory>>, knowledge: KnowledgeBase, stored: Collection) => Promise<void>): Promise<void> {
  const collectionPrefix = `${RUN}-${++serial}`;
  const knowledge = await chromaKb(collectionPrefix);
  const memory = await openMemory(await createInMemorySessionStore(), knowledge);
  try {
    await converse(memory);
    await run(memory, knowledge, await adminClient().getCollection({ name: `${collectionPrefix}__strata-hashing-v1__64` }));
  } finally {
    await memory.close();
  }
}

if (unavailable === null) {
  afterAll(() => dropCollections(RUN));

  describe('a memory with a Chroma knowledge base', () => {
    it('indexes turns, summaries and facts in Chroma and answers search with them', async () => {
      await withConversation(async (memory, knowledge, stored) => {
        expect(await stored.count()).toBe(await knowledge.count({}));
        expect(await knowledge.count({ namespace: 'u1', kinds: ['fact'] })).toBeGreaterThan(0);
        expect(await knowledge.count({ namespace: 'u1', kinds: ['turn'] })).toBe(16);
        const hits = await memory.search({ namespace: 'u1', query: 'where do I live', k: 8 });
        expect(hits.some((hit) => hit.kind === 'fact' && /Berlin/.test(hit.text))).toBe(true);
        const turns = await memory.search({ namespace: 'u1', query: 'Kyoto temples', k: 3, kinds: ['turn'] });
        expect(turns.map((hit) => hit.kind)).toEqual(['turn', 'turn', 'turn']);
        expect(turns.every((hit) => /Kyoto temples/.test(hit.text))).toBe(true);
      });
    });

    it('holds no text, and forget leaves nothing of the forgotten turns and what came from them in Chroma', async () => {
      await withConversation(async (memory, _knowledge, stored) => {
        const everything = await stored.get({ include: ['documents', 'metadatas'] });
        expect(everything.ids.length).toBeGreaterThan(0);
        // Chroma gets ids, vectors and filter fields only: no text it would have to forget
        expect(everything.documents.every((d) => d === null)).toBe(true);
        expect(JSON.stringify(everything.metadatas)).not.toMatch(/Kyoto|Berlin|Paris/);
        const [session] = await memory.sessions.list({ namespace: 'u1' });
        const turns = await memory.messages(session?.id ?? '');
        const berlin = turns.find((m) => m.content === 'I moved to Berlin.');
        const report = await memory.forget({ messageIds: [berlin?.id ?? ''] });
        expect(report.facts).toBeGreaterThan(0);
        expect((await stored.get({ ids: [berlin?.id ?? ''] })).ids).toEqual([]);
        await memory.forget({ sessionId: session?.id ?? '' });
        expect((await stored.get({ where: { sessionId: session?.id ?? '' } })).ids).toEqual([]);
        const left = await stored.get({ ids: turns.map((m) => m.id) });
        expect(left.ids).toEqual([]);
      });
    });

    it('reindex fills a fresh collection to the same count and the same search results', async () => {
      const store = await createInMemorySessionStore();
      const original = await chromaKb(`${RUN}-${++serial}`);
      const first = await openMemory(store, original);
      const fresh = await chromaKb(`${RUN}-${++serial}`);
      // Same store, new collection: what a switch to another Chroma collection (or model) looks like.
      const second = await openMemory(store, fresh);
      try {
        await converse(first);
        const search = (memory: typeof first) => Promise.all(QUERIES.map((query) => memory.search({ namespace: 'u1', query, k: 5 })));
        const before = await search(first);
        expect(await fresh.count({})).toBe(0);
        await second.reindex();
        expect(await fresh.count({})).toBe(await original.count({}));
        expect(await search(second)).toEqual(before);
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
} else {
  describe.skip(`kb-chroma: ${unavailable}`, () => {
    it('a memory with a Chroma knowledge base', () => {});
  });
}

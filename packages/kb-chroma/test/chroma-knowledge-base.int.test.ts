import { afterAll, describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import type { KnowledgeBase, KnowledgeEntry } from '@strata/core';
import { createChromaKnowledgeBase } from '../src/index.js';
import type { ChromaKnowledgeBaseOptions } from '../src/index.js';
import { toStrataError } from '../src/to-strata-error.js';
import { adminClient, CHROMA_URL, chromaUnavailable, dropCollections, uniquePrefix } from './chroma-server.js';

const unavailable = await chromaUnavailable();

/** Every collection these tests create starts with this prefix, and goes in afterAll. */
const RUN = uniquePrefix();
let serial = 0;
const prefix = (): string => `${RUN}-${++serial}`;

const open: KnowledgeBase[] = [];
async function openKb(options: Partial<ChromaKnowledgeBaseOptions> = {}): Promise<KnowledgeBase> {
  const kb = await createChromaKnowledgeBase({ url: CHROMA_URL, collectionPrefix: prefix(), embeddingModel: 'model-a', dimensions: 4, ...options });
  open.push(kb);
  return kb;
}

const axis = (i: number, dimensions = 4): number[] => Array.from({ length: dimensions }, (_, d) => (d === i ? 1 : 0));
const entry = (id: string, vector: number[], overrides: Partial<KnowledgeEntry> = {}): KnowledgeEntry => ({
  id,
  namespace: 'ns',
  kind: 'fact',
  sessionId: null,
  vector,
  current: true,
  createdAt: 1_700_000_000_000,
  ...overrides,
});
const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
const collectionNames = async (): Promise<string[]> => (await adminClient().listCollections({ limit: 1000 })).map((c) => c.name);

if (unavailable === null) {
  afterAll(async () => {
    await Promise.all(open.map((kb) => kb.close()));
    await dropCollections(RUN);
  });

  describe('ChromaKnowledgeBase collections', () => {
    it('names the collection after the model and dimension, in cosine space', async () => {
      const collectionPrefix = prefix();
      await openKb({ collectionPrefix, embeddingModel: 'strata-hashing-v1', dimensions: 8 });
      const collection = await adminClient().getCollection({ name: `${collectionPrefix}__strata-hashing-v1__8` });
      expect(collection.configuration.hnsw?.space).toBe('cosine');
      expect(collection.metadata).toMatchObject({ 'strata:embeddingModel': 'strata-hashing-v1', 'strata:dimensions': 8 });
    });

    it('keeps two models in two collections that never see each other', async () => {
      const collectionPrefix = prefix();
      const a = await openKb({ collectionPrefix, embeddingModel: 'model-a' });
      const b = await openKb({ collectionPrefix, embeddingModel: 'model-b' });
      await a.upsert([entry('from-a', axis(0))]);
      await b.upsert([entry('from-b', axis(1))]);
      expect((await a.query({ vector: axis(1), k: 5, filter: { namespace: 'ns' } })).map((m) => m.id)).toEqual(['from-a']);
      expect((await b.query({ vector: axis(0), k: 5, filter: { namespace: 'ns' } })).map((m) => m.id)).toEqual(['from-b']);
      expect(await collectionNames()).toEqual(expect.arrayContaining([`${collectionPrefix}__model-a__4`, `${collectionPrefix}__model-b__4`]));
    });

    it('finds the vectors again when the same model reopens: the server keeps them', async () => {
      const options = { collectionPrefix: prefix() };
      const first = await openKb(options);
      await first.upsert([entry('kept', axis(2), { sessionId: 's1', kind: 'turn' }), entry('other', axis(3))]);
      await first.close();
      const second = await openKb(options);
      expect(await second.count({})).toBe(2);
      const [best] = await second.query({ vector: axis(2), k: 1, filter: { namespace: 'ns' } });
      expect(best).toMatchObject({ id: 'kept', kind: 'turn', sessionId: 's1' });
      expect(best?.score).toBeCloseTo(1, 4);
    });

    it('refuses a collection built by another model or dimension (explicit collection name)', async () => {
      const collection = `${prefix()}-shared`;
      const kb = await openKb({ collection, embeddingModel: 'model-a', dimensions: 4 });
      await kb.upsert([entry('a', axis(0))]);
      for (const options of [{ embeddingModel: 'model-b' }, { dimensions: 8 }]) {
        const error = await rejection(openKb({ collection, ...options }));
        expect(StrataError.is(error, 'CONFIG_INVALID')).toBe(true);
        expect((error as StrataError).message).toContain(collection);
      }
    });

    it('checks the stored dimension and the distance of a collection strata did not create', async () => {
      const client = adminClient();
      const foreign = await client.createCollection({ name: `${prefix()}-foreign`, embeddingFunction: null, configuration: { hnsw: { space: 'cosine' } } });
      await foreign.add({ ids: ['x'], embeddings: [axis(0)] });
      expect(StrataError.is(await rejection(openKb({ collection: foreign.name, dimensions: 8 })), 'CONFIG_INVALID')).toBe(true);
      const l2 = await client.createCollection({ name: `${prefix()}-l2`, embeddingFunction: null, configuration: { hnsw: { space: 'l2' } } });
      const error = await rejection(openKb({ collection: l2.name }));
      expect(StrataError.is(error, 'CONFIG_INVALID')).toBe(true);
      expect((error as StrataError).message).toMatch(/l2 distance, not cosine/);
    });
  });

  describe('ChromaKnowledgeBase requests', () => {
    it('refuses vectors of another dimension with CONFIG_INVALID before sending them', async () => {
      const kb = await openKb();
      for (const call of [kb.upsert([entry('short', [1, 0, 0])]), kb.query({ vector: [1, 0], k: 1, filter: { namespace: 'ns' } })]) {
        expect(StrataError.is(await rejection(call), 'CONFIG_INVALID')).toBe(true);
      }
      expect(await kb.count({})).toBe(0);
    });

    it("maps Chroma's own dimension error to CONFIG_INVALID", async () => {
      const collection = await adminClient().createCollection({ name: `${prefix()}-raw`, embeddingFunction: null });
      await collection.add({ ids: ['x'], embeddings: [axis(0)] });
      const raw = await rejection(collection.add({ ids: ['y'], embeddings: [[1, 0]] }));
      const mapped = toStrataError(raw, { url: CHROMA_URL, collection: collection.name });
      expect(mapped).toMatchObject({ code: 'CONFIG_INVALID', cause: raw });
      expect(mapped.message).toContain('holds 4-dimensional vectors; got a 2-dimensional one');
    });

    it('upserts, counts and deletes past one request and one page of ids', async () => {
      const kb = await openKb();
      const entries = Array.from({ length: 10_500 }, (_, i) => entry(`e${i}`, axis(i % 4), { sessionId: `s${i % 3}`, current: i % 2 === 0 }));
      await kb.upsert(entries);
      expect(await kb.count({})).toBe(10_500);
      expect(await kb.count({ namespace: 'ns', currentOnly: true })).toBe(5250);
      expect(await kb.delete({ filter: { sessionId: 's0' } })).toBe(3500);
      expect(await kb.delete({ ids: ['e1', 'e2', 'e3', 'ghost', 'e1'] })).toBe(2);
      expect(await kb.count({ namespace: 'ns' })).toBe(6998);
    });

    it('throws CLOSED after close, and close is idempotent', async () => {
      const kb = await openKb();
      await kb.close();
      await expect(kb.close()).resolves.toBeUndefined();
      expect(StrataError.is(await rejection(kb.count({})), 'CLOSED')).toBe(true);
    });
  });
} else {
  describe.skip(`kb-chroma: ${unavailable}`, () => {
    it('ChromaKnowledgeBase on a server', () => {});
  });
}

import { ChromaClient } from 'chromadb';
import type { Collection } from 'chromadb';
import { REINDEX_HINT, StrataError } from '@strata/core';
import { ChromaRecords } from './chroma-records.js';
import type { ChromaSettings } from './chroma-options.js';

/** Recorded on the collection when strata creates it, and checked whenever it is opened. */
const MODEL_KEY = 'strata:embeddingModel';
const DIMENSIONS_KEY = 'strata:dimensions';

/** Requests carrying records stay below this even when the server allows more: bodies stay a few MB. */
const MAX_CHUNK = 1000;

/**
 * Connects (heartbeat first, so an absent server fails fast with a clear error), then gets or
 * creates the collection: no embedding function (strata embeds), cosine space. A collection
 * that exists already keeps its configuration, so it is checked against the options.
 */
export async function openCollection(settings: ChromaSettings): Promise<ChromaRecords> {
  const client = new ChromaClient(settings.client);
  await client.heartbeat();
  const collection = await client.getOrCreateCollection({
    name: settings.collection,
    embeddingFunction: null,
    configuration: { hnsw: { space: 'cosine' } },
    metadata: { [MODEL_KEY]: settings.embeddingModel, [DIMENSIONS_KEY]: settings.dimensions },
  });
  assertCosine(collection, settings);
  const records = new ChromaRecords(collection, Math.min(MAX_CHUNK, await client.getMaxBatchSize()));
  await assertSameModel(collection, records, settings);
  return records;
}

/** Scores are 1 - distance: only right when the distance is cosine. */
function assertCosine(collection: Collection, settings: ChromaSettings): void {
  const { hnsw, spann } = collection.configuration;
  const space = hnsw?.space ?? spann?.space ?? null;
  if (space === 'cosine') return;
  throw new StrataError('CONFIG_INVALID', `Chroma collection "${settings.collection}" uses the ${String(space)} distance, not cosine.`, {
    hint: 'Point the knowledge base at a collection strata created (omit options.collection), or recreate this one with cosine space.',
  });
}

/**
 * Refuses a collection built by another model or dimension (possible with options.collection,
 * or a name that collides after sanitising): its vectors and the new ones would not compare.
 */
async function assertSameModel(collection: Collection, records: ChromaRecords, settings: ChromaSettings): Promise<void> {
  const model = collection.metadata?.[MODEL_KEY];
  if (typeof model === 'string' && model !== settings.embeddingModel) {
    const message = `Chroma collection "${settings.collection}" holds vectors of embeddings model "${model}"; options.embeddingModel is "${settings.embeddingModel}".`;
    throw new StrataError('CONFIG_INVALID', message, { hint: REINDEX_HINT });
  }
  const recorded = collection.metadata?.[DIMENSIONS_KEY];
  const stored = typeof recorded === 'number' ? recorded : await records.storedDimensions();
  if (stored !== null && stored !== settings.dimensions) {
    const message = `Chroma collection "${settings.collection}" holds ${stored}-dimensional vectors; options.dimensions is ${settings.dimensions}.`;
    throw new StrataError('CONFIG_INVALID', message, { hint: REINDEX_HINT });
  }
}

import { Embeddings } from '@langchain/core/embeddings';
import { InMemoryStore, type BaseStore } from '@langchain/langgraph';
import { createInMemoryKnowledgeBase, createInMemorySessionStore, createInProcessJobQueue, createMemory, HashingEmbeddings, type Memory } from '@strata/core';
import { StrataStore } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';
import { describeStoreBehaviour } from './describe-store-behaviour.js';

/**
 * strata's offline embeddings as LangChain embeddings, so that InMemoryStore ranks queries
 * (without an index it ignores them): deterministic, no model, texts sharing words are close.
 */
class HashingLangChainEmbeddings extends Embeddings {
  private readonly hashing = new HashingEmbeddings({ dimensions: 256 });
  constructor() {
    super({});
  }
  embedDocuments(texts: string[]): Promise<number[][]> {
    return this.hashing.embedDocuments(texts);
  }
  embedQuery(text: string): Promise<number[]> {
    return this.hashing.embedQuery(text);
  }
}

describeStoreBehaviour("LangGraph's InMemoryStore", {
  create: async () => new InMemoryStore({ index: { dims: 256, embeddings: new HashingLangChainEmbeddings() } }),
});

const memories = new WeakMap<StrataStore, Memory>();
const strataStoreOver = (createOne: () => Promise<Memory>) => ({
  create: async () => {
    const memory = await createOne();
    const store = new StrataStore({ memory, namespace: 'langgraph-store' });
    memories.set(store, memory);
    return store;
  },
  destroy: async (store: BaseStore) => memories.get(store as StrataStore)?.close(),
});

describeStoreBehaviour(
  'StrataStore',
  strataStoreOver(async () => (await createTestMemory()).memory),
);

// the default policy, the real clock, derivation in the background while the store is used
describeStoreBehaviour(
  'StrataStore (background derivation)',
  strataStoreOver(async () => createMemory({ store: await createInMemorySessionStore(), knowledge: await createInMemoryKnowledgeBase(), queue: await createInProcessJobQueue() })),
);

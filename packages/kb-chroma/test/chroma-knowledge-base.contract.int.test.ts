import { describe, it } from 'vitest';
import type { KnowledgeBase } from '@strata/core';
import { describeKnowledgeBaseContract } from '@strata/testkit';
import { createChromaKnowledgeBase } from '../src/index.js';
import { CHROMA_URL, chromaUnavailable, dropCollections, uniquePrefix } from './chroma-server.js';

const unavailable = await chromaUnavailable();

// Each test gets its own collection (its own prefix), dropped in destroy.
const prefixes = new Map<KnowledgeBase, string>();

if (unavailable === null) {
  describeKnowledgeBaseContract(`ChromaKnowledgeBase (${CHROMA_URL})`, {
    create: async ({ dimensions }) => {
      const prefix = uniquePrefix();
      const kb = await createChromaKnowledgeBase({ url: CHROMA_URL, collectionPrefix: prefix, embeddingModel: 'contract', dimensions });
      prefixes.set(kb, prefix);
      return kb;
    },
    destroy: async (kb) => {
      const prefix = prefixes.get(kb);
      prefixes.delete(kb);
      if (prefix !== undefined) await dropCollections(prefix);
    },
  });
} else {
  describe.skip(`kb-chroma: ${unavailable}`, () => {
    it('KnowledgeBase contract', () => {});
  });
}

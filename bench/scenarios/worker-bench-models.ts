import { ExtractiveSummarizer, HashingEmbeddings, ObservationFactExtractor, TiktokenTokenCounter } from '@strata/core';
import type { DeriveModels } from '@strata/core';

export const BENCH_DIMENSIONS = 64;

/** Models that answer at once: the bench measures the queue, not a model. */
export function instantModels(): Omit<DeriveModels, 'policy'> {
  const vector = Array.from({ length: BENCH_DIMENSIONS }, (_, i) => (i === 0 ? 1 : 0));
  const embeddings = new HashingEmbeddings({ dimensions: BENCH_DIMENSIONS });
  embeddings.embedQuery = async () => vector;
  embeddings.embedDocuments = async (texts) => texts.map(() => vector);
  return {
    summarizer: { name: 'instant', summarize: async () => ({ text: 'summary' }), consolidate: async () => ({ text: 'synopsis' }) },
    extractor: { name: 'instant', extract: async () => [] },
    embeddings,
  };
}

/** The offline defaults, as the app under test builds them (same embeddings dimension). */
export function offlineModels(): Omit<DeriveModels, 'policy'> {
  return {
    summarizer: new ExtractiveSummarizer({ tokens: new TiktokenTokenCounter() }),
    extractor: new ObservationFactExtractor(),
    embeddings: new HashingEmbeddings({ dimensions: BENCH_DIMENSIONS }),
  };
}

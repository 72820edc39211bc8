import { policySchema, type PolicyInput } from '../../config/policy.js';
import type { DeriveModels } from './derive.js';
import { ExtractiveSummarizer } from '../../models/summaries/extractive-summarizer.js';
import { HashingEmbeddings } from '../../models/embeddings/hashing-embeddings.js';
import { ObservationFactExtractor } from '../../models/facts/observation-fact-extractor.js';
import { TiktokenTokenCounter } from '../../models/tokens/tiktoken-token-counter.js';

/**
 * The models `createMemory` uses by default (extractive summarizer, observation fact
 * extractor, hashing embeddings, o200k token counting), for deriving where no memory lives:
 * a worker thread or a worker process. Offline models have no fallback (they never degrade).
 * @example
 * const models = createOfflineDeriveModels({ working: { summaryMaxTokens: 200 } });
 * const result = await deriveJob(job, models);
 */
export function createOfflineDeriveModels(policy: PolicyInput = {}): DeriveModels {
  const tokens = new TiktokenTokenCounter();
  return {
    summarizer: new ExtractiveSummarizer({ tokens }),
    extractor: new ObservationFactExtractor(),
    embeddings: new HashingEmbeddings(),
    policy: policySchema.parse(policy),
  };
}

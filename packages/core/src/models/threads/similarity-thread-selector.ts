import { z } from 'zod';
import { parseWith } from '../../config/parse.js';
import { cosineSimilarity } from '../../shared/vectors.js';
import type { ThreadRequest, ThreadSelector } from '../../ports/thread-selector.js';

const optionsSchema = z.object({
  /** A turn follows the reply of the most similar topic at or above this cosine similarity. @defaultValue 0.3 */
  minSimilarity: z.number().min(-1).max(1).default(0.3),
});

/**
 * Options of {@link SimilarityThreadSelector}: `minSimilarity` (-1 to 1, default 0.3), the
 * cosine similarity a topic must reach to take the turn; other values throw CONFIG_INVALID.
 */
export type SimilarityThreadSelectorOptions = z.input<typeof optionsSchema>;

/**
 * Attaches a user turn to the newest reply of the topic whose centroid is most similar to the
 * turn's vector (the ingestion vector: nothing is embedded again); linear when none reaches
 * `minSimilarity`. A return to an earlier topic thus branches the tree.
 * @example
 * const memory = await createMemory({ threadSelector: new SimilarityThreadSelector({ minSimilarity: 0.35 }) });
 */
export class SimilarityThreadSelector implements ThreadSelector {
  private readonly minSimilarity: number;

  constructor(options: SimilarityThreadSelectorOptions = {}) {
    this.minSimilarity = parseWith(optionsSchema, options, 'SimilarityThreadSelector options', 'Pass { minSimilarity?: number between -1 and 1 }.', 'CONFIG_INVALID').minSimilarity;
  }

  async selectParents(requests: ThreadRequest[]): Promise<(string | null)[]> {
    return requests.map(({ vector, candidates }) => {
      let best: { id: string; score: number } | null = null;
      for (const candidate of candidates) {
        const score = cosineSimilarity(vector, candidate.vector);
        if (score >= this.minSimilarity && (best === null || score > best.score)) best = { id: candidate.messageId, score };
      }
      return best?.id ?? null;
    });
  }
}

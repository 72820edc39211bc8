import { analyzeText } from '../../lexical/analyze.js';
import type { Embedder } from '../../ports/models.js';

/**
 * Options of {@link HashingEmbeddings}. A knowledge base built with other `dimensions` rejects
 * its vectors (CONFIG_INVALID) until rebuilt with `memory.reindex()`.
 */
export interface HashingEmbeddingsOptions {
  /**
   * Length of every vector.
   * @defaultValue 256
   */
  dimensions?: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const BIGRAM_WEIGHT = 0.5;
const utf8 = new TextEncoder();

/** FNV-1a over the UTF-8 bytes, so the same term hashes the same on every runtime. */
function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (const byte of utf8.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

function countTerms(text: string): Map<string, number> {
  const terms = analyzeText(text);
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  // Bigrams carry some word order; a space cannot occur inside a term, so no collision with unigrams.
  for (let i = 1; i < terms.length; i++) {
    const bigram = `${terms[i - 1] ?? ''} ${terms[i] ?? ''}`;
    counts.set(bigram, (counts.get(bigram) ?? 0) + 1);
  }
  return counts;
}

/**
 * Offline, deterministic embeddings by feature hashing over strata's lexical terms (the
 * same stemming and stop words as the BM25 index) plus adjacent-term bigrams. No model, no
 * network: texts that share words are close, paraphrases with different words are not.
 * Good enough for tests, demos and the embedded default; swap in a real model for quality.
 *
 * @example
 * const embeddings = new HashingEmbeddings({ dimensions: 256 });
 * const vector = await embeddings.embedQuery('Where do I live?');
 */
export class HashingEmbeddings implements Embedder {
  readonly modelName = 'strata-hashing-v1';
  readonly dimensions: number;

  constructor(options: HashingEmbeddingsOptions = {}) {
    this.dimensions = options.dimensions ?? 256;
  }

  /** One vector per text, in input order. */
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embed(text));
  }

  /** The same vector `embedDocuments` gives the text: unit length, or all zeros without an indexable term. */
  async embedQuery(text: string): Promise<number[]> {
    return this.embed(text);
  }

  /** Text without any indexable term yields the all-zero vector. */
  private embed(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const [feature, tf] of countTerms(text)) {
      const hash = fnv1a(feature);
      const index = hash % this.dimensions;
      // The top bit chooses the sign so that colliding features cancel out on average.
      const sign = hash >>> 31 === 1 ? -1 : 1;
      const weight = (1 + Math.log(tf)) * (feature.includes(' ') ? BIGRAM_WEIGHT : 1);
      vector[index] = (vector[index] ?? 0) + sign * weight;
    }
    const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
    return norm === 0 ? vector : vector.map((value) => value / norm);
  }
}

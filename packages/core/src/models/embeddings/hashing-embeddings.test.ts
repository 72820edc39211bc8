import { describe, expect, it } from 'vitest';
import { HashingEmbeddings } from './hashing-embeddings.js';

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
}

function norm(vector: number[]): number {
  return Math.sqrt(cosine(vector, vector));
}

describe('HashingEmbeddings', () => {
  const embeddings = new HashingEmbeddings();

  it('names itself and defaults to 256 dimensions', () => {
    expect(embeddings.modelName).toBe('strata-hashing-v1');
    expect(embeddings.dimensions).toBe(256);
  });

  it.each([
    [undefined, 256],
    [64, 64],
    [1024, 1024],
  ])('dimensions %j -> vectors of length %j', async (dimensions, length) => {
    const model = new HashingEmbeddings(dimensions === undefined ? {} : { dimensions });
    expect(await model.embedQuery('I live in Berlin')).toHaveLength(length);
  });

  it('is deterministic across instances and between query and document', async () => {
    const other = new HashingEmbeddings();
    const [document] = await embeddings.embedDocuments(['My sister Anna lives in Rome.']);
    expect(await other.embedQuery('My sister Anna lives in Rome.')).toEqual(document);
  });

  it.each(['I live in Berlin', 'jazz', 'The quick brown fox jumps over the lazy dog, twice! 42'])('%j has unit norm', async (text) => {
    expect(norm(await embeddings.embedQuery(text))).toBeCloseTo(1, 10);
  });

  it.each(['', '   ', 'the and of to', 'I am what I am'])('%j -> all zeros', async (text) => {
    expect(await embeddings.embedQuery(text)).toEqual(new Array(256).fill(0));
  });

  it.each([
    ['I live in Berlin', 'Where do I live? Berlin?', 'I love jazz and hiking'],
    ['My dog Rex loves the park', 'Rex the dog goes to the park', 'My dentist appointment is on Tuesday'],
    ['I work as a nurse at the hospital', 'nursing job at a hospital', 'we are flying to Tokyo'],
  ])('%j is closer to %j than to %j', async (anchor, related, unrelated) => {
    const [a, r, u] = await embeddings.embedDocuments([anchor, related, unrelated]);
    expect(cosine(a ?? [], r ?? [])).toBeGreaterThan(cosine(a ?? [], u ?? []) + 0.3);
  });

  it('returns one vector per document in order', async () => {
    const vectors = await embeddings.embedDocuments(['a cat', 'a dog', 'a cat']);
    expect(vectors).toHaveLength(3);
    expect(vectors[0]).toEqual(vectors[2]);
    expect(vectors[0]).not.toEqual(vectors[1]);
  });
});

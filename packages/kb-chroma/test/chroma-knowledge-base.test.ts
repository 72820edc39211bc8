import { describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import { collectionNameFor, createChromaKnowledgeBase } from '../src/index.js';
import type { ChromaKnowledgeBaseOptions } from '../src/index.js';
import { isValidCollectionName } from '../src/collection-name.js';
import { toStrataError } from '../src/to-strata-error.js';

// No server needed: options are refused before any request, and port 1 never answers.

const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
const base = { url: 'http://127.0.0.1:1', embeddingModel: 'm', dimensions: 8 };

describe('createChromaKnowledgeBase options', () => {
  const bad: [string, unknown][] = [
    ['no embeddingModel', { url: base.url, dimensions: 8 }],
    ['no dimensions', { url: base.url, embeddingModel: 'm' }],
    ['dimensions 0', { ...base, dimensions: 0 }],
    ['fractional dimensions', { ...base, dimensions: 2.5 }],
    ['url and host', { ...base, host: 'localhost' }],
    ['a url that is not http', { ...base, url: 'redis://127.0.0.1:6379' }],
    ['a url with a path', { ...base, url: 'http://127.0.0.1:8000/chroma' }],
    ['port out of range', { host: 'localhost', port: 70_000, embeddingModel: 'm', dimensions: 8 }],
    ['an unknown option', { ...base, colection: 'typo' }],
    ['an invalid collection name', { ...base, collection: 'a' }],
    ['a collection name with ".."', { ...base, collection: 'abc..def' }],
    ['an empty prefix', { ...base, collectionPrefix: '' }],
  ];
  it.each(bad)('refuses %s with CONFIG_INVALID before connecting', async (_title, options) => {
    const error = await rejection(createChromaKnowledgeBase(options as ChromaKnowledgeBaseOptions));
    expect(StrataError.is(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as StrataError).message).toMatch(/options are invalid/);
  });

  it('reports an unreachable server as BACKEND_UNAVAILABLE naming its URL, with how to start one', async () => {
    const error = await rejection(createChromaKnowledgeBase(base));
    expect(StrataError.is(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((error as StrataError).message).toContain('http://127.0.0.1:1');
    expect((error as StrataError).hint).toContain('scripts/services.sh up');
    expect((error as StrataError).retryable).toBe(true);
    expect((error as StrataError).cause).toBeInstanceOf(Error);
  });

  it('names the server the same way from host / port / ssl, and accepts a trailing slash', async () => {
    for (const options of [{ host: '127.0.0.1', port: 1 }, { url: 'http://127.0.0.1:1/' }]) {
      const error = await rejection(createChromaKnowledgeBase({ ...options, embeddingModel: 'm', dimensions: 8 }));
      expect((error as StrataError).message).toContain('http://127.0.0.1:1 ');
    }
  });
});

describe('collectionNameFor', () => {
  it('joins prefix, model and dimensions', () => {
    expect(collectionNameFor('strata', 'strata-hashing-v1', 256)).toBe('strata__strata-hashing-v1__256');
    expect(collectionNameFor('strata', 'text-embedding-3-small', 1536)).toBe('strata__text-embedding-3-small__1536');
  });

  it('makes any model name valid for Chroma, and keeps sanitised names apart', () => {
    const names = ['nomic-ai/nomic-embed-text:v1.5', 'nomic-ai:nomic-embed-text/v1.5', 'a b', 'a_b', '..', 'm'.repeat(600)].map((model) => collectionNameFor('strata', model, 768));
    for (const name of names) expect(isValidCollectionName(name), name).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    expect(names[0]).toMatch(/^strata__nomic-ai-nomic-embed-text-v1\.5-[0-9a-f]{8}__768$/);
  });

  it('gives another dimension another collection', () => {
    expect(collectionNameFor('strata', 'm1', 256)).not.toBe(collectionNameFor('strata', 'm1', 512));
  });
});

describe('toStrataError', () => {
  const place = { url: 'http://chroma:8000', collection: 'c1' };
  const named = (name: string, message: string): Error => Object.assign(new Error(message), { name });
  const cases: [string, Error, string, boolean][] = [
    ['a connection failure', named('ChromaConnectionError', 'Failed to connect to chromadb.'), 'BACKEND_UNAVAILABLE', true],
    ['a 5xx', named('ChromaServerError', '500: Internal Server Error'), 'BACKEND_UNAVAILABLE', true],
    ['a rate limit', named('ChromaRateLimitError', 'Rate limit exceeded'), 'BACKEND_UNAVAILABLE', true],
    ["Chroma's dimension error", named('ChromaClientError', 'Bad request: Collection expecting embedding with dimension of 4, got 2'), 'CONFIG_INVALID', false],
    ['a missing collection', named('ChromaNotFoundError', 'The requested resource could not be found'), 'NOT_FOUND', false],
    ['refused credentials', named('ChromaUnauthorizedError', 'Unauthorized'), 'CONFIG_INVALID', false],
    ['any other refusal', named('ChromaValueError', 'Expected where to be ...'), 'INTERNAL', false],
  ];
  it.each(cases)('maps %s', (_title, error, code, retryable) => {
    const mapped = toStrataError(error, place);
    expect({ code: mapped.code, retryable: mapped.retryable, cause: mapped.cause }).toEqual({ code, retryable, cause: error });
    expect(mapped.message).toContain('http://chroma:8000');
  });
});

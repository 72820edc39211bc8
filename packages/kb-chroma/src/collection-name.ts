import { createHash } from 'node:crypto';

/** Chroma's own rule, quoted in messages. */
export const COLLECTION_NAME_RULE = '3-512 characters from [a-zA-Z0-9._-], starting and ending with a letter or digit, without ".."';

const MAX_LENGTH = 512;
const VALID = /^[a-zA-Z0-9](?:[a-zA-Z0-9._-]{1,510})[a-zA-Z0-9]$/;

export function isValidCollectionName(name: string): boolean {
  return VALID.test(name) && !name.includes('..');
}

/**
 * `<prefix>__<model>__<dimensions>`, made valid for Chroma: a model change or a dimension
 * change always lands in a fresh collection, so vectors of two models never mix.
 * Characters Chroma refuses become '-'; when that changed the model name (so that two models
 * could now meet, e.g. `a/b` and `a:b`), a short hash of the original keeps them apart.
 * @example collectionNameFor('strata', 'strata-hashing-v1', 256) // 'strata__strata-hashing-v1__256'
 */
export function collectionNameFor(prefix: string, model: string, dimensions: number): string {
  const cleanPrefix = sanitize(prefix);
  let cleanModel = sanitize(model);
  if (cleanModel !== model) cleanModel = `${cleanModel}-${shortHash(model)}`;
  const suffix = `__${dimensions}`;
  let name = `${cleanPrefix}__${cleanModel}`;
  // Too long: keep the start readable and a hash of the whole so that names stay distinct.
  if (name.length + suffix.length > MAX_LENGTH) name = `${name.slice(0, MAX_LENGTH - suffix.length - 9)}-${shortHash(name)}`;
  return padded(`${name}${suffix}`);
}

function sanitize(part: string): string {
  return part
    .replace(/[^a-zA-Z0-9._-]/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^a-zA-Z0-9]+|[^a-zA-Z0-9]+$/g, '');
}

/** The prefix may sanitize to nothing; Chroma wants a letter or digit first. */
function padded(name: string): string {
  return /^[a-zA-Z0-9]/.test(name) ? name : `s${name}`;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

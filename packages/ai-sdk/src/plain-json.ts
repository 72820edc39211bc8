import { StrataError } from '@strata/core';

/** How binary data (a file part's `Uint8Array`) is kept in strata's plain-JSON metadata. */
export const BYTES_KEY = '__strata_bytes__';

/**
 * `value` as plain JSON, for a turn's metadata: a `Uint8Array` becomes `{ [BYTES_KEY]: base64 }`,
 * a `URL` its href, `undefined` fields are left out (JSON has none).
 * @throws StrataError INVALID_INPUT naming the path of a value JSON cannot hold (a function, a
 * non-finite number, a class instance), or of an object that uses BYTES_KEY itself (decoding
 * would mistake it for bytes).
 */
export function toPlainJson(value: unknown, path = 'message'): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw notJson(path, String(value));
  }
  if (value instanceof Uint8Array) return { [BYTES_KEY]: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (value instanceof URL) return value.href;
  if (Array.isArray(value)) return value.map((item, i) => (item === undefined ? null : toPlainJson(item, `${path}[${i}]`)));
  if (typeof value === 'object' && isPlainObject(value)) {
    if (Object.hasOwn(value, BYTES_KEY)) throw notJson(`${path}.${BYTES_KEY}`, 'a key this package reserves for binary data');
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = toPlainJson(item, `${path}.${key}`);
    return out;
  }
  throw notJson(path, typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value);
}

/** The inverse of {@link toPlainJson}: `{ [BYTES_KEY]: base64 }` objects become `Uint8Array`s again. */
export function fromPlainJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromPlainJson);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const [first] = entries;
  if (entries.length === 1 && first?.[0] === BYTES_KEY && typeof first[1] === 'string') return new Uint8Array(Buffer.from(first[1], 'base64'));
  return Object.fromEntries(entries.map(([key, item]) => [key, fromPlainJson(item)]));
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function notJson(path: string, what: string): StrataError {
  return new StrataError('INVALID_INPUT', `${path} is ${what}, which a stored turn cannot keep (its metadata is plain JSON)`, {
    hint: 'Pass file data as a Uint8Array, a base64 string or a URL, and tool inputs and outputs as JSON values.',
  });
}

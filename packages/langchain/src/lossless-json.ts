import { Document } from '@langchain/core/documents';
import { StrataError } from '@strata/core';

/**
 * The key that marks a value JSON cannot hold, encoded as an object. Plain data that uses
 * this key itself is refused, so decoding never mistakes data for a marker.
 */
export const LOSSLESS_TAG = '__strata_lc__';

/** What JSON cannot hold but LangChain messages do, and how each is written. */
type Tagged =
  | { [LOSSLESS_TAG]: 'undefined' }
  | { [LOSSLESS_TAG]: 'number'; value: 'NaN' | 'Infinity' | '-Infinity' | '-0' }
  | { [LOSSLESS_TAG]: 'bigint'; value: string }
  | { [LOSSLESS_TAG]: 'Date'; value: string }
  | { [LOSSLESS_TAG]: 'Uint8Array' | 'Buffer'; base64: string }
  | { [LOSSLESS_TAG]: 'entries'; entries: [string, unknown][] }
  | { [LOSSLESS_TAG]: 'Document'; pageContent: string; metadata: unknown; id?: string };

const HINT =
  'strata keeps LangChain message fields as JSON: plain objects, arrays, strings, numbers, booleans and null, plus ' +
  "undefined, NaN, Infinity, -0, bigint, Date, Uint8Array, Buffer and LangChain Documents (a retriever tool's artifact), which it converts and restores. " +
  'Turn other values (class instances such as Map, functions, symbols) into plain data before storing the message.';

/**
 * `value` as plain JSON that {@link fromLosslessJson} turns back into an equal value: the
 * values JSON cannot hold (undefined, NaN, ±Infinity, -0, bigint, Date, Uint8Array, Buffer)
 * become tagged objects, wherever they are (an undefined property is kept too), and so does
 * an object with a "__proto__" key, which copying by assignment would lose. A null-prototype
 * object comes back as a plain object with the same entries.
 * @param where names the value in errors, e.g. `ToolMessage.artifact`.
 * @throws StrataError INVALID_INPUT for anything else that is not plain data (class instances,
 *   functions, symbols, cycles, invalid dates, objects using the reserved key), naming its path.
 */
export function toLosslessJson(value: unknown, where: string): unknown {
  const open = new Set<object>();
  const visit = (v: unknown, path: string): unknown => {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (v === undefined) return tag({ [LOSSLESS_TAG]: 'undefined' });
    if (typeof v === 'number') return encodeNumber(v);
    if (typeof v === 'bigint') return tag({ [LOSSLESS_TAG]: 'bigint', value: v.toString() });
    if (typeof v !== 'object') return refuse(path, `is a ${typeof v}`);
    if (v instanceof Date && Object.getPrototypeOf(v) === Date.prototype) return encodeDate(v, path);
    if (v instanceof Uint8Array && isPlainBytes(v))
      return tag({ [LOSSLESS_TAG]: Buffer.isBuffer(v) ? 'Buffer' : 'Uint8Array', base64: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') });
    if (v instanceof Document && Object.getPrototypeOf(v) === Document.prototype) return encodeDocument(v, path, visit);
    if (open.has(v)) return refuse(path, 'refers back to itself (a cycle)');
    open.add(v);
    try {
      if (Array.isArray(v)) return Array.from(v, (item, i) => visit(item, `${path}[${i}]`));
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) return refuse(path, `is a ${(v as { constructor?: { name?: string } }).constructor?.name ?? 'non-plain object'}`);
      if (Object.hasOwn(v, LOSSLESS_TAG)) return refuse(path, `uses the key ${JSON.stringify(LOSSLESS_TAG)}, which strata reserves`);
      const entries = Object.keys(v).map((key): [string, unknown] => [key, visit((v as Record<string, unknown>)[key], `${path}.${key}`)]);
      // A "__proto__" key is lost wherever an object is copied by assignment: keep it as a list of entries.
      return Object.hasOwn(v, '__proto__') ? tag({ [LOSSLESS_TAG]: 'entries', entries }) : Object.fromEntries(entries);
    } finally {
      open.delete(v);
    }
  };
  return visit(value, where);
}

/** The value {@link toLosslessJson} encoded, tagged values restored to what they were. */
export function fromLosslessJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(fromLosslessJson);
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, LOSSLESS_TAG)) return decodeTagged(record as Tagged);
  // fromEntries defines own properties: a "__proto__" key stays a key.
  return Object.fromEntries(Object.keys(record).map((key) => [key, fromLosslessJson(record[key])]));
}

function decodeTagged(tagged: Tagged): unknown {
  switch (tagged[LOSSLESS_TAG]) {
    case 'undefined':
      return undefined;
    case 'number':
      return tagged.value === '-0' ? -0 : Number(tagged.value);
    case 'bigint':
      return BigInt(tagged.value);
    case 'Date':
      return new Date(tagged.value);
    case 'Buffer':
      return Buffer.from(tagged.base64, 'base64');
    case 'Uint8Array':
      return new Uint8Array(Buffer.from(tagged.base64, 'base64'));
    case 'entries':
      return Object.fromEntries(tagged.entries.map(([key, item]) => [key, fromLosslessJson(item)]));
    case 'Document':
      return new Document({ pageContent: tagged.pageContent, metadata: fromLosslessJson(tagged.metadata) as Record<string, unknown>, ...(tagged.id === undefined ? {} : { id: tagged.id }) });
  }
}

/** A Document as its three fields; its metadata is plain data like any other value. */
function encodeDocument(doc: Document, path: string, visit: (v: unknown, path: string) => unknown): Tagged {
  return { [LOSSLESS_TAG]: 'Document', pageContent: doc.pageContent, metadata: visit(doc.metadata, `${path}.metadata`), ...(doc.id === undefined ? {} : { id: doc.id }) };
}

function encodeNumber(n: number): unknown {
  if (Number.isNaN(n)) return tag({ [LOSSLESS_TAG]: 'number', value: 'NaN' });
  if (n === Infinity || n === -Infinity) return tag({ [LOSSLESS_TAG]: 'number', value: n > 0 ? 'Infinity' : '-Infinity' });
  // JSON writes -0 as 0.
  return Object.is(n, -0) ? tag({ [LOSSLESS_TAG]: 'number', value: '-0' }) : n;
}

function encodeDate(date: Date, path: string): unknown {
  if (Number.isNaN(date.getTime())) return refuse(path, 'is an invalid Date');
  return tag({ [LOSSLESS_TAG]: 'Date', value: date.toISOString() });
}

/** Exactly a Uint8Array or a Buffer: a subclass of its own would come back as its base class. */
function isPlainBytes(bytes: Uint8Array): boolean {
  const proto = Object.getPrototypeOf(bytes) as unknown;
  return proto === Uint8Array.prototype || proto === Buffer.prototype;
}

function tag(tagged: Tagged): Tagged {
  return tagged;
}

function refuse(path: string, problem: string): never {
  throw new StrataError('INVALID_INPUT', `cannot store this LangChain message: ${path} ${problem}, which JSON cannot hold`, { hint: HINT });
}

// Kept in one file: one binary format, whose writer and reader must stay in step byte for byte.
import { createHash } from 'node:crypto';
import type { Bm25Dump, Bm25Image } from './bm25-index.js';
import { analyzeText } from './analyze.js';
import { factLexicalText } from './fact-lexical-text.js';
import { turnLexicalText } from './turn-lexical-text.js';
import type { LexicalKind } from '../ports/lexical-index.js';

/** What one lexical document is: its kind, id, and session (null for facts). */
export interface LexicalEntry {
  kind: LexicalKind;
  id: string;
  /** Null for facts, which belong to a namespace rather than to a session. */
  sessionId: string | null;
}

/** One namespace's lexical index, by kind, as {@link Bm25Dump}s whose metas are the documents' sessions (null for facts). */
export type LexicalDump = Partial<Record<LexicalKind, Bm25Dump<string | null>>>;

/** A {@link LexicalDump} read back from bytes ({@link decodeLexicalDump}): its parts are made when first asked. */
export type LexicalImage = Partial<Record<LexicalKind, Bm25Image<string | null>>>;

const MAGIC = 0x31584c53; // "SLX1", little-endian
const KINDS: readonly LexicalKind[] = ['turn', 'summary', 'fact'];

/** Raise when a change to the lexical rules would escape {@link lexicalRulesFingerprint}'s probes (date resolution, say). */
const LEXICAL_RULES_VERSION = 1;

let fingerprint: string | undefined;

/**
 * A fingerprint of the rules that turn text into terms (stop words, stemming, what a turn and a
 * fact are indexed under). A persisted index built under other rules would score differently
 * from one built now, so a reader rebuilds instead of restoring when the fingerprints differ.
 * The probes hold no date words: the date parser's first call costs about 150 ms.
 */
export function lexicalRulesFingerprint(): string {
  fingerprint ??= createHash('sha256')
    .update(
      JSON.stringify([
        LEXICAL_RULES_VERSION,
        analyzeText("I'm moving to the Berlins' flats, aren't we? Running, ran, runs; 2023 — café naïve ＡＢＣ now before"),
        turnLexicalText({ name: 'Sam', content: 'We went hiking with the dogs.', createdAt: Date.UTC(2023, 3, 14) }),
        factLexicalText({ text: 'User works as a glassblower.', predicate: 'job_title' }),
        factLexicalText({ text: 'User lives in Lisbon.', predicate: 'lives_in:city' }),
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  return fingerprint;
}

/** Appends strings as one UTF-8 run, with their UTF-16 lengths so a reader slices them out of one decoded string. */
class Writer {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  private readonly encoder = new TextEncoder();

  u32(value: number): void {
    this.push(new Uint8Array(Uint32Array.of(value).buffer));
  }

  strings(values: readonly string[]): void {
    this.u32(values.length);
    this.array(Uint32Array.from(values, (value) => value.length));
    const bytes = this.encoder.encode(values.join(''));
    this.u32(bytes.length);
    this.push(bytes);
    this.align();
  }

  array(values: Uint32Array | Int32Array | Float32Array): void {
    this.push(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }

  /** Bytes, padded to keep the next section aligned. */
  bytes8(values: Uint8Array): void {
    this.push(values);
    this.align();
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  private push(part: Uint8Array): void {
    this.parts.push(part);
    this.size += part.length;
  }

  private align(): void {
    const pad = (4 - (this.size % 4)) % 4;
    if (pad > 0) this.push(new Uint8Array(pad));
  }
}

/** Reads what {@link Writer} wrote; typed arrays are views of the buffer (every section is 4-byte aligned). */
class Reader {
  private at: number;
  private readonly end: number;
  private readonly decoder = new TextDecoder();

  /** Reads `buffer` from `offset` (a multiple of 4) for `length` bytes. */
  constructor(
    private readonly buffer: ArrayBuffer,
    offset: number,
    length: number,
  ) {
    this.at = offset;
    this.end = offset + length;
  }

  u32(): number {
    const value = new DataView(this.buffer, this.at, 4).getUint32(0, true);
    this.at += 4;
    return value;
  }

  strings(): string[] {
    const count = this.u32();
    const lengths = this.uint32s(count);
    const byteLength = this.u32();
    const joined = this.decoder.decode(new Uint8Array(this.buffer, this.at, byteLength));
    this.at += byteLength + ((4 - (byteLength % 4)) % 4);
    const out = new Array<string>(count);
    let from = 0;
    for (let i = 0; i < count; i++) {
      const to = from + (lengths[i] as number);
      out[i] = joined.slice(from, to);
      from = to;
    }
    if (from !== joined.length) throw new RangeError('lexical snapshot: string lengths do not add up');
    return out;
  }

  /**
   * Strings {@link Writer.strings} wrote, decoded when asked: one by one from their bytes when
   * they are all ASCII (byte offsets are then string offsets), else all at once, now.
   */
  lazyStrings(): LazyStrings {
    const count = this.u32();
    const lengths = this.uint32s(count);
    const byteLength = this.u32();
    const bytes = new Uint8Array(this.buffer, this.at, byteLength);
    this.at += byteLength + ((4 - (byteLength % 4)) % 4);
    const offsets = new Uint32Array(count + 1);
    for (let i = 0; i < count; i++) offsets[i + 1] = (offsets[i] as number) + (lengths[i] as number);
    const total = offsets[count] as number;
    if (total === byteLength) return new LazyStrings(bytes, offsets, undefined);
    // UTF-8 is longer than UTF-16 for anything but ASCII: decode now, and check the lengths add up
    const joined = this.decoder.decode(bytes);
    if (joined.length !== total) throw new RangeError('lexical snapshot: string lengths do not add up');
    return new LazyStrings(bytes, offsets, joined);
  }

  uint32s(count: number): Uint32Array {
    const out = new Uint32Array(this.buffer, this.at, count);
    this.at += 4 * count;
    return out;
  }

  int32s(count: number): Int32Array {
    const out = new Int32Array(this.buffer, this.at, count);
    this.at += 4 * count;
    return out;
  }

  /** Bytes (a view), skipping the padding after them. */
  bytes8(count: number): Uint8Array {
    const out = new Uint8Array(this.buffer, this.at, count);
    this.at += count + ((4 - (count % 4)) % 4);
    return out;
  }

  float32s(count: number): Float32Array {
    const out = new Float32Array(this.buffer, this.at, count);
    this.at += 4 * count;
    return out;
  }

  get done(): boolean {
    return this.at === this.end;
  }
}

/** Strings kept as their UTF-8 bytes (see {@link Reader.lazyStrings}). */
class LazyStrings {
  private static readonly latin1 = new TextDecoder('latin1');

  constructor(
    private readonly bytes: Uint8Array,
    /** Start of each string in the joined text, and its end last. */
    private readonly offsets: Uint32Array,
    /** The decoded text, once decoded. */
    private joined: string | undefined,
  ) {}

  get count(): number {
    return this.offsets.length - 1;
  }

  at(i: number): string {
    const from = this.offsets[i] as number;
    const to = this.offsets[i + 1] as number;
    // ASCII: these bytes are exactly the string
    if (this.joined === undefined) return LazyStrings.latin1.decode(this.bytes.subarray(from, to));
    return this.joined.slice(from, to);
  }

  all(): string[] {
    this.joined ??= LazyStrings.latin1.decode(this.bytes);
    const out = new Array<string>(this.count);
    for (let i = 0; i < out.length; i++) out[i] = this.at(i);
    return out;
  }
}

/**
 * A namespace's lexical index as bytes: per kind, the document ids, their sessions (as
 * indexes into a list of distinct session ids), lengths, and every term's postings as
 * typed arrays. Restoring it costs little more than reading it ({@link decodeLexicalDump}), where rebuilding means
 * analyzing every text again (about 40 µs a turn, most of it resolving dates).
 */
export function encodeLexicalDump(dump: LexicalDump): Uint8Array {
  const writer = new Writer();
  writer.u32(MAGIC);
  const kinds = KINDS.filter((kind) => dump[kind] !== undefined);
  writer.u32(kinds.length);
  for (const kind of kinds) {
    const part = dump[kind] as Bm25Dump<string | null>;
    writer.u32(KINDS.indexOf(kind));
    writer.strings(part.ids);
    const sessions = new Map<string, number>();
    const sessionOf = Int32Array.from(part.metas, (session) => {
      if (session === null) return -1;
      let at = sessions.get(session);
      if (at === undefined) {
        at = sessions.size;
        sessions.set(session, at);
      }
      return at;
    });
    writer.strings([...sessions.keys()]);
    writer.array(sessionOf);
    writer.array(part.lengths);
    writer.strings(part.terms);
    writer.array(Uint32Array.from(part.postings, (posting) => posting.nums.length));
    const maxTfs = Float32Array.from(part.postings, (posting) => posting.tfs.reduce((max, tf) => Math.max(max, tf), 0));
    writer.array(maxTfs);
    for (const posting of part.postings) writer.array(posting.nums);
    // Counts are small whole numbers: one byte each when they fit (a quarter of the floats).
    const small = maxTfs.every((max) => max <= 255) && part.postings.every((posting) => posting.tfs.every(Number.isInteger));
    writer.u32(small ? 1 : 4);
    if (small) {
      const bytes = new Uint8Array(part.postings.reduce((sum, posting) => sum + posting.tfs.length, 0));
      let at = 0;
      for (const posting of part.postings) {
        bytes.set(posting.tfs, at);
        at += posting.tfs.length;
      }
      writer.bytes8(bytes);
    } else for (const posting of part.postings) writer.array(posting.tfs);
  }
  return writer.bytes();
}

/**
 * The index {@link encodeLexicalDump} wrote, as images that view the bytes (copied first only
 * when they do not start 4-byte aligned): the sections are located and checked now, while
 * document ids are decoded only when asked (a search asks for those it returns) and a term's
 * postings only when the term is searched. Opening an index of 1M turns reads its terms and
 * lengths, not its million ids and postings.
 * @throws RangeError when the bytes are not a lexical snapshot.
 */
export function decodeLexicalDump(bytes: Uint8Array): LexicalImage {
  // Typed-array views need 4-byte alignment: copy only bytes that do not start on it.
  const aligned = bytes.byteOffset % 4 === 0 && bytes.buffer instanceof ArrayBuffer ? bytes : bytes.slice();
  const reader = new Reader(aligned.buffer as ArrayBuffer, aligned.byteOffset, aligned.byteLength);
  if (reader.u32() !== MAGIC) throw new RangeError('lexical snapshot: unknown format');
  const image: LexicalImage = {};
  const kinds = reader.u32();
  for (let k = 0; k < kinds; k++) {
    const kind = KINDS[reader.u32()];
    if (kind === undefined) throw new RangeError('lexical snapshot: unknown kind');
    const ids = reader.lazyStrings();
    const count = ids.count;
    const sessions = reader.strings();
    const sessionOf = reader.int32s(count);
    const lengths = reader.uint32s(count);
    const terms = reader.strings();
    const counts = reader.uint32s(terms.length);
    const maxTfs = reader.float32s(terms.length);
    // where each term's entries start among all entries
    const starts = new Float64Array(terms.length + 1);
    for (let t = 0; t < terms.length; t++) starts[t + 1] = (starts[t] as number) + (counts[t] as number);
    const entries = starts[terms.length] as number;
    const nums = reader.int32s(entries);
    const width = reader.u32();
    if (width !== 1 && width !== 4) throw new RangeError('lexical snapshot: unknown count width');
    const tfs = width === 1 ? reader.bytes8(entries) : reader.float32s(entries);
    const meta = (num: number): string | null => {
      const at = sessionOf[num] as number;
      return at < 0 ? null : (sessions[at] as string);
    };
    image[kind] = {
      count,
      lengths,
      terms,
      id: (num) => ids.at(num),
      meta,
      ids: () => ids.all(),
      postings: (t) => {
        const from = starts[t] as number;
        const to = starts[t + 1] as number;
        // one-byte counts are widened here, for the terms searched only
        return { nums: nums.subarray(from, to), tfs: width === 1 ? new Float32Array(tfs.subarray(from, to)) : (tfs.subarray(from, to) as Float32Array), maxTf: maxTfs[t] as number };
      },
    };
  }
  if (!reader.done) throw new RangeError('lexical snapshot: trailing bytes');
  return image;
}

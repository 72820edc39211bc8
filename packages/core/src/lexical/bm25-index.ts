import { analyzeText } from './analyze.js';
import { PostingList } from './posting-list.js';
import { TopDocs } from './top-docs.js';

/** Okapi BM25 term-frequency saturation. */
const K1 = 1.2;
/** Okapi BM25 length normalisation. */
const B = 0.75;
/** Score bounds are widened by this much, so float rounding never prunes a document that could still enter. */
const BOUND_SLACK = 1 + 1e-9;
/** Document numbers are compacted once fewer than half of those handed out are in use. */
const RENUMBER_FLOOR = 1024;

/** One search result of a {@link Bm25Index}. */
export interface Bm25Hit {
  id: string;
  /** BM25 score, higher is better; comparable only within one result list. */
  score: number;
}

interface IndexedDoc {
  /** Dense number of the document: postings, scores, ids and metas are keyed by it. */
  num: number;
  /** Number of analyzed terms, repeats included. */
  length: number;
  /** Distinct terms and their counts, so that removal and renumbering touch only this document's postings. */
  terms: string[];
  tfs: number[];
}

/** One query term's postings with its weight idf * (k1 + 1) and the most any document can get from it. */
interface TermScan {
  list: PostingList;
  weight: number;
  bound: number;
}

/**
 * An incremental Okapi BM25 index (k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)))
 * over text analyzed with {@link analyzeText}. Each document carries a caller-defined `meta`
 * that `search` can filter on.
 *
 * A search visits only the postings of the query's terms, rarest (highest-scoring) first, and
 * stops admitting new documents once `k` accepted ones score more than all the remaining terms
 * together could give any other (max-score pruning): the common terms of a question then only
 * add to the documents already found, by binary search in their sorted postings. Results are
 * exactly those of scoring every document. Postings are typed arrays and scores accumulate in
 * a reused array indexed by document number, so a search allocates little.
 */
export class Bm25Index<M> {
  /** Text -> terms; the same for indexed text and queries. */
  private readonly analyze: (text: string) => string[];
  private readonly postings = new Map<string, PostingList>();
  private readonly docs = new Map<string, IndexedDoc>();
  /** By document number: the id, undefined once removed. Numbers only grow, until a renumbering. */
  private ids: (string | undefined)[] = [];
  private metas: (M | undefined)[] = [];
  private lengths = new Float64Array(64);
  private scores = new Float64Array(64);
  /** Per document number, during one search: 0 not asked yet, 1 accepted, 2 rejected. */
  private verdicts = new Uint8Array(64);
  private touched = new Int32Array(64);
  private totalLength = 0;
  private readonly isLive = (num: number): boolean => this.ids[num] !== undefined;

  /** `analyze` defaults to {@link analyzeText}; another one compares tokenizers (e.g. without stemming). */
  constructor(options: { analyze?: (text: string) => string[] } = {}) {
    this.analyze = options.analyze ?? analyzeText;
  }

  /** Number of indexed documents. */
  get size(): number {
    return this.docs.size;
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  /** Indexes `text` under `id`; re-adding an id replaces its text and meta. */
  add(id: string, text: string, meta: M): void {
    this.remove(id);
    const tokens = this.analyze(text);
    const counts = new Map<string, number>();
    for (const term of tokens) counts.set(term, (counts.get(term) ?? 0) + 1);
    if (this.ids.length > 2 * this.docs.size + RENUMBER_FLOOR) this.renumber();
    const doc: IndexedDoc = { num: this.ids.length, length: tokens.length, terms: [...counts.keys()], tfs: [...counts.values()] };
    this.ids.push(id);
    this.metas.push(meta);
    this.ensureCapacity(this.ids.length);
    this.post(doc);
    this.docs.set(id, doc);
    this.totalLength += tokens.length;
  }

  /** Removes a document; returns false when the id was not indexed. */
  remove(id: string): boolean {
    const doc = this.docs.get(id);
    if (doc === undefined) return false;
    this.docs.delete(id);
    this.ids[doc.num] = undefined;
    this.metas[doc.num] = undefined;
    this.totalLength -= doc.length;
    for (const term of doc.terms) {
      const list = this.postings.get(term);
      if (list === undefined) continue;
      list.markDead(this.isLive);
      // Dropping empty postings keeps memory bounded under churn.
      if (list.live === 0) this.postings.delete(term);
    }
    return true;
  }

  /**
   * The `k` best documents for `text` among those `accept` lets through, best first, ties
   * by id. Repeated query terms count once; documents sharing no term with the query are
   * never returned. `accept` is called at most once per candidate.
   */
  search(text: string, k: number, accept: (meta: M, id: string) => boolean): Bm25Hit[] {
    const limit = Math.floor(k);
    if (!(limit > 0) || this.docs.size === 0) return [];
    const averageLength = this.totalLength / this.docs.size;
    const base = K1 * (1 - B);
    const perLength = (K1 * B) / averageLength;
    const scans = this.scansOf(new Set(this.analyze(text)), base);
    // rest[i]: the most terms i.. can add to any document's score
    const rest = new Float64Array(scans.length + 1);
    for (let i = scans.length - 1; i >= 0; i--) rest[i] = (rest[i + 1] as number) + (scans[i] as TermScan).bound;
    let count = 0;
    let closed = false;
    for (let i = 0; i < scans.length; i++) {
      const scan = scans[i] as TermScan;
      closed ||= count >= limit && this.enoughAbove(rest[i] as number, limit, count, accept);
      if (closed) this.addToTouched(scan, count, base, perLength);
      else count = this.addAll(scan, count, base, perLength);
    }
    const top = new TopDocs(Math.min(limit, count), (num) => this.ids[num] as string);
    for (let j = 0; j < count; j++) {
      const num = this.touched[j] as number;
      const score = this.scores[num] as number;
      if (top.wouldKeep(num, score) && this.accepts(num, accept)) top.offer(num, score);
    }
    for (let j = 0; j < count; j++) {
      const num = this.touched[j] as number;
      this.scores[num] = 0;
      this.verdicts[num] = 0;
    }
    return top.sorted().map(({ num, score }) => ({ id: this.ids[num] as string, score }));
  }

  /** The query terms that have postings, the highest possible contribution first. */
  private scansOf(terms: ReadonlySet<string>, base: number): TermScan[] {
    const n = this.docs.size;
    const scans: TermScan[] = [];
    for (const term of terms) {
      const list = this.postings.get(term);
      if (list === undefined || list.live === 0) continue;
      const df = list.live;
      const weight = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (K1 + 1);
      // tf / (tf + norm) grows with tf and norm >= k1 (1 - b): the bound of any document
      scans.push({ list, weight, bound: ((weight * list.maxTf) / (list.maxTf + base)) * BOUND_SLACK });
    }
    return scans.sort((a, b) => b.bound - a.bound);
  }

  /** Scores every live document of the term; returns the new number of touched documents. */
  private addAll(scan: TermScan, count: number, base: number, perLength: number): number {
    const { list, weight } = scan;
    const { nums, tfs } = list;
    const { scores, lengths, ids, touched } = this;
    let touchedCount = count;
    for (let i = 0; i < list.size; i++) {
      const num = nums[i] as number;
      if (ids[num] === undefined) continue;
      const tf = tfs[i] as number;
      const previous = scores[num] as number;
      if (previous === 0) touched[touchedCount++] = num;
      scores[num] = previous + (weight * tf) / (tf + base + perLength * (lengths[num] as number));
    }
    return touchedCount;
  }

  /** Adds the term to the documents already touched only: by binary search when they are few. */
  private addToTouched(scan: TermScan, count: number, base: number, perLength: number): void {
    const { list, weight } = scan;
    const { scores, lengths, touched } = this;
    if (count * Math.log2(list.size + 1) < list.size) {
      for (let j = 0; j < count; j++) {
        const num = touched[j] as number;
        const at = list.find(num);
        if (at < 0) continue;
        const tf = list.tfs[at] as number;
        scores[num] = (scores[num] as number) + (weight * tf) / (tf + base + perLength * (lengths[num] as number));
      }
      return;
    }
    const { nums, tfs } = list;
    for (let i = 0; i < list.size; i++) {
      const num = nums[i] as number;
      const previous = scores[num] as number;
      if (previous === 0) continue;
      const tf = tfs[i] as number;
      scores[num] = previous + (weight * tf) / (tf + base + perLength * (lengths[num] as number));
    }
  }

  /** Whether `limit` accepted documents already score more than `bound`, so no other can enter. */
  private enoughAbove(bound: number, limit: number, count: number, accept: (meta: M, id: string) => boolean): boolean {
    let above = 0;
    for (let j = 0; j < count && above < limit; j++) {
      const num = this.touched[j] as number;
      if ((this.scores[num] as number) > bound && this.accepts(num, accept)) above++;
    }
    return above >= limit;
  }

  private accepts(num: number, accept: (meta: M, id: string) => boolean): boolean {
    let verdict = this.verdicts[num] as number;
    if (verdict === 0) {
      verdict = accept(this.metas[num] as M, this.ids[num] as string) ? 1 : 2;
      this.verdicts[num] = verdict;
    }
    return verdict === 1;
  }

  private post(doc: IndexedDoc): void {
    this.lengths[doc.num] = doc.length;
    for (let i = 0; i < doc.terms.length; i++) {
      const term = doc.terms[i] as string;
      let list = this.postings.get(term);
      if (list === undefined) {
        list = new PostingList();
        this.postings.set(term, list);
      }
      list.push(doc.num, doc.tfs[i] as number);
    }
  }

  /** Hands out document numbers afresh, in the old order, so postings stay sorted and dense. */
  private renumber(): void {
    const docs = [...this.docs.values()].sort((a, b) => a.num - b.num);
    const { ids, metas } = this;
    this.postings.clear();
    this.ids = [];
    this.metas = [];
    for (const doc of docs) {
      this.ids.push(ids[doc.num]);
      this.metas.push(metas[doc.num]);
      doc.num = this.ids.length - 1;
      this.post(doc);
    }
  }

  private ensureCapacity(needed: number): void {
    if (needed <= this.lengths.length) return;
    const size = Math.max(needed, this.lengths.length * 2);
    const lengths = new Float64Array(size);
    lengths.set(this.lengths);
    this.lengths = lengths;
    this.scores = new Float64Array(size);
    this.verdicts = new Uint8Array(size);
    this.touched = new Int32Array(size);
  }
}

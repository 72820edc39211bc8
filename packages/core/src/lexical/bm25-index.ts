// Kept in one file: one index whose search strategies (document at a time with max-score and block-max, term at a time) share its per-document arrays and its lazily restored state.
import { analyzeText } from './analyze.js';
import { BLOCK_SIZE, PostingList } from './posting-list.js';
import { ScoreFloor } from './score-floor.js';
import { TopDocs } from './top-docs.js';

/** Okapi BM25 term-frequency saturation. */
const K1 = 1.2;
/** Okapi BM25 length normalisation. */
const B = 0.75;
/** Score bounds are widened by this much, so float rounding never prunes a document that could still enter. */
const BOUND_SLACK = 1 + 1e-9;
/** Document numbers are compacted once fewer than half of those handed out are in use. */
const RENUMBER_FLOOR = 1024;

/**
 * A {@link Bm25Index}'s content as plain arrays, for persisting it: documents numbered
 * 0..n-1 in the order they were added, each term's postings sorted by document number.
 * Restoring it gives an index that scores exactly as the one dumped, without analyzing text.
 */
export interface Bm25Dump<M> {
  ids: string[];
  metas: M[];
  /** Analyzed terms per document, repeats included. */
  lengths: Uint32Array;
  terms: string[];
  /** By term: the documents holding it, the term's count in each, and optionally the largest count (else computed). */
  postings: { nums: Int32Array; tfs: Float32Array; maxTf?: number }[];
}

/**
 * A {@link Bm25Dump} read back from bytes, whose parts are made when first asked: a restored
 * index looks up only the ids of the documents a search returns, and builds only the
 * postings of the terms it is asked for, so opening a large index costs little more than
 * reading its bytes (see `decodeLexicalDump`).
 */
export interface Bm25Image<M> {
  /** Documents, numbered 0..count-1 in the order they were added. */
  readonly count: number;
  /** Analyzed terms per document, repeats included. */
  readonly lengths: Uint32Array;
  readonly terms: readonly string[];
  /** The id of document `num` (0..count-1), read from the bytes when asked. */
  id(num: number): string;
  /** The meta of document `num` (0..count-1), as it was added. */
  meta(num: number): M;
  /** Every id, in document order: what `id` gives, made at once. */
  ids(): string[];
  /** The postings of `terms[term]`, as {@link Bm25Dump} holds them. */
  postings(term: number): { nums: Int32Array; tfs: Float32Array; maxTf?: number };
}

/** A dump as an image (its arrays taken over, not copied). */
export function imageOfDump<M>(dump: Bm25Dump<M>): Bm25Image<M> {
  return {
    count: dump.ids.length,
    lengths: dump.lengths,
    terms: dump.terms,
    id: (num) => dump.ids[num] as string,
    ids: () => dump.ids,
    meta: (num) => dump.metas[num] as M,
    postings: (term) => dump.postings[term] as Bm25Dump<M>['postings'][number],
  };
}

/** One search result of a {@link Bm25Index}. */
export interface Bm25Hit {
  id: string;
  /** BM25 score, higher is better; comparable only within one result list. */
  score: number;
}

/** A document's distinct terms and their counts, so that removal and renumbering touch only its postings. */
interface DocTerms {
  terms: string[];
  tfs: number[];
}

/**
 * One query term's postings with its weight idf * (k1 + 1), the most any document can get from
 * it (`bound`, widened for sums taken in another order; `most`, exactly as a document's score
 * would be computed), and the scan's position with the most any document of its block can get.
 */
interface TermScan {
  list: PostingList;
  weight: number;
  bound: number;
  most: number;
  pos: number;
  /** The block `blockMost` is for (-1: none yet). */
  block: number;
  blockMost: number;
}

/**
 * Queries of more terms than this are scored term at a time: document at a time costs every
 * term at every candidate, which a long query (a turn's text, a list of names) cannot afford.
 */
const DAAT_MAX_TERMS = 6;

/**
 * What one term adds to a document's score: `weight` is idf * (k1 + 1), `base` k1 * (1 - b)
 * and `perLength` k1 * b / average length, computed once per search.
 */
function termScore(weight: number, tf: number, length: number, base: number, perLength: number): number {
  return (weight * tf) / (tf + base + perLength * length);
}

/**
 * `from` plus the most terms i.. can add, summed in the order a document's score is: the
 * bound a partial score `from` (of terms before i) cannot get above.
 */
function upperSum(scans: readonly TermScan[], i: number, from: number): number {
  let sum = from;
  for (let j = i; j < scans.length; j++) sum += (scans[j] as TermScan).most;
  return sum;
}

/** Above every document number. */
const NO_DOC = 2 ** 31 - 1;

/**
 * An incremental Okapi BM25 index (k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)))
 * over text analyzed with {@link analyzeText}. Each document carries a caller-defined `meta`
 * that `search` can filter on.
 *
 * A search walks the postings of the query's terms together, document by document, and skips
 * what cannot enter the best `k`: once `k` are found, the common terms whose bounds together
 * cannot get above the worst of them (a tie goes to the document indexed first, so a later
 * one must do better) are only probed for the documents the other terms bring
 * (max-score), and runs of documents whose posting blocks cannot reach it are skipped whole
 * (block-max). A common term then costs a few probes per candidate instead of a walk of its
 * postings, so a search grows far slower than the corpus. A query of many terms (a turn's
 * text) is scored term at a time instead, with max-score pruning. Results are exactly those
 * of scoring every document. Postings are typed arrays, so a search allocates little.
 */
export class Bm25Index<M> {
  /** Text -> terms; the same for indexed text and queries. */
  private readonly analyze: (text: string) => string[];
  private readonly postings = new Map<string, PostingList>();
  /**
   * After a restore: the image the documents came from, until something needs them all as
   * arrays (an add, a removal, a dump). Until then `ids` and `metas` are empty, every document
   * is live, and a document's id and meta are read from the image.
   */
  private image: Bm25Image<M> | undefined;
  /** After a restore: the image's postings, and term -> its number there for the terms not built yet. */
  private termSource: Bm25Image<M> | undefined;
  private readonly unbuilt = new Map<string, number>();
  /** Id -> document number; built on first need after a restore (a search needs none). */
  private numbers: Map<string, number> | undefined = new Map();
  /** By document number: the id, undefined once removed. Numbers only grow, until a renumbering. */
  private ids: (string | undefined)[] = [];
  private metas: (M | undefined)[] = [];
  /** By document number: its terms; undefined for documents restored from a dump until a removal or renumbering needs them. */
  private forward: (DocTerms | undefined)[] = [];
  /** Whether some live document lacks its forward terms (restored from a dump). */
  private forwardMissing = false;
  private live = 0;
  private lengths = new Float64Array(64);
  /** Term-at-a-time scoring (long queries): scores by document number, reset after each search. */
  private scores = new Float64Array(64);
  /** Per document number, during one term-at-a-time search: 0 not asked yet, 1 accepted, 2 rejected. */
  private verdicts = new Uint8Array(64);
  private touched = new Int32Array(64);
  /** Per document number, during one term-at-a-time search: 1 while a {@link ScoreFloor} keeps it. */
  private held = new Uint8Array(64);
  private totalLength = 0;
  private readonly isLive = (num: number): boolean => this.ids[num] !== undefined;

  /** `analyze` defaults to {@link analyzeText}; another one compares tokenizers (e.g. without stemming). */
  constructor(options: { analyze?: (text: string) => string[] } = {}) {
    this.analyze = options.analyze ?? analyzeText;
  }

  /** Number of indexed documents. */
  get size(): number {
    return this.live;
  }

  /** Whether a document is indexed under `id` (after a restore, builds the id lookup first). */
  has(id: string): boolean {
    return this.numberOf().has(id);
  }

  /** The ids of the indexed documents. */
  documentIds(): string[] {
    this.takeDocuments();
    return this.ids.filter((id): id is string => id !== undefined);
  }

  /** Indexes `text` under `id`; re-adding an id replaces its text and meta. */
  add(id: string, text: string, meta: M): void {
    const tokens = this.analyze(text);
    const counts = new Map<string, number>();
    for (const term of tokens) counts.set(term, (counts.get(term) ?? 0) + 1);
    this.addAnalyzed(id, [...counts.keys()], [...counts.values()], tokens.length, meta);
  }

  /**
   * Indexes a document analyzed elsewhere (postings read back from a store): its distinct
   * `terms`, each one's count in `tfs`, and its `length` in terms, repeats included; what
   * `analyze` gives for its text, or the scores differ. Re-adding an id replaces it, as `add`.
   */
  addAnalyzed(id: string, terms: readonly string[], tfs: readonly number[], length: number, meta: M): void {
    this.remove(id);
    this.takeDocuments();
    if (this.ids.length > 2 * this.live + RENUMBER_FLOOR) this.renumber();
    const num = this.ids.length;
    this.ids.push(id);
    this.metas.push(meta);
    this.forward.push({ terms: [...terms], tfs: [...tfs] });
    this.ensureCapacity(this.ids.length);
    this.lengths[num] = length;
    this.post(num);
    this.numberOf().set(id, num);
    this.live++;
    this.totalLength += length;
  }

  /** Removes a document; returns false when the id was not indexed. */
  remove(id: string): boolean {
    const numbers = this.numberOf();
    const num = numbers.get(id);
    if (num === undefined) return false;
    this.takeDocuments();
    if (this.forwardMissing) this.rebuildForward();
    numbers.delete(id);
    this.ids[num] = undefined;
    this.metas[num] = undefined;
    this.live--;
    this.totalLength -= this.lengths[num] as number;
    for (const term of this.forward[num]?.terms ?? []) {
      const list = this.postingsOf(term);
      if (list === undefined) continue;
      list.markDead(this.isLive);
      // Dropping empty postings keeps memory bounded under churn.
      if (list.live === 0) this.postings.delete(term);
    }
    this.forward[num] = undefined;
    return true;
  }

  /**
   * The `k` best documents for `text` among those `accept` lets through, best first, ties
   * by indexing order (the document added first; re-adding a document moves it last, a dump
   * and restore keeps the order). Repeated query terms count once; documents sharing no term
   * with the query are never returned. `accept` is called at most once per candidate.
   */
  search(text: string, k: number, accept: (meta: M, id: string) => boolean): Bm25Hit[] {
    return this.searchTerms(this.analyze(text), k, accept);
  }

  /** {@link search} for terms `analyze` gave already (a query analysed once for several searches). */
  searchTerms(terms: readonly string[], k: number, accept: (meta: M, id: string) => boolean): Bm25Hit[] {
    const limit = Math.floor(k);
    if (!(limit > 0) || this.live === 0) return [];
    const base = K1 * (1 - B);
    const perLength = (K1 * B) / (this.totalLength / this.live);
    const scans = this.scansOf(new Set(terms), base, perLength);
    const top = new TopDocs(limit);
    if (scans.length > DAAT_MAX_TERMS) this.collectByTerm(scans, base, perLength, top, accept);
    else if (scans.length > 0) this.collect(scans, base, perLength, top, accept);
    return top.sorted().map(({ num, score }) => ({ id: this.idOf(num), score }));
  }

  /** The live documents, renumbered densely in their order, and their postings without dead entries. */
  dump(): Bm25Dump<M> {
    this.takeDocuments();
    this.buildAllPostings();
    const renumbered = new Int32Array(this.ids.length).fill(-1);
    const lengths = new Uint32Array(this.live);
    const ids: string[] = [];
    const metas: M[] = [];
    for (let num = 0; num < this.ids.length; num++) {
      const id = this.ids[num];
      if (id === undefined) continue;
      renumbered[num] = ids.length;
      lengths[ids.length] = this.lengths[num] as number;
      ids.push(id);
      metas.push(this.metas[num] as M);
    }
    const terms: string[] = [];
    const postings: Bm25Dump<M>['postings'] = [];
    for (const [term, list] of this.postings) {
      const nums = new Int32Array(list.live);
      const tfs = new Float32Array(list.live);
      let n = 0;
      for (let i = 0; i < list.size; i++) {
        const num = renumbered[list.nums[i] as number] as number;
        if (num < 0) continue;
        nums[n] = num;
        tfs[n] = list.tfs[i] as number;
        n++;
      }
      if (n === 0) continue;
      terms.push(term);
      postings.push({ nums: nums.subarray(0, n), tfs: tfs.subarray(0, n) });
    }
    return { ids, metas, lengths, terms, postings };
  }

  /**
   * An index holding exactly what an image of a dump gave (`imageOfDump`, or a snapshot
   * read back), scoring as the dumped one did. The arrays are taken over, not copied. `analyze` must be the one the dumped index used.
   * Costs one pass over the document lengths and one map entry per term: a term's postings
   * are built when it is first searched, a document's id is read when a search returns it or
   * its filter asks, and the arrays of ids, the id lookup and each document's terms are made
   * only when first needed (an add, a removal, a dump).
   */
  static restore<M>(image: Bm25Image<M>, options: { analyze?: (text: string) => string[] } = {}): Bm25Index<M> {
    const index = new Bm25Index<M>(options);
    const n = image.count;
    index.image = n > 0 ? image : undefined;
    index.termSource = image.terms.length > 0 ? image : undefined;
    index.forward = new Array<DocTerms | undefined>(n);
    index.forwardMissing = n > 0;
    index.numbers = undefined;
    index.live = n;
    index.ensureCapacity(n);
    index.lengths.set(image.lengths.subarray(0, n));
    for (let num = 0; num < n; num++) index.totalLength += image.lengths[num] as number;
    image.terms.forEach((term, i) => {
      index.unbuilt.set(term, i);
    });
    return index;
  }

  /** A document's id (read from the image after a restore). */
  private idOf(num: number): string {
    return this.image === undefined ? (this.ids[num] as string) : this.image.id(num);
  }

  /** A document's meta (read from the image after a restore). */
  private metaOf(num: number): M {
    return this.image === undefined ? (this.metas[num] as M) : this.image.meta(num);
  }

  /** The term's postings, built from the image on first use after a restore. */
  private postingsOf(term: string): PostingList | undefined {
    const list = this.postings.get(term);
    if (list !== undefined || this.unbuilt.size === 0) return list;
    const at = this.unbuilt.get(term);
    return at === undefined ? undefined : this.buildPostings(term, at);
  }

  private buildPostings(term: string, at: number): PostingList {
    const { nums, tfs, maxTf } = (this.termSource as Bm25Image<M>).postings(at);
    const list = PostingList.of(nums, tfs, maxTf);
    this.postings.set(term, list);
    this.unbuilt.delete(term);
    if (this.unbuilt.size === 0) this.termSource = undefined;
    return list;
  }

  /** Builds every term's postings that a restore left in the image. */
  private buildAllPostings(): void {
    for (const [term, at] of [...this.unbuilt]) this.buildPostings(term, at);
  }

  /** Takes the image's ids and metas into arrays, for a change that needs them all. */
  private takeDocuments(): void {
    const image = this.image;
    if (image === undefined) return;
    this.ids = image.ids();
    this.metas = Array.from({ length: image.count }, (_, num) => image.meta(num));
    this.image = undefined;
  }

  /** Id -> document number, built from the ids after a restore. */
  private numberOf(): Map<string, number> {
    if (this.numbers === undefined) {
      this.takeDocuments();
      this.numbers = new Map();
      for (let num = 0; num < this.ids.length; num++) {
        const id = this.ids[num];
        if (id !== undefined) this.numbers.set(id, num);
      }
    }
    return this.numbers;
  }

  /** Gives every live document its terms and counts again, from the postings (documents restored from a dump lack them). */
  private rebuildForward(): void {
    this.takeDocuments();
    this.buildAllPostings();
    for (let num = 0; num < this.ids.length; num++) if (this.ids[num] !== undefined && this.forward[num] === undefined) this.forward[num] = { terms: [], tfs: [] };
    for (const [term, list] of this.postings) {
      for (let i = 0; i < list.size; i++) {
        const num = list.nums[i] as number;
        // Dead entries belong to removed documents.
        if (this.ids[num] === undefined) continue;
        const doc = this.forward[num] as DocTerms;
        doc.terms.push(term);
        doc.tfs.push(list.tfs[i] as number);
      }
    }
    this.forwardMissing = false;
  }

  /** The query terms that have postings, the highest possible contribution first. */
  private scansOf(terms: ReadonlySet<string>, base: number, perLength: number): TermScan[] {
    const n = this.live;
    const scans: TermScan[] = [];
    for (const term of terms) {
      const list = this.postingsOf(term);
      if (list === undefined || list.live === 0) continue;
      list.updateBlocks(this.lengths);
      const df = list.live;
      const weight = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (K1 + 1);
      // tf / (tf + norm) grows with tf and falls with the length: the most any document of the list can get
      const most = termScore(weight, list.maxTf, list.minLength, base, perLength);
      scans.push({ list, weight, bound: most * BOUND_SLACK, most, pos: 0, block: -1, blockMost: 0 });
    }
    return scans.sort((a, b) => b.bound - a.bound);
  }

  /**
   * Document-at-a-time scoring with max-score and block-max pruning. Documents are visited in
   * increasing number, so once `top` is full a document must score strictly above its worst
   * (a tie goes to the earlier one, already kept): the terms whose bounds together cannot get
   * above that threshold are non-essential (a document holding only those cannot enter), so
   * documents are taken only from the other terms' postings and the non-essential ones are
   * probed (galloping search) while the score can still pass the threshold; and a run of
   * documents whose blocks' bounds cannot pass it is skipped whole. A corpus of many equal
   * scores (templated turns, short replies) is pruned as well as one of distinct scores.
   *
   * Pruning is exact: a bound is each term's most (largest tf, shortest document) added in
   * the same order as a score is summed, and every step of that sum is monotonic in floating
   * point, so a document's score never exceeds the bound it was pruned by.
   */
  private collect(scans: TermScan[], base: number, perLength: number, top: TopDocs, accept: (meta: M, id: string) => boolean): void {
    const n = scans.length;
    const { lengths, ids } = this;
    // alone[i]: the most a document holding none of terms 0..i-1 can score
    const alone = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) alone[i] = upperSum(scans, i, 0);
    // lists without dead entries need no liveness check per document
    const mayBeDead = scans.some((scan) => scan.list.dead > 0);
    let threshold = -Infinity;
    // terms 0..essential-1 are essential
    let essential = n;
    for (;;) {
      let doc = NO_DOC;
      for (let i = 0; i < essential; i++) {
        const scan = scans[i] as TermScan;
        if (scan.pos < scan.list.size && (scan.list.nums[scan.pos] as number) < doc) doc = scan.list.nums[scan.pos] as number;
      }
      if (doc === NO_DOC) return;
      if (essential === 1 && threshold > -Infinity) {
        this.collectFirst(scans, base, perLength, top, accept, alone[0] as number);
        return;
      }
      if (threshold > -Infinity && this.skipBlocks(scans, essential, threshold, base, perLength)) continue;
      let score = 0;
      for (let i = 0; i < essential; i++) {
        const scan = scans[i] as TermScan;
        if (scan.list.nums[scan.pos] !== doc) continue;
        score += termScore(scan.weight, scan.list.tfs[scan.pos] as number, lengths[doc] as number, base, perLength);
        scan.pos++;
      }
      if (mayBeDead && ids[doc] === undefined) continue;
      let isPruned = false;
      for (let i = essential; i < n; i++) {
        if (upperSum(scans, i, score) <= threshold) {
          isPruned = true;
          break;
        }
        const scan = scans[i] as TermScan;
        scan.pos = scan.list.seek(scan.pos, doc);
        if (scan.pos >= scan.list.size || scan.list.nums[scan.pos] !== doc) continue;
        score += termScore(scan.weight, scan.list.tfs[scan.pos] as number, lengths[doc] as number, base, perLength);
      }
      if (isPruned || !top.wouldKeep(doc, score) || !accept(this.metaOf(doc), this.idOf(doc))) continue;
      top.offer(doc, score);
      if (!top.isFull) continue;
      threshold = top.worstScore;
      while (essential > 0 && (alone[essential - 1] as number) <= threshold) essential--;
    }
  }

  /**
   * The rest of a document-at-a-time search once only the first term is essential (the most
   * common case once `top` is full): a tight loop over its postings that checks a block's bound
   * once per block, and scores a document's other terms only when its first-term part could
   * still take it above the threshold. Returns when the postings end or no document can enter
   * any more (`alone`: the most a document can score at all).
   */
  private collectFirst(scans: TermScan[], base: number, perLength: number, top: TopDocs, accept: (meta: M, id: string) => boolean, alone: number): void {
    const first = scans[0] as TermScan;
    const { list, weight } = first;
    const { nums, tfs, size } = list;
    const { lengths, ids } = this;
    // a list without dead entries needs no liveness check per document
    const mayBeDead = list.dead > 0;
    let threshold = top.worstScore;
    let pos = first.pos;
    while (pos < size) {
      const block = Math.floor(pos / BLOCK_SIZE);
      const blockEnd = Math.min(size, (block + 1) * BLOCK_SIZE);
      const blockMost = termScore(weight, list.blockMaxTf[block] as number, list.blockMinLength[block] as number, base, perLength);
      if (upperSum(scans, 1, blockMost) <= threshold) {
        pos = blockEnd;
        continue;
      }
      for (; pos < blockEnd; pos++) {
        const doc = nums[pos] as number;
        if (mayBeDead && ids[doc] === undefined) continue;
        const score = this.withOthers(scans, doc, termScore(weight, tfs[pos] as number, lengths[doc] as number, base, perLength), threshold, base, perLength);
        if (score < 0 || !top.wouldKeep(doc, score) || !accept(this.metaOf(doc), this.idOf(doc))) continue;
        top.offer(doc, score);
        threshold = top.worstScore;
        if (alone <= threshold) return;
      }
    }
  }

  /**
   * A document's score: its first-term part `first` plus terms 1.., added in order while it
   * can still pass `threshold`; -1 once it cannot (scores are positive).
   */
  private withOthers(scans: TermScan[], doc: number, first: number, threshold: number, base: number, perLength: number): number {
    let score = first;
    for (let i = 1; i < scans.length; i++) {
      if (upperSum(scans, i, score) <= threshold) return -1;
      const scan = scans[i] as TermScan;
      scan.pos = scan.list.seek(scan.pos, doc);
      if (scan.pos < scan.list.size && scan.list.nums[scan.pos] === doc) score += termScore(scan.weight, scan.list.tfs[scan.pos] as number, this.lengths[doc] as number, base, perLength);
    }
    return score;
  }

  /**
   * When every document up to the end of the first of the essential terms' current blocks is
   * bounded at or below `threshold` (those blocks' most, then the non-essential terms' most),
   * moves the essential cursors past it and returns true.
   */
  private skipBlocks(scans: TermScan[], essential: number, threshold: number, base: number, perLength: number): boolean {
    let bound = 0;
    let through = NO_DOC;
    for (let i = 0; i < scans.length; i++) {
      const scan = scans[i] as TermScan;
      if (i >= essential) {
        bound += scan.most;
        continue;
      }
      const { list, pos } = scan;
      // an exhausted essential term has no document left in the run
      if (pos >= list.size) continue;
      const block = Math.floor(pos / BLOCK_SIZE);
      if (block !== scan.block) {
        scan.block = block;
        scan.blockMost = termScore(scan.weight, list.blockMaxTf[block] as number, list.blockMinLength[block] as number, base, perLength);
      }
      bound += scan.blockMost;
      const last = list.nums[Math.min(list.size, (block + 1) * BLOCK_SIZE) - 1] as number;
      if (last < through) through = last;
    }
    if (bound > threshold) return false;
    for (let i = 0; i < essential; i++) {
      const scan = scans[i] as TermScan;
      scan.pos = scan.list.seek(scan.pos, through + 1);
    }
    return true;
  }

  /**
   * Term-at-a-time scoring with max-score pruning, for queries of many terms (a document at a
   * time would pay for every term at every document): terms are added rarest first, and once
   * `limit` accepted documents score more than the remaining terms could give any other, the
   * rest only add to the documents already found, by binary search in their postings. Whether
   * they do is asked of a {@link ScoreFloor} fed while scoring: O(limit) per term, where
   * counting over every touched document cost a long query over a large index O(terms x
   * documents) (a derivation's related-facts search at 100k facts).
   */
  private collectByTerm(scans: TermScan[], base: number, perLength: number, top: TopDocs, accept: (meta: M, id: string) => boolean): void {
    const limit = top.capacity;
    const rest = new Float64Array(scans.length + 1);
    for (let i = scans.length - 1; i >= 0; i--) rest[i] = (rest[i + 1] as number) + (scans[i] as TermScan).bound;
    const floor = new ScoreFloor(limit, this.held);
    let count = 0;
    let closed = false;
    for (let i = 0; i < scans.length; i++) {
      const scan = scans[i] as TermScan;
      if (!closed && count >= limit) {
        floor.refresh(this.scores);
        closed = floor.isAbove(rest[i] as number);
      }
      if (closed) this.addToTouched(scan, count, base, perLength);
      else count = this.addAll(scan, count, base, perLength, floor, accept);
    }
    floor.release();
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
  }

  /** Scores every live document of the term, offering each to `floor`; returns the new number of touched documents. */
  private addAll(scan: TermScan, count: number, base: number, perLength: number, floor: ScoreFloor, accept: (meta: M, id: string) => boolean): number {
    const { list, weight } = scan;
    const { nums, tfs } = list;
    const { scores, lengths, ids, touched } = this;
    // dead entries come only from removals (a restored index that never had one has no ids array yet)
    const mayBeDead = list.dead > 0;
    let touchedCount = count;
    for (let i = 0; i < list.size; i++) {
      const num = nums[i] as number;
      if (mayBeDead && ids[num] === undefined) continue;
      const tf = tfs[i] as number;
      const previous = scores[num] as number;
      if (previous === 0) touched[touchedCount++] = num;
      const score = previous + termScore(weight, tf, lengths[num] as number, base, perLength);
      scores[num] = score;
      if (floor.wouldTake(num, score) && this.accepts(num, accept)) floor.take(num, score);
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
        scores[num] = (scores[num] as number) + termScore(weight, tf, lengths[num] as number, base, perLength);
      }
      return;
    }
    const { nums, tfs } = list;
    for (let i = 0; i < list.size; i++) {
      const num = nums[i] as number;
      const previous = scores[num] as number;
      if (previous === 0) continue;
      const tf = tfs[i] as number;
      scores[num] = previous + termScore(weight, tf, lengths[num] as number, base, perLength);
    }
  }

  private accepts(num: number, accept: (meta: M, id: string) => boolean): boolean {
    let verdict = this.verdicts[num] as number;
    if (verdict === 0) {
      verdict = accept(this.metaOf(num), this.idOf(num)) ? 1 : 2;
      this.verdicts[num] = verdict;
    }
    return verdict === 1;
  }

  private post(num: number): void {
    const { terms, tfs } = this.forward[num] as DocTerms;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i] as string;
      let list = this.postingsOf(term);
      if (list === undefined) {
        list = new PostingList();
        this.postings.set(term, list);
      }
      list.push(num, tfs[i] as number);
    }
  }

  /** Hands out document numbers afresh, in the old order, so postings stay sorted and dense. */
  private renumber(): void {
    if (this.forwardMissing) this.rebuildForward();
    this.buildAllPostings();
    const { ids, metas, forward, lengths } = this;
    this.postings.clear();
    this.ids = [];
    this.metas = [];
    this.forward = [];
    this.lengths = new Float64Array(lengths.length);
    const numbers = new Map<string, number>();
    for (let old = 0; old < ids.length; old++) {
      const id = ids[old];
      if (id === undefined) continue;
      const num = this.ids.length;
      this.ids.push(id);
      this.metas.push(metas[old]);
      this.forward.push(forward[old]);
      this.lengths[num] = lengths[old] as number;
      numbers.set(id, num);
      this.post(num);
    }
    this.numbers = numbers;
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
    this.held = new Uint8Array(size);
  }
}

import { analyzeText } from './analyze.js';

/** Okapi BM25 term-frequency saturation. */
const K1 = 1.2;
/** Okapi BM25 length normalisation. */
const B = 0.75;

/** One search result of a {@link Bm25Index}. */
export interface Bm25Hit {
  id: string;
  /** BM25 score, higher is better; comparable only within one result list. */
  score: number;
}

interface IndexedDoc<M> {
  /** Dense number of the document: postings and scores are keyed by it, not by the id string. */
  num: number;
  meta: M;
  /** Number of analyzed terms, repeats included. */
  length: number;
  /** Distinct terms, so that removal touches only this document's postings. */
  terms: string[];
}

/**
 * An incremental Okapi BM25 index (k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)))
 * over text analyzed with {@link analyzeText}. Each document carries a caller-defined `meta`
 * that `search` can filter on. A search visits only the postings of the query's terms, so its
 * cost grows with how common those terms are, not with the size of the index; scores
 * accumulate in a reused array indexed by document number, so a search allocates little.
 */
export class Bm25Index<M> {
  /** Text -> terms; the same for indexed text and queries. */
  private readonly analyze: (text: string) => string[];
  /** term -> doc number -> tf. */
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly docs = new Map<string, IndexedDoc<M>>();
  /** By doc number: the id (undefined when free) and the length. */
  private readonly ids: (string | undefined)[] = [];
  private lengths = new Float64Array(64);
  private readonly free: number[] = [];
  private totalLength = 0;
  private scores = new Float64Array(64);

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
    const num = this.free.pop() ?? this.ids.length;
    this.ids[num] = id;
    if (num >= this.lengths.length) this.grow(num + 1);
    this.lengths[num] = tokens.length;
    for (const [term, tf] of counts) {
      let posting = this.postings.get(term);
      if (posting === undefined) {
        posting = new Map();
        this.postings.set(term, posting);
      }
      posting.set(num, tf);
    }
    this.docs.set(id, { num, meta, length: tokens.length, terms: [...counts.keys()] });
    this.totalLength += tokens.length;
  }

  private grow(needed: number): void {
    const size = Math.max(needed, this.lengths.length * 2);
    const lengths = new Float64Array(size);
    lengths.set(this.lengths);
    this.lengths = lengths;
    this.scores = new Float64Array(size);
  }

  /** Removes a document; returns false when the id was not indexed. */
  remove(id: string): boolean {
    const doc = this.docs.get(id);
    if (doc === undefined) return false;
    for (const term of doc.terms) {
      const posting = this.postings.get(term);
      if (posting === undefined) continue;
      posting.delete(doc.num);
      // Dropping empty postings keeps memory bounded under churn.
      if (posting.size === 0) this.postings.delete(term);
    }
    this.docs.delete(id);
    this.ids[doc.num] = undefined;
    this.free.push(doc.num);
    this.totalLength -= doc.length;
    return true;
  }

  /**
   * The `k` best documents for `text` among those `accept` lets through, best first, ties
   * by id. Repeated query terms count once; documents sharing no term with the query are
   * never returned. `accept` is called at most once per candidate.
   */
  search(text: string, k: number, accept: (meta: M, id: string) => boolean): Bm25Hit[] {
    if (k <= 0 || this.docs.size === 0) return [];
    const touched = this.score(new Set(this.analyze(text)));
    const { scores } = this;
    const top = new TopK(Math.floor(k));
    for (const num of touched) {
      const score = scores[num] as number;
      scores[num] = 0;
      const id = this.ids[num];
      if (id === undefined || score <= 0 || !top.wouldKeep(id, score)) continue;
      const doc = this.docs.get(id);
      if (doc !== undefined && accept(doc.meta, id)) top.offer({ id, score });
    }
    return top.sorted();
  }

  /** Adds each matching document's score into `this.scores`; returns the numbers touched (caller resets them). */
  private score(terms: ReadonlySet<string>): number[] {
    const n = this.docs.size;
    const averageLength = this.totalLength / n;
    const { scores, lengths } = this;
    const touched: number[] = [];
    for (const term of terms) {
      const posting = this.postings.get(term);
      if (posting === undefined) continue;
      const df = posting.size;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (const [num, tf] of posting) {
        const norm = tf + K1 * (1 - B + (B * (lengths[num] as number)) / averageLength);
        if (scores[num] === 0) touched.push(num);
        scores[num] = (scores[num] as number) + (idf * tf * (K1 + 1)) / norm;
      }
    }
    return touched;
  }
}

/** Whether hit `a` ranks below hit `b`: lower score, or same score and later id. */
function ranksBelow(a: Bm25Hit, b: Bm25Hit): boolean {
  return a.score < b.score || (a.score === b.score && a.id > b.id);
}

/**
 * Keeps the `k` best hits in a min-heap whose root is the worst kept hit, so selecting from
 * n candidates costs O(n log k) instead of sorting all of them.
 */
class TopK {
  private readonly heap: Bm25Hit[] = [];

  constructor(private readonly k: number) {}

  /** Cheap pre-check so that `accept` is not called for hits that could not be kept. */
  wouldKeep(id: string, score: number): boolean {
    const worst = this.heap[0];
    if (this.heap.length < this.k || worst === undefined) return this.k > 0;
    return ranksBelow(worst, { id, score });
  }

  offer(hit: Bm25Hit): void {
    if (!this.wouldKeep(hit.id, hit.score)) return;
    if (this.heap.length < this.k) {
      this.heap.push(hit);
      this.siftUp(this.heap.length - 1);
    } else {
      this.heap[0] = hit;
      this.siftDown(0);
    }
  }

  sorted(): Bm25Hit[] {
    return [...this.heap].sort((a, b) => (ranksBelow(a, b) ? 1 : ranksBelow(b, a) ? -1 : 0));
  }

  private siftUp(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.swapIfBelow(child, parent)) return;
      child = parent;
    }
  }

  private siftDown(index: number): void {
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let worst = parent;
      if (left < this.heap.length && this.below(left, worst)) worst = left;
      if (right < this.heap.length && this.below(right, worst)) worst = right;
      if (worst === parent) return;
      this.swapIfBelow(worst, parent);
      parent = worst;
    }
  }

  private below(i: number, j: number): boolean {
    const a = this.heap[i];
    const b = this.heap[j];
    return a !== undefined && b !== undefined && ranksBelow(a, b);
  }

  /** Swaps entries i and j when i ranks below j; returns whether it swapped. */
  private swapIfBelow(i: number, j: number): boolean {
    const a = this.heap[i];
    const b = this.heap[j];
    if (a === undefined || b === undefined || !ranksBelow(a, b)) return false;
    this.heap[i] = b;
    this.heap[j] = a;
    return true;
  }
}

import { describe, expect, it } from 'vitest';
import { analyzeText } from './analyze.js';
import { Bm25Index, imageOfDump, type Bm25Hit } from './bm25-index.js';

const all = (): boolean => true;

function indexOf(docs: Record<string, string>): Bm25Index<{ group: string }> {
  const index = new Bm25Index<{ group: string }>();
  for (const [id, text] of Object.entries(docs)) index.add(id, text, { group: id.slice(0, 1) });
  return index;
}

describe('Bm25Index', () => {
  it('scores a one-term match by the Okapi formula', () => {
    // N = 2, df = 1: idf = ln(1 + 1.5 / 1.5) = ln 2; tf = 1, dl = avgdl, so tf part = 1.
    const index = indexOf({ a: 'cat', b: 'dog' });
    const hits = index.search('cat', 10, all);
    expect(hits).toHaveLength(1);
    expect(hits[0]?.id).toBe('a');
    expect(hits[0]?.score).toBeCloseTo(Math.LN2, 12);
  });

  it('scores a document added analyzed (terms, counts, length) exactly as one added as text, through a replacement and a removal', () => {
    const docs: Record<string, string> = { a1: 'the cat sat on the cat mat', a2: 'a dog and a cat', b1: 'dogs chase cats in the garden', b2: 'garden gnome' };
    const byText = indexOf(docs);
    const analyzed = new Bm25Index<{ group: string }>();
    const addAnalyzed = (id: string, text: string): void => {
      const counts = new Map<string, number>();
      const terms = analyzeText(text);
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      analyzed.addAnalyzed(id, [...counts.keys()], [...counts.values()], terms.length, { group: id.slice(0, 1) });
    };
    for (const [id, text] of Object.entries(docs)) addAnalyzed(id, text);
    for (const index of [byText, analyzed]) index.remove('b2');
    byText.add('a2', 'a cat in the garden', { group: 'a' });
    addAnalyzed('a2', 'a cat in the garden');
    for (const query of ['cat', 'garden cat', 'dog gnome mat']) expect(analyzed.search(query, 10, all)).toEqual(byText.search(query, 10, all));
    expect(analyzed.size).toBe(3);
  });

  it('weighs a rare term above a common one', () => {
    // apple: df 3 of 4 -> idf ln(1 + 1.5/3.5); durian: df 1 -> idf ln(1 + 3.5/1.5).
    const index = indexOf({
      d1: 'apple fig',
      d2: 'apple grape',
      d3: 'apple kiwi',
      d4: 'durian lemon',
    });
    const hits = index.search('apple durian', 10, all);
    expect(hits.map((hit) => hit.id)).toEqual(['d4', 'd1', 'd2', 'd3']);
    expect(hits[0]?.score).toBeCloseTo(Math.log(1 + 3.5 / 1.5), 12);
    expect(hits[1]?.score).toBeCloseTo(Math.log(1 + 1.5 / 3.5), 12);
  });

  it('ranks a small corpus: both terms, then the shorter of the single matches', () => {
    const index = indexOf({
      long: 'salmon fishing trip along the river with friends and family',
      both: 'salmon recipe with lemon',
      short: 'salmon dinner',
      none: 'the weather in Paris was lovely',
    });
    const hits = index.search('salmon recipe', 10, all);
    expect(hits.map((hit) => hit.id)).toEqual(['both', 'short', 'long']);
  });

  it('counts repeated query terms once and breaks ties by indexing order', () => {
    const index = indexOf({ b: 'tea', a: 'tea', c: 'coffee' });
    const once = index.search('tea', 10, all);
    expect(once.map((hit) => hit.id)).toEqual(['b', 'a']);
    expect(index.search('tea tea tea', 10, all)).toEqual(once);
    // re-adding moves a document last, a dump and restore keeps the order
    index.add('b', 'tea', { group: 'b' });
    expect(index.search('tea', 10, all).map((hit) => hit.id)).toEqual(['a', 'b']);
    expect(
      Bm25Index.restore(imageOfDump(index.dump()))
        .search('tea', 10, all)
        .map((hit) => hit.id),
    ).toEqual(['a', 'b']);
  });

  it('prunes a corpus of equal scores: a search asks its filter about a block of documents, not all of them', () => {
    // 20,000 documents that all score the same for "tea" (and "tea cake"), ids falling as they
    // are added: a search that cannot reject a tie without scoring it asks about every one
    const index = new Bm25Index<null>();
    const count = 20_000;
    for (let i = 0; i < count; i++) index.add(`d${String(count - i).padStart(6, '0')}`, i % 2 === 0 ? 'tea cake' : 'tea time', null);
    for (const query of ['tea', 'tea cake', 'cake time tea']) {
      let asked = 0;
      const hits = index.search(query, 10, () => {
        asked++;
        return true;
      });
      expect(hits).toHaveLength(10);
      expect(asked).toBeLessThanOrEqual(10 + 2 * 64);
    }
    const first = index.search('tea', 3, all).map((hit) => hit.id);
    expect(first).toEqual(['d020000', 'd019999', 'd019998']);
  });

  it('returns nothing for stop words only or unknown terms', () => {
    const index = indexOf({ a: 'the cat sat' });
    expect(index.search('the and of', 10, all)).toEqual([]);
    expect(index.search('zebra', 10, all)).toEqual([]);
    expect(new Bm25Index<null>().search('cat', 10, all)).toEqual([]);
  });

  it('finds inflected forms through stemming', () => {
    const index = indexOf({ a: 'I moved to Berlin last year', b: 'I love pizza' });
    expect(index.search('moving', 10, all).map((hit) => hit.id)).toEqual(['a']);
  });

  it('forgets removed documents and updates idf', () => {
    const index = indexOf({ a: 'cat', b: 'dog', c: 'cat' });
    // N = 3, df = 2: idf = ln(1 + 1.5 / 2.5) = ln 1.6.
    expect(index.search('cat', 10, all)[0]?.score).toBeCloseTo(Math.log(1.6), 12);
    expect(index.remove('c')).toBe(true);
    expect(index.remove('c')).toBe(false);
    expect(index.has('c')).toBe(false);
    expect(index.size).toBe(2);
    const hits = index.search('cat', 10, all);
    expect(hits.map((hit) => hit.id)).toEqual(['a']);
    expect(hits[0]?.score).toBeCloseTo(Math.LN2, 12);
  });

  it('replaces a document re-added under the same id', () => {
    const index = new Bm25Index<string>();
    index.add('a', 'cat', 'old');
    index.add('a', 'dog', 'new');
    expect(index.size).toBe(1);
    expect(index.search('cat', 10, all)).toEqual([]);
    const metas: string[] = [];
    const hits = index.search('dog', 10, (meta) => {
      metas.push(meta);
      return true;
    });
    expect(hits.map((hit) => hit.id)).toEqual(['a']);
    expect(metas).toEqual(['new']);
  });

  it('filters by meta and returns the k best accepted documents', () => {
    const index = indexOf({ x1: 'tea', x2: 'tea tea', y1: 'tea time', y2: 'tea', y3: 'tea' });
    const onlyY = index.search('tea', 2, (meta) => meta.group === 'y');
    expect(onlyY.map((hit) => hit.id)).toEqual(['y2', 'y3']);
    expect(index.search('tea', 0, all)).toEqual([]);
    expect(index.search('tea', 1, (_meta, id) => id !== 'x2').map((hit) => hit.id)).toEqual(['x1']);
  });

  it('selects the same top k as a full sort over a larger corpus', () => {
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
    let seed = 7;
    const next = (): number => (seed = (seed * 48271) % 2147483647);
    const index = new Bm25Index<number>();
    for (let i = 0; i < 2000; i += 1) {
      const text = Array.from({ length: 1 + (next() % 6) }, () => words[next() % words.length]);
      index.add(`doc-${String(i).padStart(4, '0')}`, text.join(' '), i);
    }
    const even = (meta: number): boolean => meta % 2 === 0;
    const full = index.search('alpha hotel', 100_000, even);
    const top = index.search('alpha hotel', 25, even);
    expect(top).toEqual(full.slice(0, 25));
    for (let i = 1; i < full.length; i += 1) {
      expect(full[i - 1]?.score ?? 0).toBeGreaterThanOrEqual(full[i]?.score ?? 0);
    }
  });
});

describe('Bm25Index with its own analyzer', () => {
  it('matches only what the analyzer maps to the same term', () => {
    const words = (text: string): string[] => text.toLowerCase().split(/\s+/).filter(Boolean);
    const plain = new Bm25Index<null>({ analyze: words });
    const stemmed = new Bm25Index<null>();
    for (const index of [plain, stemmed]) {
      index.add('a', 'She moved to Lisbon', null);
      index.add('b', 'We move often', null);
    }
    expect(plain.search('moved', 10, all).map((hit) => hit.id)).toEqual(['a']);
    expect(
      stemmed
        .search('moved', 10, all)
        .map((hit) => hit.id)
        .sort(),
    ).toEqual(['a', 'b']);
  });
});

describe('Bm25Index against a naive scorer', () => {
  // Zipf-like vocabulary: a few common terms and a long tail, so that pruning and both ways of
  // adding common terms (scan, binary search) are exercised.
  const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x`);
  let seed = 11;
  const random = (): number => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  const word = (): string => vocabulary[Math.floor(vocabulary.length * random() ** 3)] as string;
  const text = (): string => Array.from({ length: 1 + Math.floor(random() * 12) }, word).join(' ');
  const identity = (t: string): string[] => t.split(' ').filter(Boolean);

  function naive(docs: Map<string, string>, query: string, k: number, accept: (id: string) => boolean): Bm25Hit[] {
    const terms = [...new Set(identity(query))];
    const lists = [...docs].map(([id, t]) => ({ id, words: identity(t) }));
    const average = lists.reduce((sum, d) => sum + d.words.length, 0) / lists.length;
    const dfs = new Map(terms.map((term) => [term, lists.filter((d) => d.words.includes(term)).length]));
    const hits = lists.map(({ id, words }) => {
      let score = 0;
      for (const term of terms) {
        const df = dfs.get(term) ?? 0;
        const tf = words.filter((w) => w === term).length;
        if (tf === 0) continue;
        score += Math.log(1 + (lists.length - df + 0.5) / (df + 0.5)) * ((tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * words.length) / average)));
      }
      return { id, score };
    });
    // ties by indexing order: `docs` holds its documents in the order they were (re-)added
    return hits
      .filter((h) => h.score > 0 && accept(h.id))
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }

  /** The index's hits equal the naive scorer's: same ids in the same order, same scores. */
  function expectNaiveHits(index: Bm25Index<number>, docs: Map<string, string>, query: string, k: number, accept: (id: string) => boolean): void {
    const got = index.search(query, k, (_meta, id) => accept(id));
    const want = naive(docs, query, k, accept);
    expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
    got.forEach((hit, i) => {
      expect(hit.score).toBeCloseTo(want[i]?.score ?? NaN, 9);
    });
  }

  it('returns the same hits as scoring every document, through removals, re-adds and renumbering', () => {
    const index = new Bm25Index<number>({ analyze: identity });
    const docs = new Map<string, string>();
    const check = (): void => {
      for (let q = 0; q < 15; q++) {
        const query = Array.from({ length: 2 + Math.floor(random() * 6) }, word).join(' ');
        const odd = q % 3 === 0;
        expectNaiveHits(index, docs, query, 1 + Math.floor(random() * 30), (id) => !odd || Number(id.slice(1)) % 2 === 1);
      }
    };
    for (let i = 0; i < 1_500; i++) {
      const t = text();
      docs.set(`d${i}`, t);
      index.add(`d${i}`, t, i);
    }
    check();
    // churn: removals and replacements leave more dead numbers than 1,024 plus twice the live
    // ones, so the index renumbers (at least once) along the way
    for (let round = 0; round < 4_000; round++) {
      const id = `d${Math.floor(random() * 1_800)}`;
      if (random() < 0.25) {
        docs.delete(id);
        index.remove(id);
      } else {
        const t = text();
        // a re-added document is indexed last: so it is listed last
        docs.delete(id);
        docs.set(id, t);
        index.add(id, t, round);
      }
      if (round % 800 === 799) check();
    }
    expect(index.size).toBe(docs.size);
  });

  it('prunes exactly on long postings: many queries and depths, a restored index, and documents added after searches', () => {
    const index = new Bm25Index<number>({ analyze: identity });
    const docs = new Map<string, string>();
    const check = (target: Bm25Index<number>, queries: number): void => {
      for (let q = 0; q < queries; q++) {
        const query = Array.from({ length: 1 + Math.floor(random() * 5) }, word).join(' ');
        const accept = q % 4 === 0 ? (id: string): boolean => Number(id.slice(1)) % 3 !== 0 : (): boolean => true;
        expectNaiveHits(target, docs, query, [1, 3, 10, 72, 500][q % 5] as number, accept);
      }
    };
    for (let i = 0; i < 6_000; i++) {
      const t = text();
      docs.set(`e${i}`, t);
      index.add(`e${i}`, t, i);
      // searches between additions: block maxima are extended, not rebuilt
      if (i % 1_500 === 1_499) check(index, 20);
    }
    const restored = Bm25Index.restore(imageOfDump(index.dump()), { analyze: identity });
    check(restored, 40);
    for (let i = 6_000; i < 6_300; i++) {
      const t = text();
      docs.set(`e${i}`, t);
      restored.add(`e${i}`, t, i);
    }
    check(restored, 40);
  });

  it('scores long queries (term at a time) exactly too', () => {
    const index = new Bm25Index<number>({ analyze: identity });
    const docs = new Map<string, string>();
    for (let i = 0; i < 4_000; i++) {
      const t = text();
      docs.set(`g${i}`, t);
      index.add(`g${i}`, t, i);
    }
    // half the queries take their terms from the whole vocabulary: rare terms come first, and
    // the search stops scanning the common ones early (a too-early stop misses documents)
    const anyWord = (): string => vocabulary[Math.floor(vocabulary.length * random())] as string;
    for (let q = 0; q < 60; q++) {
      const query = Array.from({ length: 7 + Math.floor(random() * 20) }, q % 2 === 0 ? word : anyWord).join(' ');
      const accept = q % 3 === 0 ? (id: string): boolean => Number(id.slice(1)) % 2 === 0 : (): boolean => true;
      expectNaiveHits(index, docs, query, [1, 5, 20, 100][q % 4] as number, accept);
    }
  });
});

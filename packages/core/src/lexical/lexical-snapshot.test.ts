import { describe, expect, it } from 'vitest';
import { InMemoryLexicalIndex } from '../adapters/in-memory/in-memory-lexical-index.js';
import type { LexicalQuery } from '../ports/lexical-index.js';
import { decodeLexicalDump, encodeLexicalDump } from './lexical-snapshot.js';

const WORDS = ['garden', 'tomato', 'berlin', 'moving', 'painting', 'lake', 'sunset', 'guitar', 'résumé', 'café', '東京', 'trip', 'plans', 'dog', 'cat'];

/** A deterministic pseudo-random text of a few words. */
function textOf(i: number): string {
  const words: string[] = [];
  let x = (i * 2654435761) >>> 0;
  for (let w = 0; w < 3 + (i % 7); w++) {
    x = (x * 1103515245 + 12345) >>> 0;
    words.push(WORDS[x % WORDS.length] as string);
  }
  return words.join(' ');
}

function filled(): InMemoryLexicalIndex {
  const index = new InMemoryLexicalIndex();
  for (let i = 0; i < 300; i++) index.add('ns', { kind: 'turn', id: `t-${i}-ü`, sessionId: `s${i % 4}` }, textOf(i));
  for (let i = 0; i < 40; i++) index.add('ns', { kind: 'summary', id: `s-${i}`, sessionId: `s${i % 4}` }, textOf(i + 1000));
  for (let i = 0; i < 20; i++) index.add('ns', { kind: 'fact', id: `f-${i}`, sessionId: null }, textOf(i + 2000));
  // removals leave dead postings behind, which a dump must not carry
  for (let i = 0; i < 300; i += 7) index.remove('ns', 'turn', `t-${i}-ü`);
  index.add('other', { kind: 'turn', id: 'x', sessionId: 's9' }, 'garden tomato');
  return index;
}

const QUERIES: LexicalQuery[] = [
  { namespace: 'ns', text: 'garden tomato', kinds: ['turn', 'summary', 'fact'], k: 10 },
  { namespace: 'ns', text: 'café 東京 trip', kinds: ['turn'], k: 25, sessionId: 's2' },
  { namespace: 'ns', text: 'dog', kinds: ['fact'], k: 5 },
  { namespace: 'ns', text: 'résumé lake sunset guitar', kinds: ['summary', 'turn'], k: 50 },
];

function roundTrip(index: InMemoryLexicalIndex): InMemoryLexicalIndex {
  const restored = new InMemoryLexicalIndex();
  restored.restore('ns', decodeLexicalDump(encodeLexicalDump(index.dump('ns'))));
  return restored;
}

describe('lexical snapshot', () => {
  it('restores a namespace that ranks exactly as the one encoded', () => {
    const index = filled();
    const restored = roundTrip(index);
    for (const query of QUERIES) expect(restored.search(query)).toEqual(index.search(query));
    expect(restored.size('ns')).toBe(index.size('ns'));
    expect(restored.search({ namespace: 'other', text: 'garden', kinds: ['turn'], k: 5 })).toEqual([]);
  });

  it('keeps ranking like a never-persisted index after removals and re-adds on the restored one', () => {
    const index = filled();
    const restored = roundTrip(index);
    for (const target of [index, restored]) {
      target.remove('ns', 'turn', 't-1-ü');
      target.remove('ns', 'fact', 'f-3');
      target.add('ns', { kind: 'summary', id: 's-5', sessionId: 's1' }, 'guitar lake replaced text');
      // most removed right away: document numbers run far ahead, and the index renumbers
      for (let i = 0; i < 6_000; i++) {
        target.add('ns', { kind: 'turn', id: `n-${i}`, sessionId: 's3' }, textOf(i + 5000));
        if (i % 6 !== 0) target.remove('ns', 'turn', `n-${i}`);
      }
    }
    for (const query of QUERIES) expect(restored.search(query)).toEqual(index.search(query));
    expect(restored.has('ns', 'turn', 't-1-ü')).toBe(false);
    expect(restored.has('ns', 'summary', 's-5')).toBe(true);
  });

  it('restores ASCII ids one by one: a search decodes the ids it returns and builds the postings of its terms only', () => {
    const index = new InMemoryLexicalIndex();
    for (let i = 0; i < 2_000; i++) index.add('ns', { kind: 'turn', id: `turn-${i}`, sessionId: `s${i % 5}` }, textOf(i));
    const image = decodeLexicalDump(encodeLexicalDump(index.dump('ns')));
    const turns = image.turn;
    if (turns === undefined) throw new Error('no turns in the image');
    const asked = { ids: 0, postings: 0 };
    const counted = {
      ...turns,
      id: (num: number) => {
        asked.ids++;
        return turns.id(num);
      },
      postings: (term: number) => {
        asked.postings++;
        return turns.postings(term);
      },
    };
    const restored = new InMemoryLexicalIndex();
    restored.restore('ns', { turn: counted });
    const query: LexicalQuery = { namespace: 'ns', text: 'garden tomato', kinds: ['turn'], k: 10 };
    expect(restored.search(query)).toEqual(index.search(query));
    expect(asked.postings).toBe(2);
    // the ids of the candidates the filter was asked about on their way into the best 10: not all 2,000
    expect(asked.ids).toBeGreaterThanOrEqual(10);
    expect(asked.ids).toBeLessThan(200);
    const inSession: LexicalQuery = { ...query, sessionId: 's3', k: 5 };
    expect(restored.search(inSession)).toEqual(index.search(inSession));
    // a change takes every id at once, and keeps ranking as the index never persisted
    restored.remove('ns', 'turn', 'turn-7');
    index.remove('ns', 'turn', 'turn-7');
    restored.add('ns', { kind: 'turn', id: 'turn-new', sessionId: 's1' }, 'garden garden tomato');
    index.add('ns', { kind: 'turn', id: 'turn-new', sessionId: 's1' }, 'garden garden tomato');
    for (const q of [query, inSession, { ...query, text: 'café 東京 dog lake' }]) expect(restored.search(q)).toEqual(index.search(q));
    expect(restored.ids('ns', 'turn')).toEqual(index.ids('ns', 'turn'));
  });

  it('rejects bytes that are not a snapshot', () => {
    expect(() => decodeLexicalDump(new Uint8Array([1, 2, 3, 4]))).toThrow(RangeError);
    const bytes = encodeLexicalDump(filled().dump('ns'));
    expect(() => decodeLexicalDump(bytes.subarray(0, bytes.length - 4))).toThrow();
  });
});

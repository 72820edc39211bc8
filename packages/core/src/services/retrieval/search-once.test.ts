import { describe, expect, it } from 'vitest';
import type { LexicalHit, LexicalIndex, LexicalQuery } from '../../ports/lexical-index.js';
import { InMemoryLexicalIndex } from '../../adapters/in-memory/in-memory-lexical-index.js';
import { searchOnce } from './search-once.js';

/** A real BM25 index behind the port, counting the searches that reach it. */
function countedIndex(): { index: LexicalIndex; searches: LexicalQuery[] } {
  const bm25 = new InMemoryLexicalIndex();
  const texts = ['tea in the garden', 'green tea', 'garden party', 'tea tea tea', 'coffee in the garden', 'black tea and cake'];
  texts.forEach((text, i) => {
    bm25.add('ns', { kind: 'fact', id: `f${i}`, sessionId: null }, text);
  });
  texts.forEach((text, i) => {
    bm25.add('ns', { kind: 'turn', id: `t${i}`, sessionId: 's1' }, text);
  });
  const searches: LexicalQuery[] = [];
  return {
    searches,
    index: {
      search: async (query): Promise<LexicalHit[]> => {
        searches.push(query);
        return bm25.search(query);
      },
    },
  };
}

describe('searchOnce', () => {
  it('answers a shallower repeat from the deeper search, with the same hits a search of its own gives', async () => {
    const { index, searches } = countedIndex();
    const once = searchOnce(index);
    const deep = await once.search({ namespace: 'ns', text: 'tea garden', kinds: ['fact'], k: 5 });
    const shallow = await once.search({ namespace: 'ns', text: 'tea garden', kinds: ['fact'], k: 2 });
    expect(searches).toHaveLength(1);
    expect(shallow).toEqual(deep.slice(0, 2));
    expect(shallow).toEqual(await index.search({ namespace: 'ns', text: 'tea garden', kinds: ['fact'], k: 2 }));
  });

  it('searches again for a deeper k, other words, other kinds, another namespace or session', async () => {
    const { index, searches } = countedIndex();
    const once = searchOnce(index);
    await once.search({ namespace: 'ns', text: 'tea', kinds: ['fact'], k: 2 });
    await once.search({ namespace: 'ns', text: 'tea', kinds: ['fact'], k: 4 });
    await once.search({ namespace: 'ns', text: 'garden', kinds: ['fact'], k: 2 });
    await once.search({ namespace: 'ns', text: 'tea', kinds: ['turn'], k: 2 });
    await once.search({ namespace: 'other', text: 'tea', kinds: ['fact'], k: 2 });
    await once.search({ namespace: 'ns', text: 'tea', kinds: ['turn'], k: 2, sessionId: 's1' });
    expect(searches).toHaveLength(6);
    // the deeper answer now serves both depths
    await once.search({ namespace: 'ns', text: 'tea', kinds: ['fact'], k: 3 });
    expect(searches).toHaveLength(6);
  });
});

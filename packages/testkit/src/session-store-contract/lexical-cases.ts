import { expect } from 'vitest';
import { analyzeText, type LexicalHit, type LexicalKind, type LexicalQuery } from '@strata/core';
import type { CurrentLexical, CurrentStore, Define } from './fixtures.js';
import { T0, fact, message, seedSession, session, summary } from './fixtures.js';

const ALL_KINDS: LexicalKind[] = ['turn', 'summary', 'fact'];

const kindIds = (hits: LexicalHit[]): string[] => hits.map((hit) => `${hit.kind}:${hit.id}`);

/**
 * BM25 search. Only orderings with a clear margin are asserted and ties are never assumed
 * to come in a given order, so that stores with slightly different BM25 variants (one that
 * clamps negative idf, as SQLite's FTS5 did) pass alike.
 */
export function describeLexicalSearch(test: Define, store: CurrentStore, lexical: CurrentLexical): void {
  const search = (query: Partial<LexicalQuery> & { text: string }): Promise<LexicalHit[]> => lexical().search({ namespace: 'ns-a', kinds: ALL_KINDS, k: 10, ...query });

  /** A turn, a summary and a fact with the same text in each of the given sessions. */
  const seedEveryKind = async (sessionId: string, text: string, namespace = 'ns-a'): Promise<void> => {
    await seedSession(store(), sessionId, [text], namespace);
    await store().write({
      ops: [
        { type: 'putSummaries', summaries: [summary(`${sessionId}-sum`, sessionId, [1, 1], text, { namespace })] },
        { type: 'putFacts', facts: [fact(`${sessionId}-fact`, 'user', `said in ${sessionId}`, 'it', { namespace, text })] },
      ],
    });
  };

  test('lexical search ranks items sharing query terms first and skips items sharing none', async () => {
    await seedSession(store(), 's1', ['We adopted a golden retriever puppy', 'The weather in Lisbon is sunny today', 'The puppy chewed a golden slipper']);
    const hits = await search({ text: 'golden retriever puppy' });
    expect(kindIds(hits)).toEqual(['turn:s1-m1', 'turn:s1-m3']);
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Infinity);
  });

  test('lexical search given the terms of its text reads them instead of the text: the same hits as the text, and the terms decide', async () => {
    await seedSession(store(), 's1', ['We adopted a golden retriever puppy', 'The weather in Lisbon is sunny today', 'The puppy chewed a golden slipper']);
    const byText = await search({ text: 'golden retriever puppy' });
    expect(await search({ text: 'golden retriever puppy', terms: analyzeText('golden retriever puppy') })).toEqual(byText);
    // a caller that analysed a question once passes its terms with it: the index does not analyse the text again
    expect(kindIds(await search({ text: 'golden retriever puppy', terms: analyzeText('sunny Lisbon') }))).toEqual(['turn:s1-m2']);
  });

  /** Two speakers in April 2023; the second turn says "last month". */
  const seedNamedTurns = async (): Promise<void> => {
    const april = Date.UTC(2023, 3, 12, 14, 0);
    await store().write({
      ops: [
        { type: 'putSession', session: session('s1') },
        {
          type: 'appendMessages',
          sessionId: 's1',
          messages: [
            message('s1-m1', 'I finally finished the lighthouse painting.', { name: 'Ana', createdAt: april }),
            message('s1-m2', 'We went to a robotics convention last month.', { role: 'assistant', name: 'Bo', createdAt: april + 1_000 }),
            message('s1-m3', 'Nice, send me a picture of it.', { createdAt: april + 2_000 }),
          ],
        },
      ],
    });
  };

  test('lexical search finds a turn by its speaker, the month it was said and the month a date in it points at', async () => {
    await seedNamedTurns();
    expect((await search({ text: 'Ana', kinds: ['turn'] })).map((h) => h.id)).toEqual(['s1-m1']);
    expect((await search({ text: 'april 2023', kinds: ['turn'] })).map((h) => h.id).sort()).toEqual(['s1-m1', 's1-m2', 's1-m3']);
    // said in April, "last month" is March
    expect((await search({ text: 'March', kinds: ['turn'] })).map((h) => h.id)).toEqual(['s1-m2']);
  });

  test('lexical search indexes speaker and dates of turns written after the first search too', async () => {
    expect(await search({ text: 'Ana' })).toEqual([]);
    await seedNamedTurns();
    expect((await search({ text: 'Bo March', kinds: ['turn'] })).map((h) => h.id)).toEqual(['s1-m2']);
  });

  test('lexical search weighs a rare term above a common one', async () => {
    await seedSession(store(), 's1', ['coffee every morning', 'coffee after lunch', 'coffee with friends', 'saxophone lesson tonight']);
    const hits = await search({ text: 'coffee saxophone' });
    expect(hits[0]?.id).toBe('s1-m4');
    expect(hits.map((hit) => hit.id).sort()).toEqual(['s1-m1', 's1-m2', 's1-m3', 's1-m4']);
  });

  test('lexical search never returns another namespace', async () => {
    await seedEveryKind('sa', 'Berlin apartment with a balcony', 'ns-a');
    await seedEveryKind('sb', 'Berlin apartment with a balcony', 'ns-b');
    expect(kindIds(await search({ text: 'berlin balcony' })).sort()).toEqual(['fact:sa-fact', 'summary:sa-sum', 'turn:sa-m1']);
    const other = await search({ namespace: 'ns-b', text: 'berlin balcony' });
    expect(kindIds(other).sort()).toEqual(['fact:sb-fact', 'summary:sb-sum', 'turn:sb-m1']);
    expect(await search({ namespace: 'ns-c', text: 'berlin balcony' })).toEqual([]);
  });

  test('lexical search returns only the requested kinds', async () => {
    await seedEveryKind('s1', 'Berlin apartment with a balcony');
    expect(kindIds(await search({ text: 'berlin', kinds: ['summary'] }))).toEqual(['summary:s1-sum']);
    expect(kindIds(await search({ text: 'berlin', kinds: ['fact', 'turn'] })).sort()).toEqual(['fact:s1-fact', 'turn:s1-m1']);
  });

  test("lexical search with sessionId returns only that session's turns and summaries", async () => {
    await seedEveryKind('s1', 'Berlin apartment with a balcony');
    await seedEveryKind('s2', 'Berlin apartment with a garden');
    const hits = await search({ text: 'berlin apartment', sessionId: 's1' });
    expect(kindIds(hits).sort()).toEqual(['summary:s1-sum', 'turn:s1-m1']);
    expect(await search({ text: 'berlin', sessionId: 'unknown' })).toEqual([]);
  });

  test('lexical search matches inflected forms (stemming) and ignores stop words', async () => {
    await seedSession(store(), 's1', ['I moved to Berlin last year', 'I love pizza']);
    expect(kindIds(await search({ text: 'moving' }))).toEqual(['turn:s1-m1']);
    expect(kindIds(await search({ text: 'Moves?' }))).toEqual(['turn:s1-m1']);
    expect(await search({ text: 'the and of to' })).toEqual([]);
  });

  test('lexical search does not return superseded facts', async () => {
    const current = fact('f1', 'user', 'lives_in', 'Paris', { text: 'The user lives in Paris' });
    const former = fact('f0', 'user', 'lived_in', 'Paris', { text: 'The user lived in Paris', validTo: T0 + 1 });
    await store().write({ ops: [{ type: 'putFacts', facts: [current, former] }] });
    expect(kindIds(await search({ text: 'paris' }))).toEqual(['fact:f1']);
    await store().write({ ops: [{ type: 'putFacts', facts: [{ ...current, validTo: T0 + 2, supersededBy: 'f2' }] }] });
    expect(await search({ text: 'paris' })).toEqual([]);
  });

  test('lexical search does not return deleted items and follows replaced text', async () => {
    await seedEveryKind('s1', 'Berlin apartment with a balcony');
    await store().write({ ops: [{ type: 'delete', messages: ['s1-m1'], facts: ['s1-fact'] }] });
    expect(kindIds(await search({ text: 'berlin' }))).toEqual(['summary:s1-sum']);
    await store().write({ ops: [{ type: 'putSummaries', summaries: [summary('s1-sum', 's1', [1, 1], 'Lisbon flat')] }] });
    expect(await search({ text: 'berlin' })).toEqual([]);
    expect(kindIds(await search({ text: 'lisbon' }))).toEqual(['summary:s1-sum']);
  });

  test('lexical search returns at most k hits, the best ones', async () => {
    await seedSession(store(), 's1', ['tea scone scone scone', 'tea tea tea tea', 'scone scone scone scone', 'tea tea scone scone', 'tea tea tea scone']);
    expect(kindIds(await search({ text: 'tea', k: 2 }))).toEqual(['turn:s1-m2', 'turn:s1-m5']);
    expect((await search({ text: 'tea', k: 10 })).length).toBe(4);
  });
}

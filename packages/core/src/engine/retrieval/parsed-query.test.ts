import { describe, expect, it } from 'vitest';
import { analyzeText } from '../../lexical/analyze.js';
import { parseQuery } from './parsed-query.js';

const NOW = Date.UTC(2025, 5, 1);

describe('parseQuery', () => {
  it('holds the terms, the words and the day of a question, and searches the day with it', () => {
    const parsed = parseQuery('What did Ana cook on March 4?', { now: NOW, timeAware: true });
    expect(parsed.terms).toEqual(analyzeText('What did Ana cook on March 4?'));
    expect([...parsed.words]).toEqual(['what', 'did', 'ana', 'cook', 'on', 'march', '4']);
    expect(parsed.day).toEqual({ key: '03-04' });
    expect(parsed.searchText).toBe('What did Ana cook on March 4? 03-04');
    expect(parsed.searchTerms).toEqual(analyzeText(parsed.searchText));
  });

  it('names no day when time-aware ranking is off, or the question names none', () => {
    expect(parseQuery('What did Ana cook on March 4?', { now: NOW, timeAware: false })).toMatchObject({ day: null, searchText: 'What did Ana cook on March 4?' });
    expect(parseQuery('What does Ana like to cook?', { now: NOW, timeAware: true })).toMatchObject({
      day: null,
      searchText: 'What does Ana like to cook?',
      searchTerms: analyzeText('What does Ana like to cook?'),
    });
  });

  it('holds the names it asks about: a full name whole and its first name, and each name alone', () => {
    const names = (text: string) => parseQuery(text, { now: NOW, timeAware: false }).names;
    expect(names('What is new with Mia Lopez?')).toEqual(['mia lopez', 'mia']);
    expect(names("What did Mia's brother Tom buy in Cape Town?")).toEqual(['mia', 'tom', 'cape town', 'cape']);
    expect(names('How are you?')).toEqual([]);
  });
});

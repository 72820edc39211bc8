import { describe, expect, it } from 'vitest';
import { splitSentences } from './split-sentences.js';

describe('splitSentences', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['I live in Berlin', ['I live in Berlin']],
    ['I live in Berlin. I work at Acme!', ['I live in Berlin.', 'I work at Acme!']],
    ['Where do I live? Berlin?', ['Where do I live?', 'Berlin?']],
    ['i live in berlin. i like jazz', ['i live in berlin.', 'i like jazz']],
    ['I saw Dr. Smith today. It went well.', ['I saw Dr. Smith today.', 'It went well.']],
    ['I like music, e.g. jazz. Nice.', ['I like music, e.g. jazz.', 'Nice.']],
    ['It costs 3.50 euros. Cheap!', ['It costs 3.50 euros.', 'Cheap!']],
    ['first line\nsecond line', ['first line', 'second line']],
    ['He said "hi." Then left.', ['He said "hi."', 'Then left.']],
    ['Wait... what?! ok', ['Wait...', 'what?!', 'ok']],
  ])('%j -> %j', (text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { parseSentences } from './parse-sentences.js';
import { retellInThirdPerson } from './third-person.js';

function retold(sentence: string): string {
  return retellInThirdPerson(parseSentences(sentence)[0]?.tokens ?? [], 'Priya');
}

describe('retellInThirdPerson', () => {
  it.each([
    ['I love my garden.', "Priya loves Priya's garden."],
    ["I'm training for a marathon.", 'Priya is training for a marathon.'],
    ['We taught ourselves to sail.', 'Priya and others taught themselves to sail.'],
    ['I just bought myself a used kayak.', 'Priya just bought themselves a used kayak.'],
    ['For me I love painting landscapes.', 'Priya loves painting landscapes.'],
    ["For me, I'm happiest outdoors.", 'Priya is happiest outdoors.'],
    ['As for me, I stayed home.', 'Priya stayed home.'],
    ['Me, I prefer the mountains.', 'Priya prefers the mountains.'],
    ['For me, the trip was about finding peace.', 'For Priya, the trip was about finding peace.'],
  ])('%j -> %j', (sentence, expected) => {
    expect(retold(sentence)).toBe(expected);
  });
});

describe('retellInThirdPerson with the listener known', () => {
  it.each([
    ['Your advice got me through the exam, you are a lifesaver.', "Tomas's advice got Priya through the exam, Tomas is a lifesaver."],
    ['You were right about the mechanic.', 'Tomas was right about the mechanic.'],
    ["You're the one who taught me to bake.", 'Tomas is the one who taught Priya to bake.'],
    ['You have helped me so much.', 'Tomas has helped Priya so much.'],
  ])('%j -> %j', (sentence, expected) => {
    expect(retellInThirdPerson(parseSentences(sentence)[0]?.tokens ?? [], 'Priya', 'Tomas')).toBe(expected);
  });

  it('leaves "you" as said when the listener is not known', () => {
    expect(retold('You were right about the mechanic.')).toBe('You were right about the mechanic.');
  });
});

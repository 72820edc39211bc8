import { describe, expect, it } from 'vitest';
import { parseSentences } from './parse-sentences.js';
import { companionOf, retellInThirdPerson } from './third-person.js';

function retold(sentence: string): string {
  return retellInThirdPerson(parseSentences(sentence)[0]?.tokens ?? [], { name: 'Priya' });
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
    expect(retellInThirdPerson(parseSentences(sentence)[0]?.tokens ?? [], { name: 'Priya', listener: 'Tomas' })).toBe(expected);
  });

  it('leaves "you" as said when the listener is not known', () => {
    expect(retold('You were right about the mechanic.')).toBe('You were right about the mechanic.');
  });
});

describe('"we" with the one person the turn puts beside the speaker', () => {
  /** The companion found in the whole turn, and its last sentence retold with it. */
  function retoldInTurn(turn: string): { companion: string | undefined; told: string } {
    const sentences = parseSentences(turn);
    const companion = companionOf(sentences, 'Priya');
    const told = retellInThirdPerson(sentences.at(-1)?.tokens ?? [], { name: 'Priya', ...(companion === undefined ? {} : { companion }) });
    return { companion, told };
  }

  it.each([
    ['I went climbing with Tomas on Sunday. We reached the top before noon.', 'Tomas', 'Priya and Tomas reached the top before noon.'],
    ['I spent the weekend with my cousin Elif. We painted our kitchen.', 'Elif', "Priya and Elif painted Priya and Elif's kitchen."],
    ['Jonas and I finally finished the boat. We sail next month.', 'Jonas', 'Priya and Jonas sail next month.'],
    ['My brother Ravi is visiting, we might go to the races.', 'Ravi', "Priya's brother Ravi is visiting, Priya and Ravi might go to the races."],
  ])('%j: "we" takes in %j', (turn, companion, expected) => {
    expect(retoldInTurn(turn)).toEqual({ companion, told: expected });
  });

  it.each([
    ['no one is named', 'We are driving to the coast next week.', 'Priya and others are driving to the coast next week.'],
    ['two people are named', 'I had coffee with Jonas and lunch with Elif. We talked for hours.', 'Priya and others talked for hours.'],
    ['the one named is the listener', 'I loved the hike with Tomas. We should go again.', 'Priya and others should go again.'],
  ])('keeps "and others" when %s', (_, turn, expected) => {
    const sentences = parseSentences(turn);
    const companion = companionOf(sentences, 'Priya', 'Tomas');
    expect(retellInThirdPerson(sentences.at(-1)?.tokens ?? [], { name: 'Priya', listener: 'Tomas', ...(companion === undefined ? {} : { companion }) })).toBe(expected);
  });
});

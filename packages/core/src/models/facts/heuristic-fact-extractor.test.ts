import { describe, expect, it } from 'vitest';
import type { KnownFact, TranscriptTurn } from '../../domain/jobs.js';
import { HeuristicFactExtractor } from './heuristic-fact-extractor.js';

// A Friday.
const CREATED_AT = Date.parse('2026-11-20T10:00:00Z');
const extractor = new HeuristicFactExtractor();

function turn(content: string, role: TranscriptTurn['role'] = 'user', id = 'm1'): TranscriptTurn {
  return { id, seq: 1, role, content, createdAt: CREATED_AT };
}

/** subject|predicate|object|text of every fact of one user turn. */
async function factsOf(content: string, knownFacts: KnownFact[] = []): Promise<string[]> {
  const facts = await extractor.extract({ turns: [turn(content)], knownFacts });
  return facts.map((fact) => `${fact.subject}|${fact.predicate}|${fact.object}|${fact.text}`);
}

describe('HeuristicFactExtractor', () => {
  it('is named for what it is', () => {
    expect(extractor.name).toBe('heuristic');
  });

  it('names an unnamed user by the name they gave, from their profile or earlier in the batch; the statement of the name stays as said', async () => {
    const known: KnownFact[] = [{ id: 'f1', subject: 'user', predicate: 'name', object: 'Dana', text: "User's name is Dana." }];
    expect(await factsOf('I live in Lisbon.', known)).toEqual(['user|lives_in|Lisbon|Dana lives in Lisbon.']);
    const turns = [turn('I live in Porto.', 'user', 'm1'), turn('My name is Rui.', 'user', 'm2'), turn('I live in Braga now.', 'user', 'm3')];
    const facts = await extractor.extract({ turns, knownFacts: [] });
    expect(facts.map((fact) => `${fact.subject}|${fact.text}`)).toEqual(['user|User lives in Porto.', "user|User's name is Rui.", 'user|Rui lives in Braga.']);
  });

  it.each([
    // identity
    ['My name is Sam Carter.', ["user|name|Sam Carter|User's name is Sam Carter."]],
    ['Call me Ishmael.', ["user|name|Ishmael|User's name is Ishmael."]],
    ["Hi, I'm Sam.", ["user|name|Sam|User's name is Sam."]],
    ['my name is sam', ["user|name|Sam|User's name is Sam."]],
    ["I'm 34.", ['user|age|34|User is 34 years old.']],
    ['I am 34 years old and I live in Berlin', ['user|age|34|User is 34 years old.', 'user|lives_in|Berlin|User lives in Berlin.']],
    ["I'm German.", ['user|nationality|German|User is German.']],
    ['My email is sam@example.com.', ["user|email|sam@example.com|User's email is sam@example.com."]],
    ['My birthday is March 3.', ["user|birthday|03-03|User's birthday is March 3 (03-03)."]],
    ['May 3 is fine. I live in Oslo.', ['user|lives_in|Oslo|User lives in Oslo.']],
    ['I was born on March 3, 1990.', ["user|birthday|1990-03-03|User's birthday is March 3 (1990-03-03)."]],
    // places
    ['I live in Berlin now.', ['user|lives_in|Berlin|User lives in Berlin.']],
    ['I moved to New York last year.', ['user|lives_in|New York|User lives in New York.']],
    ["I'm based in the Netherlands", ['user|lives_in|the Netherlands|User lives in the Netherlands.']],
    ['I relocated to São Paulo in 2019.', ['user|lives_in|São Paulo|User lives in São Paulo.']],
    ['i moved to new york last year', ['user|lives_in|New York|User lives in New York.']],
    ["I'm from Munich originally", ['user|hometown|Munich|User is from Munich.']],
    ['I grew up in Lyon.', ['user|hometown|Lyon|User is from Lyon.']],
    // work
    ['I work as a software engineer at Google.', ['user|job_title|software engineer|User works as a software engineer.', 'user|employer|Google|User works at Google.']],
    ["I'm a nurse.", ['user|job_title|nurse|User works as a nurse.']],
    ["I'm a senior product manager at Acme Corp", ['user|job_title|senior product manager|User works as a senior product manager.', 'user|employer|Acme Corp|User works at Acme Corp.']],
    ['I work at a hospital.', ['user|employer|a hospital|User works at a hospital.']],
    ['I joined Stripe last month.', ['user|employer|Stripe|User works at Stripe.']],
    ['I quit my job at Google.', ['user|employer|none|User left their job at Google.']],
    ["I don't work at Google anymore.", ['user|employer|none|User left their job at Google.']],
    ["I'm retired.", ['user|job_title|retired|User is retired.']],
    // people and pets
    ['My wife is Anna.', ["user|partner|Anna|User's wife is Anna."]],
    ['My sister Anna lives in Rome.', ["user|sister|Anna|User's sister is Anna.", 'anna|lives_in|Rome|Anna lives in Rome.']],
    ['my dad is called bob', ["user|father|Bob|User's dad is Bob."]],
    ['I have a dog named Rex.', ['user|pet:dog|Rex|User has a dog named Rex.']],
    ['I have two cats.', ['user|pet:cat|2|User has 2 cats.']],
    // preferences
    ['I love jazz.', ['user|opinion_of:jazz|loves|User loves jazz.']],
    ['I like hiking and I hate mornings.', ['user|opinion_of:hiking|likes|User likes hiking.', 'user|opinion_of:mornings|hates|User hates mornings.']],
    ["I don't like cilantro.", ["user|opinion_of:cilantro|dislikes|User doesn't like cilantro."]],
    ["I'm not a fan of horror movies.", ["user|opinion_of:horror movies|dislikes|User doesn't like horror movies."]],
    ['I no longer like coffee.', ["user|opinion_of:coffee|dislikes|User doesn't like coffee."]],
    ['I love to cook.', ['user|opinion_of:cook|loves|User loves to cook.']],
    // no thing is named: no opinion slot
    ['I love to.', []],
    ['Being my own boss and doing something I love is awesome.', []],
    ['I love that you came over.', []],
    ["I'm allergic to peanuts and shellfish.", ['user|allergy:peanuts|allergic|User is allergic to peanuts.', 'user|allergy:shellfish|allergic|User is allergic to shellfish.']],
    ['I speak French and German.', ['user|speaks:french|yes|User speaks French.', 'user|speaks:german|yes|User speaks German.']],
    ["I'm learning Japanese.", ['user|speaks:japanese|learning|User is learning Japanese.']],
    ["I'm vegetarian.", ['user|diet|vegetarian|User is vegetarian.']],
    ['My favourite color is blue!', ["user|favorite:color|blue|User's favorite color is blue."]],
    // plans, resolved against Friday 2026-11-20
    ["I'm flying to Tokyo next Friday.", ['user|plan:fly to tokyo|2026-11-27|User plans to fly to Tokyo on 2026-11-27 (Friday).']],
    ['I will visit my mom in two weeks.', ['user|plan:visit their mom|2026-12-04|User plans to visit their mom on 2026-12-04 (Friday).']],
    ['My dentist appointment is on Tuesday.', ['user|plan:dentist appointment|2026-11-24|User has a dentist appointment on 2026-11-24 (Tuesday).']],
    ['I have a job interview tomorrow.', ['user|plan:job interview|2026-11-21|User has a job interview on 2026-11-21 (Saturday).']],
    ["I'm going to Paris on the 5th.", ['user|plan:go to paris|2026-12-05|User plans to go to Paris on 2026-12-05 (Saturday).']],
    ["I'm moving to Lisbon next month.", ['user|plan:move to lisbon|2026-12|User plans to move to Lisbon in 2026-12.']],
    // nothing to extract
    ['Do I like jazz?', []],
    ['where do I live?', []],
    ['Am I allergic to nuts', []],
    ['If I lived in Paris I would be happy.', []],
    ['I wish I lived in Paris.', []],
    ["I'd love to visit Japan.", []],
    ['I went to the dentist last Tuesday.', []],
    ['I used to live in Paris.', []],
    ['My friend lives in Rome.', []],
    ['I live in a flat.', []],
    ["I'm 34 minutes late", []],
    ['My wife is Italian.', []],
    ['I joined a gym.', []],
    ['I quit smoking.', []],
    ['I love it when it rains.', []],
    ["I'm learning to cook.", []],
    ['', []],
  ])('%j', async (content, expected) => {
    expect(await factsOf(content)).toEqual(expected);
  });

  it('skips assistant, system and tool turns: their "I" is not the user', async () => {
    const turns = [
      turn('I live in the cloud and I love helping.', 'assistant', 'a1'),
      turn('I am a nurse.', 'system', 's1'),
      turn('I live in Berlin.', 'tool', 't1'),
      turn('I live in Berlin.', 'user', 'u1'),
    ];
    const facts = await extractor.extract({ turns, knownFacts: [] });
    expect(facts).toEqual([{ subject: 'user', predicate: 'lives_in', object: 'Berlin', text: 'User lives in Berlin.', sourceMessageIds: ['u1'], validFrom: CREATED_AT, confidence: 0.85 }]);
  });

  it('gives every fact its own turn as source, and keeps confidence in 0.5-0.9', async () => {
    const turns = [turn('My name is Sam. I love jazz.', 'user', 'u1'), { ...turn('I moved to Berlin.', 'user', 'u2'), createdAt: CREATED_AT + 60_000 }];
    const facts = await extractor.extract({ turns, knownFacts: [] });
    expect(facts.map((fact) => [fact.predicate, fact.sourceMessageIds, fact.validFrom])).toEqual([
      ['name', ['u1'], CREATED_AT],
      ['opinion_of:jazz', ['u1'], CREATED_AT],
      ['lives_in', ['u2'], CREATED_AT + 60_000],
    ]);
    for (const fact of facts) expect(fact.confidence).toBeGreaterThanOrEqual(0.5);
    for (const fact of facts) expect(fact.confidence).toBeLessThanOrEqual(0.9);
  });

  it('returns a fact repeated within one turn once', async () => {
    expect(await factsOf('I love jazz. Really, I love jazz!')).toEqual(['user|opinion_of:jazz|loves|User loves jazz.']);
  });

  it.each([
    // same item said differently: reuse the stored predicate exactly
    ['I hate jazz music.', 'opinion_of:Jazz-Music', 'user|opinion_of:Jazz-Music|hates|User hates jazz music.'],
    ['I love hiking.', 'opinion_of:hikes', 'user|opinion_of:hikes|loves|User loves hiking.'],
    ["I'm allergic to peanut.", 'allergy:peanuts', 'user|allergy:peanuts|allergic|User is allergic to peanut.'],
    // a single-valued slot named differently by another extractor
    ['I moved to Paris.', 'location', 'user|location|Paris|User lives in Paris.'],
    ['I work as a teacher.', 'occupation', 'user|occupation|teacher|User works as a teacher.'],
    // a different item keeps its own slot
    ['I love jazz.', 'opinion_of:jazz music', 'user|opinion_of:jazz|loves|User loves jazz.'],
  ])('%j with known %j -> %j', async (content, knownPredicate, expected) => {
    const known: KnownFact[] = [{ id: 'f1', subject: 'user', predicate: knownPredicate, object: 'x', text: 'known' }];
    expect(await factsOf(content, known)).toEqual([expected]);
  });

  it('does not reuse a predicate of another subject', async () => {
    const known: KnownFact[] = [{ id: 'f1', subject: 'anna', predicate: 'location', object: 'Rome', text: 'Anna lives in Rome.' }];
    expect(await factsOf('I live in Oslo.', known)).toEqual(['user|lives_in|Oslo|User lives in Oslo.']);
  });

  it('resolves dates on the UTC calendar of each turn', async () => {
    const late = { ...turn("I'm flying to Tokyo tomorrow."), createdAt: Date.parse('2026-11-20T23:30:00Z') };
    const [fact] = await extractor.extract({ turns: [late], knownFacts: [] });
    expect(fact?.object).toBe('2026-11-21');
  });
});

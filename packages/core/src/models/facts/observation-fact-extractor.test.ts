import { describe, expect, it, vi } from 'vitest';
import { createMemory } from '../../create-memory.js';
import type { Memory } from '../../services/memory.js';
import type { ExtractedFact, TranscriptTurn } from '../../domain/jobs.js';
import { informativenessOf, ObservationFactExtractor, observationDraftsOf } from './observation-fact-extractor.js';
import { type ObservationDraft, slotName } from './observation-facts.js';

// A Tuesday afternoon (UTC).
const CREATED_AT = Date.parse('2024-03-12T15:00:00Z');
const extractor = new ObservationFactExtractor();

function turn(content: string, overrides: Partial<TranscriptTurn> = {}): TranscriptTurn {
  return { id: 't1', seq: 1, role: 'user', name: 'Priya', content, createdAt: CREATED_AT, ...overrides };
}

/** The observations of one turn (profile slot facts, tested below, left out). */
async function textsOf(input: TranscriptTurn): Promise<string[]> {
  const facts = await extractor.extract({ turns: [input], knownFacts: [] });
  return facts.filter((fact) => fact.predicate.startsWith('observation:')).map((fact) => fact.text);
}

describe('ObservationFactExtractor', () => {
  it('is named for what it is', () => {
    expect(extractor.name).toBe('heuristic-observations');
  });

  it('reads a long batch in slices, letting other tasks run between turns, and finds the same observations', async () => {
    const batch = Array.from({ length: 12 }, (_, i) => turn(`I repaired an old sailboat with my uncle on day ${i + 1}.`, { id: `t${i}`, seq: i + 1 }));
    const expected = (await observationDraftsOf(batch)).map((draft) => draft.fact.text);
    // every reading of the clock says 3 ms more have passed: a slice ends every few turns
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 3));
    let otherTasks = 0;
    let counting = true;
    const other = (): void => {
      otherTasks++;
      if (counting) setImmediate(other);
    };
    try {
      setImmediate(other);
      const drafts = await observationDraftsOf(batch);
      expect(drafts.map((draft) => draft.fact.text)).toEqual(expected);
      expect(otherTasks).toBeGreaterThan(1);
    } finally {
      counting = false;
      clock.mockRestore();
    }
  });

  it.each([
    ['I repaired an old sailboat with my uncle.', ["Priya repaired an old sailboat with Priya's uncle."]],
    ['I went to a ceramics workshop yesterday.', ['Priya went to a ceramics workshop on 11 March 2024.']],
    ['We are driving to the coast next week.', ['Priya and others are driving to the coast in the week of 19 March 2024.']],
    ["I'm training for a half marathon in the autumn.", ['Priya is training for a half marathon in the autumn.']],
    ['I spend my weekends restoring vintage radios.', ["Priya spends Priya's weekends restoring vintage radios."]],
    ['Hey Tomas! I finally finished building the treehouse. It took three whole weekends!', ['Priya finally finished building the treehouse. It took three whole weekends.']],
    ["Thanks, Tomas. Injury's been rough, but I'm staying positive and training twice a week.", ["Injury's been rough, but Priya is staying positive and training twice a week."]],
    ['Thanks Tomas, it was amazing being around people who share my passion for birds.', ["It was amazing being around people who share Priya's passion for birds."]],
    ['Thanks for the map of the trails, I hiked the north ridge with my dad on Sunday.', ["Thanks for the map of the trails, Priya hiked the north ridge with Priya's dad on Sunday."]],
  ])('%j -> %j', async (content, expected) => {
    expect(await textsOf(turn(content))).toEqual(expected);
  });

  it.each([
    ['a question', 'Did you ever try rock climbing with your cousins?'],
    ['a greeting and thanks', 'Hi Tomas! Thanks so much, that means a lot!'],
    ['a remark about the other person', 'You chose a wonderful garden design and your kids are lovely.'],
    ['a hypothetical', 'If I had more money I would buy a small farm in the hills.'],
    ['an exclamation without content', 'Wow, so cool!'],
  ])('%s yields nothing', async (_, content) => {
    expect(await textsOf(turn(content))).toEqual([]);
  });

  it("reads an unnamed assistant's turn as the AI's and yields nothing; a named one as a person's", async () => {
    const content = 'I repaired an old sailboat with my uncle.';
    expect(await textsOf(turn(content, { role: 'assistant', name: undefined }))).toEqual([]);
    expect(await textsOf(turn(content, { role: 'assistant', name: 'Tomas' }))).toEqual(["Tomas repaired an old sailboat with Tomas's uncle."]);
  });

  it('says "User" when the speaker has no name', async () => {
    expect(await textsOf(turn('I repaired an old sailboat with my uncle.', { name: undefined }))).toEqual(["User repaired an old sailboat with User's uncle."]);
  });

  it('keeps provenance and time, and gives each statement a slot of its own', async () => {
    const facts = await extractor.extract({ turns: [turn('I adopted a greyhound from the shelter.'), turn('I started learning the cello this winter.', { id: 't2', seq: 2 })], knownFacts: [] });
    expect(facts.map(({ subject, sourceMessageIds, validFrom }) => ({ subject, sourceMessageIds, validFrom }))).toEqual([
      { subject: 'Priya', sourceMessageIds: ['t1'], validFrom: CREATED_AT },
      { subject: 'Priya', sourceMessageIds: ['t2'], validFrom: CREATED_AT },
    ]);
    expect(facts[0]?.predicate).toMatch(/^observation:/);
    expect(facts[0]?.predicate).not.toBe(facts[1]?.predicate);
  });

  it('leaves an opinion to its slot fact, which tells the whole sentence', async () => {
    const facts = await extractor.extract({ turns: [turn('I love jazz, especially on rainy evenings with a good book. Last month I went to a concert downtown.')], knownFacts: [] });
    expect(facts.map(({ predicate, text }) => [predicate, text])).toEqual([
      ['opinion_of:jazz', 'Priya loves jazz, especially on rainy evenings with a good book.'],
      ['observation:2024 concert downtown februari went', 'In February 2024 Priya went to a concert downtown.'],
    ]);
  });

  it('retells "you" in an opinion as the other speaker', async () => {
    const turns = [turn('I really like your banana bread recipe, it reminds me of my grandma.'), turn('Aw, thanks!', { id: 't2', seq: 2, role: 'assistant', name: 'Tomas' })];
    const facts = await extractor.extract({ turns, knownFacts: [] });
    expect(facts.map(({ predicate, text }) => [predicate, text])).toEqual([
      ['opinion_of:your banana bread recipe', "Priya really likes Tomas's banana bread recipe, it reminds Priya of Priya's grandma."],
    ]);
  });

  it('keeps the short opinion text when its sentence fills another slot too', async () => {
    const facts = await extractor.extract({ turns: [turn('I live in Lisbon and I love surfing.')], knownFacts: [] });
    expect(facts.map(({ predicate, text }) => [predicate, text])).toEqual([
      ['lives_in', 'Priya lives in Lisbon.'],
      ['opinion_of:surfing', 'Priya loves surfing.'],
    ]);
  });

  it('still yields the occupation slot, about the speaker', async () => {
    const facts = await extractor.extract({ turns: [turn('I work as a glassblower.')], knownFacts: [] });
    expect(facts.find((fact) => fact.predicate === 'job_title')).toMatchObject({ subject: 'priya', object: 'glassblower', text: 'Priya works as a glassblower.' });
    const unnamed = await extractor.extract({ turns: [turn('I work as a glassblower.', { name: undefined })], knownFacts: [] });
    expect(unnamed.find((fact) => fact.predicate === 'job_title')).toMatchObject({ subject: 'user', text: 'User works as a glassblower.' });
  });
});

describe('which turns of a batch yield an observation', () => {
  const talk = (...contents: string[]): TranscriptTurn[] =>
    contents.map((content, i) => turn(content, { id: `t${i}`, seq: i + 1, role: i % 2 === 0 ? 'user' : 'assistant', name: i % 2 === 0 ? 'Priya' : 'Tomas' }));
  const observed = async (turns: TranscriptTurn[]) =>
    (await extractor.extract({ turns, knownFacts: [] })).filter((fact) => fact.predicate.startsWith('observation:')).map((fact) => [fact.sourceMessageIds[0], fact.text]);

  it('keeps news about the speaker and drops reactions to it', async () => {
    expect(
      await observed(
        talk(
          'Last weekend I drove up to the lake with my brother and we caught three trout.',
          "Wow, that's so cool! Caught three trout at the lake with your brother, lucky you.",
          'Thanks! It was a great day with lots of fun.',
        ),
      ),
    ).toEqual([['t0', "In the week of 10 March 2024 Priya drove up to the lake with Priya's brother and Priya and others caught three trout."]]);
  });

  it('drops a turn that mostly echoes the other speaker, not the same words said after something else', async () => {
    const echo = 'Ha, I planted tomatoes and basil in my garden too!';
    expect(await observed(talk('I planted tomatoes, basil and peppers in the community garden last spring.', echo))).toEqual([
      ['t0', 'Priya planted tomatoes, basil and peppers in the community garden last spring.'],
    ]);
    expect(await observed(talk('My cousin is visiting from Chicago.', echo))).toEqual([
      ['t0', "Priya's cousin is visiting from Chicago."],
      ['t1', "Tomas planted tomatoes and basil in Tomas's garden too."],
    ]);
  });

  it('keeps a detail addressed to the other speaker only when who "you" is is known', async () => {
    const content = 'I finally passed my driving test yesterday. Your advice about parallel parking got me through it.';
    expect(await observed([turn(content, { id: 't0' }), turn('Congratulations!', { id: 't1', seq: 2, role: 'assistant', name: 'Tomas' })])).toEqual([
      ['t0', "Priya finally passed Priya's driving test on 11 March 2024. Tomas's advice about parallel parking got Priya through it."],
    ]);
    expect(await observed([turn(content, { id: 't0' })])).toEqual([['t0', "Priya finally passed Priya's driving test on 11 March 2024."]]);
  });

  it('retells a telling turn with no sentence about the speaker as theirs', async () => {
    expect(await observed(talk('Hiking to the summit at sunrise was breathtaking, the whole valley glowed.'))).toEqual([
      ['t0', 'Priya said: Hiking to the summit at sunrise was breathtaking, the whole valley glowed.'],
    ]);
  });

  const signals = { content: 8, anchors: 1, times: 0, isReaction: false, isGreeting: false };
  it.each([
    ['content words and a sentence about the speaker', signals, 0, 14],
    ['content words, counted up to 20', { ...signals, content: 30 }, 0, 26],
    ['two time words', { ...signals, times: 2 }, 0, 19],
    ['a greeting opener', { ...signals, isGreeting: true }, 0, 19],
    ['a reaction opener', { ...signals, isReaction: true }, 0, 10],
    ['half its terms echoing the other speaker', signals, 0.5, 10],
  ])('informativeness: %s', (_, turnSignals, repeated, expected) => {
    const fact = { subject: 'Priya', predicate: 'observation:x', object: 'x', text: 'x', sourceMessageIds: ['t1'], validFrom: CREATED_AT, confidence: 0.6 };
    const draft: ObservationDraft = { fact, signals: turnSignals, repeated };
    expect(informativenessOf(draft)).toBe(expected);
  });
});

/** A memory with one session in `namespace`; `say` appends a user turn a minute after the last, named `name` when given. */
async function inChat(namespace: string, name: string | undefined, run: (say: (content: string) => Promise<void>, memory: Memory) => Promise<void>): Promise<void> {
  let now = CREATED_AT;
  const memory = await createMemory({ clock: { now: () => now } });
  try {
    const session = await memory.sessions.create({ namespace });
    const say = async (content: string) => {
      now += 60_000;
      await memory.append(session.id, { role: 'user', ...(name === undefined ? {} : { name }), content, createdAt: now });
    };
    await run(say, memory);
  } finally {
    await memory.close();
  }
}

describe('the voices of a batch', () => {
  it('carries who "we" takes in to the speaker\'s next turn only, and names an unnamed user by their known name', async () => {
    const said = (id: string, role: TranscriptTurn['role'], content: string): TranscriptTurn => ({ id, seq: Number(id.slice(1)), role, content, createdAt: CREATED_AT });
    const turns = [
      said('t1', 'user', 'My brother Ravi is visiting next Friday, we might go to the races together.'),
      said('t2', 'assistant', 'That sounds like fun!'),
      said('t3', 'user', 'I hate noisy crowds though, so we will arrive early.'),
      said('t4', 'user', 'Work has been hectic, we are moving our servers to a new building.'),
    ];
    const knownFacts = [{ id: 'f1', subject: 'user', predicate: 'name', object: 'Dana', text: "User's name is Dana." }];
    const texts = (await extractor.extract({ turns, knownFacts })).map((fact) => `${fact.sourceMessageIds[0]}: ${fact.text}`);
    // t1 (a plan that "might" happen) is not kept itself, but names who "we" is in t3; t4 is two turns on
    expect(texts).toEqual(['t3: Dana hates noisy crowds though, so Dana and Ravi will arrive early.', "t4: Work has been hectic, Dana and others are moving Dana's servers to a new building."]);
  });
});

describe('ObservationFactExtractor through the memory API', () => {
  it('lets a change of opinion supersede the old one, with no observation of it left current', async () => {
    await inChat('priya', 'Priya', async (say, memory) => {
      await say('I love jazz, especially on rainy evenings with a good book.');
      await say("I don't like jazz anymore, it feels too busy these days.");
      await memory.flush();
      const current = await memory.facts.list({ namespace: 'priya' });
      expect(current.map((fact) => fact.text)).toEqual(["Priya doesn't like jazz anymore, it feels too busy these days."]);
    });
  });

  it('retells an unnamed user by the name they gave in an earlier exchange, and "we" as the one person they named with them', async () => {
    await inChat('dana', undefined, async (say, memory) => {
      await say('Hi, my name is Dana.');
      await memory.flush();
      await say('I went sailing with Jonas last weekend. We capsized twice near the harbour!');
      await memory.flush();
      const facts = await memory.facts.list({ namespace: 'dana' });
      const texts = facts.map((fact) => fact.text);
      // the slot keeps the statement's key terms without the speaker's name, as it did when she was "User"
      expect(facts.filter((fact) => fact.predicate.startsWith('observation:') && fact.predicate.includes('dana'))).toEqual([]);
      expect(texts).toContain("User's name is Dana.");
      expect(texts).toContain('Dana went sailing with Jonas in the week of 10 March 2024. Dana and Jonas capsized twice near the harbour.');
      expect(texts.filter((text) => /\bUser\b/.test(text))).toEqual(["User's name is Dana."]);
    });
  });

  it('merges an observation that says what an earlier one said, near enough, into it, keeping the sources of both', async () => {
    await inChat('priya', 'Priya', async (say, memory) => {
      await say('I adopted a greyhound named Biscuit from the local shelter.');
      await memory.flush();
      await say('Oh, and I adopted a greyhound named Biscuit from the shelter.');
      await say('I repaired an old sailboat with my uncle.');
      await memory.flush();
      const observations = (await memory.facts.list({ namespace: 'priya' })).filter((fact) => fact.predicate.startsWith('observation:'));
      const biscuit = observations.filter((fact) => fact.text.includes('Biscuit'));
      expect(biscuit.map((fact) => fact.text)).toEqual(['Priya adopted a greyhound named Biscuit from the local shelter.']);
      expect(biscuit[0]?.sourceMessageIds).toHaveLength(2);
      // a different statement keeps a slot of its own
      expect(observations.map((fact) => fact.text)).toContain("Priya repaired an old sailboat with Priya's uncle.");
    });
  });

  it('lets a new job supersede the old one, keeps other observations current, and merges a repeated one', async () => {
    await inChat('priya', 'Priya', async (say, memory) => {
      await say('I work as a glassblower.');
      await say('I adopted a greyhound from the shelter.');
      await say('I adopted a greyhound from the shelter.');
      await say('I now work as a baker.');
      await memory.flush();
      const current = await memory.facts.list({ namespace: 'priya' });
      const all = await memory.facts.list({ namespace: 'priya', includeSuperseded: true });
      expect(current.filter((fact) => fact.predicate === 'job_title').map((fact) => fact.object)).toEqual(['baker']);
      expect(all.find((fact) => fact.object === 'glassblower')?.validTo).toBeDefined();
      const greyhound = current.filter((fact) => fact.text === 'Priya adopted a greyhound from the shelter.');
      expect(greyhound).toHaveLength(1);
      expect(greyhound[0]?.sourceMessageIds).toHaveLength(2);
    });
  });
});

describe('slotName', () => {
  it("names an observation's slot with its statement's words, in their order, not with stems; other slots as they are", async () => {
    const facts = await extractor.extract({ turns: [turn('I repaired an old sailboat with my uncle, and we painted the hull blue.')], knownFacts: [] });
    const observation = facts.find((fact) => fact.predicate.startsWith('observation:'));
    expect(observation?.predicate).toMatch(/^observation:.*repair/);
    expect(slotName(observation as ExtractedFact)).toBe('repaired old sailboat uncle others painted hull blue');
    expect(slotName({ predicate: 'lives_in', text: 'Priya lives in Lima.' })).toBe('lives_in');
    // a term the text no longer gives (edited by hand) is kept as it is
    expect(slotName({ predicate: 'observation:boat potteri', text: 'Priya took a boat.' })).toBe('boat potteri');
  });
});

import { describe, expect, it } from 'vitest';
import type { Fact } from '../../domain/derived.js';
import { factEntities } from './fact-entities.js';

let next = 0;
function fact(subject: string, predicate: string, object: string, text: string, validTo?: number): Fact {
  next += 1;
  return {
    id: `f${next}`,
    namespace: 'ns',
    subject,
    predicate,
    object,
    text,
    sourceMessageIds: [`m${next}`],
    validFrom: next,
    ...(validTo === undefined ? {} : { validTo }),
    confidence: 0.8,
    createdAt: next,
    degraded: false,
  };
}

const summary = (facts: Fact[]) => factEntities(facts).map((e) => ({ name: e.name, about: e.about.map((f) => f.id), namedIn: e.namedIn.map((f) => f.id) }));

describe('factEntities', () => {
  it('names an unnamed user by their name fact and groups what names a sister, a city and an employer', () => {
    const name = fact('user', 'name', 'Noor', "User's name is Noor.");
    const sister = fact('user', 'sister', 'Ines', "User's sister is Ines.");
    const trip = fact('user', 'observation:ines saturday start trail', 'Noor and Ines will start the trail early.', 'Noor and Ines will start the trail early.');
    const work = fact('user', 'employer', 'Quillmark', 'Noor works at Quillmark.');
    const entities = summary([name, sister, trip, work]);
    expect(entities[0]).toEqual({ name: 'Noor', about: [name.id, sister.id, trip.id, work.id], namedIn: [] });
    expect(entities.find((e) => e.name === 'Ines')).toEqual({ name: 'Ines', about: [], namedIn: [sister.id, trip.id] });
    expect(entities.find((e) => e.name === 'Quillmark')?.namedIn).toEqual([work.id]);
    // what each is, as the slots say: the speaker and a relative are people, an employer an organisation
    expect(factEntities([name, sister, trip, work]).map((e) => [e.name, e.kind])).toEqual([
      ['Noor', 'person'],
      ['Ines', 'person'],
      ['Quillmark', 'organisation'],
    ]);
    // the user's own name is not an entity of its own
    expect(entities.filter((e) => e.name === 'Noor')).toHaveLength(1);
  });

  it("links what a fact calls a relative ('Noor's sister') to the name another fact gives her", () => {
    const name = fact('user', 'name', 'Noor', "User's name is Noor.");
    const sister = fact('user', 'sister', 'Ines', "User's sister is Ines.");
    const hike = fact('user', 'observation:sister hike', 'x', "Noor's sister wants to go hiking again.");
    const sisters = fact('user', 'observation:sisterhood', 'y', 'Noor read a novel about sisterhood.');
    const ines = summary([name, sister, hike, sisters]).find((e) => e.name === 'Ines');
    expect(ines).toEqual({ name: 'Ines', about: [], namedIn: [sister.id, hike.id] });
  });

  it('a move keeps both cities, each with the fact that names it, current or superseded', () => {
    const before = fact('user', 'lives_in', 'Tarvik', 'Noor lives in Tarvik.', 10);
    const after = fact('user', 'lives_in', 'Olmstead', 'Noor lives in Olmstead.');
    const entities = summary([fact('user', 'name', 'Noor', "User's name is Noor."), before, after]);
    expect(entities.find((e) => e.name === 'Tarvik')?.namedIn).toEqual([before.id]);
    expect(entities.find((e) => e.name === 'Olmstead')?.namedIn).toEqual([after.id]);
    const cities = factEntities([fact('user', 'name', 'Noor', "User's name is Noor."), before, after]).filter((e) => e.name === 'Tarvik' || e.name === 'Olmstead');
    expect(cities.map((e) => e.kind)).toEqual(['place', 'place']);
  });

  it('links a first name to the one full name it starts, and a subject to the name the facts call it', () => {
    const full = fact('user', 'brother', 'Tomas Ferreira', "User's brother is Tomas Ferreira.");
    const later = fact('tomas', 'lives_in', 'Valdora', 'Tomas lives in Valdora.');
    const entities = summary([full, later]);
    // "Tomas" (the subject of the second fact) is the Tomas Ferreira the first one names: one entity
    expect(entities.filter((e) => e.name.startsWith('Tomas'))).toHaveLength(1);
    expect(entities.find((e) => e.name.startsWith('Tomas'))).toMatchObject({ about: [later.id], namedIn: [full.id] });
  });

  it('keeps two people with one first name apart, and a bare first name apart from both', () => {
    const lopez = fact('user', 'observation:a', 'Mira Lopez', 'Noor met Mira Lopez at the climbing gym.');
    const chen = fact('user', 'observation:b', 'Mira Chen', 'Noor cooked dinner with Mira Chen.');
    const bare = fact('user', 'observation:c', 'Mira', 'Mira lent Noor a tent.');
    const entities = summary([fact('user', 'name', 'Noor', "User's name is Noor."), lopez, chen, bare]);
    expect(entities.find((e) => e.name === 'Mira Lopez')?.namedIn).toEqual([lopez.id]);
    expect(entities.find((e) => e.name === 'Mira Chen')?.namedIn).toEqual([chen.id]);
    expect(entities.find((e) => e.name === 'Mira')?.namedIn).toEqual([bare.id]);
  });

  it('an entity whose only fact is forgotten is gone', () => {
    const facts = [fact('user', 'name', 'Noor', "User's name is Noor."), fact('user', 'employer', 'Quillmark', 'Noor works at Quillmark.')];
    expect(summary(facts).map((e) => e.name)).toContain('Quillmark');
    expect(summary(facts.slice(0, 1)).map((e) => e.name)).toEqual(['Noor']);
  });
});

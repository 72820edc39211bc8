import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, factEntities, type Memory, type StoredMessage } from '../src/index.js';

const WEEK = 7 * 86_400_000;
const T0 = Date.UTC(2025, 0, 5, 10);
const opened: Memory[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

/** A made-up chat, derived by the offline models: a brother by full name then first name, a move, two people named Mira and a bare Mira. */
async function derivedChat(): Promise<{ memory: Memory; turns: StoredMessage[] }> {
  const memory = await createMemory({ clock: { now: () => T0 + 20 * WEEK } });
  opened.push(memory);
  const session = await memory.sessions.create({ namespace: 'noor' });
  const turns = await memory.append(
    session.id,
    [
      "Hi! I'm Noor, I live in Tarvik and work at Quillmark.",
      'My brother Tomas Ferreira lives in Valdora.',
      'My sister is called Ines.',
      'Ines and I went climbing with Mira Lopez on Saturday.',
      'Big news: I moved to Olmstead last week.',
      'I visited Tomas in Valdora last weekend and we hiked the whole coast together.',
      'I had lunch with Mira Chen on Friday, she just opened a small bakery downtown.',
      'Mira sent me a photo of her new mountain bike, I want one now.',
    ].map((content, i) => ({ role: 'user' as const, content, createdAt: T0 + i * WEEK })),
  );
  await memory.flush();
  return { memory, turns };
}

const entitiesOf = async (memory: Memory) => factEntities(await memory.facts.list({ namespace: 'noor', includeSuperseded: true }));

describe('entities of a derived chat', () => {
  it('links a first name to the full name said before, keeps two Miras and a bare Mira apart, and keeps both cities of a move', async () => {
    const { memory, turns } = await derivedChat();
    const entities = await entitiesOf(memory);
    const named = (name: string) => entities.find((e) => e.name === name);
    expect(entities[0]).toMatchObject({ name: 'Noor', kind: 'person' });
    // "Tomas" after "Tomas Ferreira": one person, about whom one fact is (where he lives), named in the others
    expect(entities.filter((e) => e.name.startsWith('Tomas')).map((e) => e.name)).toEqual(['Tomas Ferreira']);
    const tomas = named('Tomas Ferreira');
    expect(tomas?.kind).toBe('person');
    expect(tomas?.about.map((f) => f.text)).toEqual(['Tomas Ferreira lives in Valdora.']);
    expect(tomas?.namedIn.flatMap((f) => f.sourceMessageIds)).toEqual(expect.arrayContaining([turns[1]?.id, turns[5]?.id]));
    // two people named Mira, and a Mira the chat does not say which
    expect(['Mira Lopez', 'Mira Chen', 'Mira'].map((name) => named(name)?.namedIn.flatMap((f) => f.sourceMessageIds))).toEqual([[turns[3]?.id], [turns[6]?.id], [turns[7]?.id]]);
    // the move: the old city from a superseded fact, the new from the current one
    expect(named('Tarvik')).toMatchObject({ kind: 'place' });
    expect(named('Tarvik')?.namedIn.map((f) => f.validTo === undefined)).toEqual([false]);
    expect(named('Olmstead')?.namedIn.map((f) => f.validTo === undefined)).toEqual([true]);
    // a weekday is a date, not an entity
    expect(named('Saturday')).toBeUndefined();
  });

  it('forgetting the only turn that names an entity removes it (and the city before it is current again)', async () => {
    const { memory, turns } = await derivedChat();
    await memory.forget({ messageIds: [turns[4]?.id as string] });
    const entities = await entitiesOf(memory);
    expect(entities.find((e) => e.name === 'Olmstead')).toBeUndefined();
    expect(entities.find((e) => e.name === 'Tarvik')?.namedIn.map((f) => f.validTo === undefined)).toEqual([true]);
  });
});

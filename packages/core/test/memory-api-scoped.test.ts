import { describe, expect, it } from 'vitest';
import { StrataError } from '../src/errors/strata-error.js';
import type { MemoryApi } from '../src/services/memory-api.js';
import { createTestMemory } from './helpers.js';

async function codeOf(call: Promise<unknown>): Promise<string | undefined> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  return StrataError.is(error) ? error.code : String(error);
}

const slot = (facts: { predicate: string; object: string; validTo?: number }[], predicate: string) => facts.filter((f) => f.predicate === predicate && f.validTo === undefined).map((f) => f.object);

describe('forget by fact id, and ids scoped to a namespace', () => {
  it('forgets a fact by id, makes the one it superseded current again, and keeps its turns', async () => {
    const { memory, knowledge } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'ana' });
    await memory.append(session.id, [
      { role: 'user', content: 'I live in Porto.' },
      { role: 'assistant', content: 'Noted.' },
    ]);
    await memory.append(session.id, [
      { role: 'user', content: 'I moved, I live in Lyon now.' },
      { role: 'assistant', content: 'Noted again.' },
    ]);
    for (let i = 0; i < 8; i++) await memory.append(session.id, { role: i % 2 ? 'assistant' : 'user', content: `We talked about the weather, part ${i}.` });
    await memory.flush();
    const facts = await memory.facts.list({ namespace: 'ana', includeSuperseded: true });
    expect(slot(facts, 'lives_in')).toEqual(['Lyon']);
    const lyon = facts.find((f) => f.predicate === 'lives_in' && f.object === 'Lyon')!;
    const turns = (await memory.messages(session.id)).length;
    const report = await memory.forget({ factIds: [lyon.id], namespace: 'ana' });
    expect(report).toMatchObject({ facts: 1, factsRestored: 1, messages: 0, sessions: 0 });
    expect(slot(await memory.facts.list({ namespace: 'ana' }), 'lives_in')).toEqual(['Porto']);
    expect((await memory.facts.list({ namespace: 'ana', includeSuperseded: true })).some((f) => f.id === lyon.id)).toBe(false);
    expect(await knowledge.count({ namespace: 'ana', kinds: ['fact'] })).toBe((await memory.facts.list({ namespace: 'ana', includeSuperseded: true })).length);
    expect(await memory.messages(session.id)).toHaveLength(turns);
    await memory.close();
  });

  it('answers an id of another namespace exactly like an unknown id, and forgets nothing', async () => {
    const { memory } = await createTestMemory();
    const mine = await memory.sessions.create({ namespace: 'mine' });
    const theirs = await memory.sessions.create({ namespace: 'theirs' });
    const [own] = await memory.append(mine.id, { role: 'user', content: 'I live in Porto.' });
    const [foreign] = await memory.append(theirs.id, { role: 'user', content: 'I live in Lyon.' });
    await memory.flush();
    const foreignFact = (await memory.facts.list({ namespace: 'theirs' }))[0]!;
    const unknown = await memory.forget({ messageIds: ['msg_nope'], namespace: 'mine' }).catch((e: StrataError) => e);
    const other = await memory.forget({ messageIds: [foreign!.id], namespace: 'mine' }).catch((e: StrataError) => e);
    expect(StrataError.is(other, 'NOT_FOUND')).toBe(true);
    expect((other as StrataError).message.replace(foreign!.id, 'ID')).toBe((unknown as StrataError).message.replace('msg_nope', 'ID'));
    expect(await codeOf(memory.forget({ messageIds: [own!.id, foreign!.id], namespace: 'mine' }))).toBe('NOT_FOUND');
    expect(await codeOf(memory.forget({ factIds: [foreignFact.id], namespace: 'mine' }))).toBe('NOT_FOUND');
    expect(await memory.messages(mine.id)).toHaveLength(1);
    expect(await memory.messages(theirs.id)).toHaveLength(1);
    expect((await memory.facts.list({ namespace: 'theirs' })).map((f) => f.id)).toContain(foreignFact.id);
    await memory.close();
  });
});

describe('paging reads', () => {
  it('lists sessions updated before a time, and messages between two seqs', async () => {
    const { memory } = await createTestMemory();
    const api: MemoryApi = memory;
    const first = await api.sessions.create({ namespace: 'p' });
    const second = await api.sessions.create({ namespace: 'p' });
    expect((await api.sessions.list({ namespace: 'p', updatedBefore: second.updatedAt })).map((s) => s.id)).toEqual([first.id]);
    await api.append(
      first.id,
      Array.from({ length: 6 }, (_, i) => ({ role: 'user' as const, content: `turn ${i + 1}` })),
    );
    expect((await api.messages(first.id, { fromSeq: 2, toSeq: 4 })).map((m) => m.seq)).toEqual([2, 3, 4]);
    expect(await api.pending()).toEqual(expect.any(Array));
    await memory.close();
  });
});

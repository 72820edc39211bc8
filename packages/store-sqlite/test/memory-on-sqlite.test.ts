import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createInlineJobQueue, createMemory, type SessionStore } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempPath(name = 'memory.sqlite'): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-memory-'));
  dirs.push(dir);
  return join(dir, name);
}

async function openMemory(path: string) {
  const store = await createSqliteSessionStore({ path });
  const knowledge = await createSqliteKnowledgeBase({ path });
  const memory = await createMemory({
    store,
    knowledge,
    queue: await createInlineJobQueue(),
    policy: { immediate: { maxMessages: 6, minMessages: 2 }, working: { batchMessages: 3, maxSummaries: 3 } },
  });
  return { memory, store, knowledge };
}

async function converse(memory: Awaited<ReturnType<typeof openMemory>>['memory']) {
  const session = await memory.sessions.create({ namespace: 'u1', title: 'Planning' });
  await memory.append(session.id, { role: 'user', content: 'I live in Paris.', createdAt: '2026-10-01T09:00:00Z' });
  for (let i = 0; i < 14; i++) {
    await memory.append(session.id, { role: i % 2 ? 'assistant' : 'user', content: `Trip planning note ${i} about the Kyoto temples.` });
  }
  await memory.append(session.id, [
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'weather', args: { city: 'Kyoto' } }] },
    { role: 'tool', content: '{"forecast":"rain"}', toolCallId: 'call_1', name: 'weather' },
  ]);
  await memory.append(session.id, { role: 'user', content: 'I moved to Berlin.', createdAt: '2026-11-01T09:00:00Z' });
  await memory.flush();
  return session;
}

const reads = (store: SessionStore, sessionId: string) =>
  Promise.all([
    store.sessions({ ids: [sessionId] }),
    store.messages({ sessionId }),
    store.summaries({ sessionId }),
    store.jobs({ sessionId }),
    store.facts({ namespace: 'u1', includeSuperseded: true }),
  ]);

describe('a memory on SQLite', () => {
  it('persists every tier across close and reopen of the file', async () => {
    const path = tempPath();
    const first = await openMemory(path);
    const session = await converse(first.memory);
    const before = await reads(first.store, session.id);
    const contextBefore = await first.memory.getContext(session.id, { query: 'Where do I live?', budgetTokens: 800 });
    await first.memory.close();

    const second = await openMemory(path);
    expect(await reads(second.store, session.id)).toEqual(before);
    const contextAfter = await second.memory.getContext(session.id, { query: 'Where do I live?', budgetTokens: 800 });
    expect(contextAfter.messages.map((m) => m.content)).toEqual(contextBefore.messages.map((m) => m.content));
    expect((await second.memory.facts.list({ namespace: 'u1' })).find((f) => f.predicate === 'lives_in')?.object).toBe('Berlin');
    await second.memory.close();
  });

  it('exports and imports losslessly between two SQLite files', async () => {
    const source = await openMemory(tempPath('a.sqlite'));
    const session = await converse(source.memory);
    const bundle = await source.memory.export(session.id, { format: 'json' });
    const target = await openMemory(tempPath('b.sqlite'));
    await target.memory.import(bundle);
    expect(await reads(target.store, session.id)).toEqual(await reads(source.store, session.id));
    const strip = (text: string) => ({ ...(JSON.parse(text) as object), exportedAt: null });
    expect(strip(await target.memory.export(session.id, { format: 'json' }))).toEqual(strip(bundle));
    for (const format of ['jsonl', 'markdown', 'text'] as const) {
      expect(await target.memory.export(session.id, { format })).toBe(await source.memory.export(session.id, { format }));
    }
    expect((await target.memory.search({ namespace: 'u1', query: 'Kyoto temples', k: 3 })).length).toBeGreaterThan(0);
    await source.memory.close();
    await target.memory.close();
  });

  it('rebuilds the embedded knowledge base from the store (reindex)', async () => {
    const { memory, knowledge } = await openMemory(tempPath());
    await converse(memory);
    const queries = ['Kyoto temples', 'where do I live', 'weather forecast'];
    const search = () => Promise.all(queries.map((query) => memory.search({ namespace: 'u1', query, k: 5 })));
    const before = await search();
    const count = await knowledge.count({});
    await knowledge.delete({ filter: {} });
    expect(await knowledge.count({})).toBe(0);
    await memory.reindex();
    expect(await knowledge.count({})).toBe(count);
    expect(await search()).toEqual(before);
    await memory.close();
  });
});

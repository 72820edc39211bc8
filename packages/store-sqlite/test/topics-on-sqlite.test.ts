import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createInlineJobQueue, createMemory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '../src/index.js';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 20, 10, 0, 0);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function openMemory(path: string, clock: { now: () => number }) {
  const store = await createSqliteSessionStore({ path });
  const memory = await createMemory({
    store,
    knowledge: await createSqliteKnowledgeBase({ path }),
    queue: await createInlineJobQueue(),
    clock,
    policy: { topics: { similarityThreshold: 0.2 }, decay: { baseHalfLifeMs: HOUR, floor: 0.1 } },
  });
  return { memory, store };
}

describe('topics on SQLite', () => {
  it('a cold topic survives a restart compressed, reads and searches losslessly, and comes back on access', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-topics-'));
    dirs.push(dir);
    const path = join(dir, 'memory.sqlite');
    let now = START;
    const clock = { now: () => now };
    const first = await openMemory(path, clock);
    const session = await first.memory.sessions.create({ namespace: 'ana' });
    await first.memory.append(session.id, [
      { role: 'user', content: 'Are the Berlin bike lanes good for cycling to work?' },
      { role: 'assistant', content: 'Berlin bike lanes are wide; cycling along the canal bike lanes is popular.' },
    ]);
    now += 60_000;
    await first.memory.append(session.id, [
      { role: 'user', content: 'Give me a lasagna recipe with spinach and ricotta.' },
      { role: 'assistant', content: 'Layer lasagna sheets with spinach, ricotta and tomato sauce.' },
    ]);
    const verbatim = await first.memory.messages(session.id);
    now += 3 * HOUR;
    const report = await first.memory.topics.decay();
    expect(report.compressed).toBe(2);
    await first.memory.close();

    const second = await openMemory(path, clock);
    const [cold] = await second.memory.topics.list(session.id);
    expect(cold).toMatchObject({ isActive: false, activeMessages: 0, compressedMessages: 2 });
    expect(await second.memory.messages(session.id)).toEqual(verbatim);
    const hits = await second.memory.search({ namespace: 'ana', query: 'canal cycling', k: 1, kinds: ['turn'], contextDepth: 1 });
    expect(hits.map((h) => [h.text, h.thread?.map((s) => s.content)])).toEqual([[verbatim[1]?.content, [verbatim[0]?.content]]]);
    expect((await second.memory.topics.list(session.id))[0]).toMatchObject({ isActive: true, activeMessages: 2, compressedMessages: 0, accessCount: 1 });
    expect(await second.memory.toMermaid(session.id)).toContain('t1 --> t2');
    await second.memory.close();
  });
});

import { describe, expect, it } from 'vitest';
import { createMemory } from '../src/create-memory.js';
import { createInMemoryKnowledgeBase } from '../src/adapters/knowledge/in-memory-knowledge-base.js';
import { createInMemorySessionStore } from '../src/adapters/in-memory/in-memory-session-store.js';
import { steppingClock } from './helpers.js';

describe('applying a derivation result leaves the event loop between its steps', () => {
  it('a macrotask of the app runs between the knowledge-base write and topic attachment of one ingest', async () => {
    const events: string[] = [];
    const store = await createInMemorySessionStore();
    const knowledge = await createInMemoryKnowledgeBase();
    const upsert = knowledge.upsert.bind(knowledge);
    knowledge.upsert = async (entries) => {
      await upsert(entries);
      events.push('kb');
      // what the app would run next: a timer, an I/O callback
      setImmediate(() => events.push('app'));
    };
    const writeTopics = store.writeTopics.bind(store);
    store.writeTopics = async (ops) => {
      events.push('topics');
      await writeTopics(ops);
    };
    const memory = await createMemory({ store, knowledge, clock: steppingClock() });
    const session = await memory.sessions.create({ namespace: 'ns' });
    await memory.append(
      session.id,
      Array.from({ length: 24 }, (_, i) => ({
        role: i % 2 ? ('assistant' as const) : ('user' as const),
        name: i % 2 ? 'Ana' : 'Ben',
        content: `I adopted a cat named Miso ${i} and moved to Porto last week.`,
      })),
    );
    await memory.flush();
    await memory.close();
    const firstKb = events.indexOf('kb');
    const nextTopics = events.indexOf('topics', firstKb);
    expect(firstKb).toBeGreaterThanOrEqual(0);
    expect(nextTopics).toBeGreaterThan(firstKb);
    expect(events.slice(firstKb, nextTopics)).toContain('app');
  });
});

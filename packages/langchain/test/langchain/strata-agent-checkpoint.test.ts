import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Command, interrupt, MemorySaver, type BaseCheckpointSaver } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { promptText, type OpenAiStub } from '@strata/testkit';
import { createStrataMiddleware } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';
import { chatRequests, getWeather, startStubModel, storedTurns, textOf, weatherReplies, weatherTurns } from './openai-stub-model.js';

let stub: OpenAiStub | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A SQLite checkpointer on a file of its own, removed after the test. */
function sqliteSaver(): BaseCheckpointSaver {
  const dir = mkdtempSync(join(tmpdir(), 'strata-checkpoint-'));
  const saver = SqliteSaver.fromConnString(join(dir, 'checkpoints.db'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return saver;
}

const savers: [string, () => BaseCheckpointSaver][] = [
  ['MemorySaver', () => new MemorySaver()],
  ['SqliteSaver', sqliteSaver],
];

const bookTrip = tool(async ({ city }: { city: string }) => `booked ${city}: ${String(interrupt({ question: `Book a trip to ${city}?` }))}`, {
  name: 'book_trip',
  description: 'Books a trip after the user confirms.',
  schema: z.object({ city: z.string() }),
});

describe.each(savers)('createStrataMiddleware beside a checkpointer (%s)', (_name, makeSaver) => {
  it('appends each message once across runs of a thread and keeps one watermark in the state', async () => {
    const { memory } = await createTestMemory();
    const started = await startStubModel({ chat: [...weatherReplies(), 'You asked about Lisbon.'] });
    stub = started.stub;
    const agent = createAgent({ model: started.model, tools: [getWeather], middleware: [createStrataMiddleware({ memory, namespace: 'u1' })], checkpointer: makeSaver() });
    const config = { configurable: { thread_id: randomUUID() } };
    await agent.invoke({ messages: [new HumanMessage('Weather in Lisbon?')] }, config);
    const second = await agent.invoke({ messages: [new HumanMessage('Which city did I ask about?')] }, config);
    expect(second.messages).toHaveLength(6);
    expect(await storedTurns(memory, config.configurable.thread_id)).toEqual([
      ...weatherTurns('Weather in Lisbon?'),
      { role: 'user', content: 'Which city did I ask about?' },
      { role: 'assistant', content: 'You asked about Lisbon.' },
    ]);
    // The checkpointed history is not sent twice: strata's context replaces it.
    expect(chatRequests(stub)[2]?.messages.filter((m) => textOf(m) === 'Weather in Lisbon?')).toHaveLength(1);
    // O(1) state: the id of the newest message appended, not a list that grows with the thread.
    const state = await agent.graph.getState(config);
    expect(state.values).toMatchObject({ strataWatermark: second.messages.at(-1)?.id });
    expect(Object.keys(state.values).sort()).toEqual(['messages', 'strataWatermark']);
    await memory.close();
  });

  it("prompts with strata's context, not the checkpoint's full history", async () => {
    const { memory } = await createTestMemory();
    const started = await startStubModel({ chat: ['Noted: Lisbon.', 'Noted: jazz.', 'You like jazz.'] });
    stub = started.stub;
    const agent = createAgent({ model: started.model, tools: [], middleware: [createStrataMiddleware({ memory, namespace: 'u1', budgetTokens: 30 })], checkpointer: makeSaver() });
    const config = { configurable: { thread_id: randomUUID() } };
    for (const text of ['I moved to Lisbon last spring and love the tiles.', 'My favourite music is jazz, mostly Coltrane.', 'What music do I like?']) {
      await agent.invoke({ messages: [new HumanMessage(text)] }, config);
    }
    expect((await agent.graph.getState(config)).values.messages).toHaveLength(6);
    const last = chatRequests(stub)[2];
    expect(last && promptText(last)).not.toContain('I moved to Lisbon last spring');
    expect(textOf(last?.messages.at(-1))).toBe('What music do I like?');
    expect(await storedTurns(memory, config.configurable.thread_id)).toHaveLength(6);
    await memory.close();
  });

  it('resumes after a tool interrupt and appends every message exactly once', async () => {
    const { memory } = await createTestMemory();
    const started = await startStubModel({ chat: [{ toolCalls: [{ id: 'call_bk', name: 'book_trip', args: { city: 'Oslo' } }] }, 'Your trip to Oslo is booked.'] });
    stub = started.stub;
    const agent = createAgent({ model: started.model, tools: [bookTrip], middleware: [createStrataMiddleware({ memory, namespace: 'u1' })], checkpointer: makeSaver() });
    const config = { configurable: { thread_id: randomUUID() } };
    const paused = await agent.invoke({ messages: [new HumanMessage('Book me a trip to Oslo.')] }, config);
    expect(paused.__interrupt__?.[0]?.value).toEqual({ question: 'Book a trip to Oslo?' });
    expect(await storedTurns(memory, config.configurable.thread_id)).toEqual([{ role: 'user', content: 'Book me a trip to Oslo.' }]);
    const done = await agent.invoke(new Command({ resume: 'yes' }), config);
    expect(done.messages.at(-1)?.text).toBe('Your trip to Oslo is booked.');
    expect(await storedTurns(memory, config.configurable.thread_id)).toEqual([
      { role: 'user', content: 'Book me a trip to Oslo.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_bk', name: 'book_trip', args: { city: 'Oslo' } }] },
      { role: 'tool', content: 'booked Oslo: yes', toolCallId: 'call_bk' },
      { role: 'assistant', content: 'Your trip to Oslo is booked.' },
    ]);
    await memory.close();
  });

  it('drops a tool call left unanswered by an abandoned interrupt from the next prompt', async () => {
    const { memory } = await createTestMemory();
    const started = await startStubModel({ chat: [{ content: 'Let me book that.', toolCalls: [{ id: 'call_bk', name: 'book_trip', args: { city: 'Oslo' } }] }, 'Oslo is the capital of Norway.'] });
    stub = started.stub;
    const agent = createAgent({ model: started.model, tools: [bookTrip], middleware: [createStrataMiddleware({ memory, namespace: 'u1' })], checkpointer: makeSaver() });
    const config = { configurable: { thread_id: randomUUID() } };
    await agent.invoke({ messages: [new HumanMessage('Book me a trip to Oslo.')] }, config);
    // instead of resuming, the user moves on
    const next = await agent.invoke({ messages: [new HumanMessage('Never mind. What is the capital of Norway?')] }, config);
    expect(next.messages.at(-1)?.text).toBe('Oslo is the capital of Norway.');
    const prompt = chatRequests(stub)[1];
    expect(prompt?.messages.some((m) => m.tool_calls?.length)).toBe(false);
    expect(prompt?.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'Book me a trip to Oslo.'],
      ['assistant', 'Let me book that.'],
      ['user', 'Never mind. What is the capital of Norway?'],
    ]);
    await memory.close();
  });

  it('appends each message once for concurrent runs on different threads', async () => {
    const { memory } = await createTestMemory();
    const started = await startStubModel({ chat: (request) => `Echo: ${textOf(request.messages.at(-1))}` });
    stub = started.stub;
    const agent = createAgent({ model: started.model, tools: [], middleware: [createStrataMiddleware({ memory, namespace: 'u1' })], checkpointer: makeSaver() });
    const threads = Array.from({ length: 4 }, () => randomUUID());
    for (const round of [1, 2]) {
      await Promise.all(threads.map((thread_id, i) => agent.invoke({ messages: [new HumanMessage(`thread ${i} round ${round}`)] }, { configurable: { thread_id } })));
    }
    for (const [i, thread] of threads.entries()) {
      expect((await storedTurns(memory, thread)).map((t) => t.content)).toEqual([`thread ${i} round 1`, `Echo: thread ${i} round 1`, `thread ${i} round 2`, `Echo: thread ${i} round 2`]);
    }
    await memory.close();
  });
});

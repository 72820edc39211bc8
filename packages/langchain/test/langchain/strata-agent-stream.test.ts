import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { AIMessageChunk, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import type { OpenAiStub } from '@strata/testkit';
import { createStrataMiddleware } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';
import { chatRequests, getWeather, startStubModel, storedTurns, weatherReplies, weatherTurns } from './openai-stub-model.js';

let stub: OpenAiStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('createStrataMiddleware with agent.stream()', () => {
  it("streams the model's tokens (streamMode 'messages') over SSE and stores each message once", async () => {
    const { memory } = await createTestMemory();
    const started = await startStubModel({ chat: [...weatherReplies(), 'Lisbon again: 21 °C.'] });
    stub = started.stub;
    const agent = createAgent({ model: started.model, tools: [getWeather], middleware: [createStrataMiddleware({ memory, namespace: 'u1' })], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: randomUUID() } };
    const chunks: AIMessageChunk[] = [];
    for await (const [message] of await agent.stream({ messages: [new HumanMessage('Weather in Lisbon?')] }, { ...config, streamMode: 'messages' })) {
      if (AIMessageChunk.isInstance(message)) chunks.push(message);
    }
    // the answer came a word at a time, and the tool call as deltas the client assembled
    expect(chatRequests(stub).every((r) => r.stream === true)).toBe(true);
    expect(chunks.filter((c) => c.text).map((c) => c.text)).toEqual(['It ', 'is ', '21 ', '°C ', 'in ', 'Lisbon.']);
    expect(chunks.flatMap((c) => c.tool_call_chunks ?? []).length).toBeGreaterThan(1);
    expect(await storedTurns(memory, config.configurable.thread_id)).toEqual(weatherTurns('Weather in Lisbon?'));

    const values: BaseMessage[][] = [];
    for await (const state of await agent.stream({ messages: [new HumanMessage('And now?')] }, { ...config, streamMode: 'values' })) values.push(state.messages);
    expect(values.at(-1)?.at(-1)?.text).toBe('Lisbon again: 21 °C.');
    expect(await storedTurns(memory, config.configurable.thread_id)).toEqual([
      ...weatherTurns('Weather in Lisbon?'),
      { role: 'user', content: 'And now?' },
      { role: 'assistant', content: 'Lisbon again: 21 °C.' },
    ]);
    await memory.close();
  });
});

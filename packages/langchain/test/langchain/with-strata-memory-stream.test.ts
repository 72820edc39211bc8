import { afterEach, describe, expect, it } from 'vitest';
import { ToolMessage, type AIMessageChunk } from '@langchain/core/messages';
import type { OpenAiStub } from '@strata/testkit';
import { withStrataMemory, type ReplyOutcome } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';
import { chatRequests, startStubModel, storedTurns } from './openai-stub-model.js';

let stub: OpenAiStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const longAnswer = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');

async function setUp(chat: Parameters<typeof startStubModel>[0]['chat'], streamDelayMs = 0) {
  const { memory } = await createTestMemory();
  const session = await memory.sessions.create({ namespace: 'u1' });
  const started = await startStubModel({ chat, streamDelayMs });
  stub = started.stub;
  const outcomes: ReplyOutcome[] = [];
  let reported = (): void => undefined;
  const onReply = (outcome: ReplyOutcome): void => {
    outcomes.push(outcome);
    reported();
  };
  /** Resolves with the outcome of the call made `n`-th (from 1), once it is known. */
  const outcomeOf = (n: number): Promise<ReplyOutcome> =>
    new Promise((resolve) => {
      reported = () => outcomes[n - 1] && resolve(outcomes[n - 1] as ReplyOutcome);
      reported();
    });
  return { memory, session, outcomes, outcomeOf, chat: withStrataMemory(started.model, { memory, sessionId: session.id, systemPrompt: 'Be brief.', onReply }) };
}

describe('withStrataMemory streaming', () => {
  it("stream() yields the model's chunks as they come, then stores the whole reply once", async () => {
    const { memory, session, chat, outcomes } = await setUp([{ content: 'Checking Oslo.', toolCalls: [{ id: 'call_o', name: 'get_weather', args: { city: 'Oslo' } }] }, 'It is -3 °C in Oslo.']);
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await chat.stream('Weather in Oslo?')) chunks.push(chunk as AIMessageChunk);
    expect(chunks.filter((c) => c.text).map((c) => c.text)).toEqual(['Checking ', 'Oslo.']);
    expect(chatRequests(stub!)[0]).toMatchObject({ stream: true });
    expect(await storedTurns(memory, session.id)).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: 'Checking Oslo.', toolCalls: [{ id: 'call_o', name: 'get_weather', args: { city: 'Oslo' } }] },
    ]);
    for await (const chunk of await chat.stream([new ToolMessage({ content: '{"tempC":-3}', tool_call_id: 'call_o' })])) chunks.push(chunk as AIMessageChunk);
    expect((await storedTurns(memory, session.id)).map((t) => [t.role, t.content])).toEqual([
      ['user', 'Weather in Oslo?'],
      ['assistant', 'Checking Oslo.'],
      ['tool', '{"tempC":-3}'],
      ['assistant', 'It is -3 °C in Oslo.'],
    ]);
    expect(outcomes).toEqual([
      { sessionId: session.id, stored: true },
      { sessionId: session.id, stored: true },
    ]);
    await memory.close();
  });

  it("streamEvents() reports the inner model's stream events and stores the reply once", async () => {
    const { memory, session, chat } = await setUp(['Hello there, Ana.']);
    const tokens: string[] = [];
    const names = new Set<string>();
    for await (const event of chat.streamEvents('Hi, I am Ana.', { version: 'v2' })) {
      names.add(`${event.event}:${event.name}`);
      if (event.event === 'on_chat_model_stream') tokens.push((event.data.chunk as AIMessageChunk).text);
    }
    expect(tokens.join('')).toBe('Hello there, Ana.');
    expect(tokens.filter(Boolean).length).toBe(3);
    expect([...names]).toEqual(expect.arrayContaining(['on_chain_start:StrataMemory', 'on_chat_model_start:ChatOpenAI', 'on_chain_end:StrataMemory']));
    expect((await storedTurns(memory, session.id)).map((t) => t.content)).toEqual(['Hi, I am Ana.', 'Hello there, Ana.']);
    await memory.close();
  });

  it('stores no reply when the stream is aborted through its signal', async () => {
    const { memory, session, chat, outcomes, outcomeOf } = await setUp([longAnswer], 5);
    const controller = new AbortController();
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of await chat.stream('Talk to me.', { signal: controller.signal })) {
          seen.push(chunk.text);
          if (seen.length === 4) controller.abort();
        }
      })(),
    ).rejects.toThrow(/abort/i);
    expect(seen.length).toBeLessThan(10);
    // the abort reaches the caller at once; the runnable learns of it from the model's stream
    expect(await outcomeOf(1)).toMatchObject({ sessionId: session.id, stored: false, reason: 'aborted' });
    expect(await storedTurns(memory, session.id)).toEqual([{ role: 'user', content: 'Talk to me.' }]);
    expect(outcomes).toHaveLength(1);
    await memory.close();
  });

  it('stores no reply when the consumer stops reading early', async () => {
    const { memory, session, chat, outcomes, outcomeOf } = await setUp([longAnswer, 'Fine.']);
    let read = 0;
    for await (const chunk of await chat.stream('Talk to me.')) {
      if (chunk.text && ++read === 3) break;
    }
    expect(await outcomeOf(1)).toEqual({ sessionId: session.id, stored: false, reason: 'stopped reading' });
    expect(await storedTurns(memory, session.id)).toEqual([{ role: 'user', content: 'Talk to me.' }]);
    // the session goes on: the next call's reply is stored
    expect((await chat.invoke('Short, please.')).text).toBe('Fine.');
    expect((await storedTurns(memory, session.id)).map((t) => t.content)).toEqual(['Talk to me.', 'Short, please.', 'Fine.']);
    expect(outcomes).toEqual([
      { sessionId: session.id, stored: false, reason: 'stopped reading' },
      { sessionId: session.id, stored: true },
    ]);
    await memory.close();
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { createMemory, type Memory } from '@strata/core';
import { promptText, startOpenAiStub, type ChatCompletionRequest, type OpenAiStub } from '@strata/testkit';
import { strataMemory } from '../src/index.js';

// Real HTTP and real server-sent events: the AI SDK's OpenAI-compatible provider against the testkit's stub.
let memory: Memory;
let stub: OpenAiStub | undefined;
beforeEach(async () => {
  memory = await createMemory();
});
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  await memory.close();
});

function modelOn(url: string, sessionId: string) {
  const provider = createOpenAICompatible({ name: 'stub', baseURL: `${url}/v1`, apiKey: 'test' });
  return wrapLanguageModel({ model: provider.chatModel('stub-model'), middleware: strataMemory({ memory, sessionId, namespace: 'ana', budgetTokens: 2000 }) });
}

const bodies = (s: OpenAiStub) => s.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatCompletionRequest);

describe('strataMemory over HTTP (@ai-sdk/openai-compatible)', () => {
  it('a fact told in one session reaches the model in the next, streamed and not', async () => {
    stub = await startOpenAiStub({ chat: (request) => (/User lives in Lisbon/.test(promptText(request)) ? 'You live in Lisbon.' : 'Nice to meet you!') });
    const first = await generateText({ model: modelOn(stub.url, 'monday'), system: 'Be brief.', prompt: 'Hi! I live in Lisbon.' });
    expect(first.text).toBe('Nice to meet you!');
    await memory.flush();
    const second = streamText({ model: modelOn(stub.url, 'friday'), system: 'Be brief.', prompt: 'Where do I live?' });
    expect(await second.text).toBe('You live in Lisbon.');
    await second.consumeStream();

    const [, asked] = bodies(stub);
    expect(asked?.stream).toBe(true);
    expect(asked?.messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(asked?.messages[0]?.role).toBe('system');
    expect(asked?.messages.at(-1)).toMatchObject({ role: 'user', content: 'Where do I live?' });
    expect((await memory.messages('friday')).map((m) => `${m.role}: ${m.content}`)).toEqual(['user: Where do I live?', 'assistant: You live in Lisbon.']);
  });

  it('a streamed tool loop sends the tool call and result in OpenAI form and stores each turn once', async () => {
    stub = await startOpenAiStub({
      chat: (request) => (request.messages.some((m) => m.role === 'tool') ? 'It is 21 °C.' : { toolCalls: [{ id: 'call_w', name: 'weather', args: { city: 'Porto' } }] }),
    });
    const weather = tool({
      description: 'The weather in a city',
      inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
      execute: async ({ city }) => ({ city, tempC: 21 }),
    });
    const result = streamText({ model: modelOn(stub.url, 'trip'), prompt: 'Weather in Porto?', tools: { weather }, stopWhen: stepCountIs(4) });
    expect(await result.text).toBe('It is 21 °C.');
    await result.consumeStream();

    const second = bodies(stub)[1];
    expect(second?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(second?.messages[1]?.tool_calls?.[0]).toMatchObject({ id: 'call_w', function: { name: 'weather' } });
    expect(second?.messages[2]).toMatchObject({ tool_call_id: 'call_w' });
    const turns = await memory.messages('trip');
    expect(turns.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(turns[1]?.toolCalls).toEqual([{ id: 'call_w', name: 'weather', args: { city: 'Porto' } }]);
  });

  it('a stream cut by the caller stores the user turn only', async () => {
    stub = await startOpenAiStub({ chat: ['one two three four five six seven eight nine ten'], streamDelayMs: 40 });
    const controller = new AbortController();
    const result = streamText({ model: modelOn(stub.url, 'cut'), prompt: 'Count to ten', abortSignal: controller.signal, onError: () => undefined });
    let got = '';
    try {
      for await (const delta of result.textStream) {
        got += delta;
        if (got.length >= 3) controller.abort();
      }
    } catch {
      // the abort ends the stream with an AbortError
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got.length).toBeGreaterThan(0);
    expect((await memory.messages('cut')).map((m) => `${m.role}: ${m.content}`)).toEqual(['user: Count to ten']);
  });
});

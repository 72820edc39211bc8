import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateText, jsonSchema, stepCountIs, streamText, tool, ToolLoopAgent, wrapLanguageModel, type ModelMessage } from 'ai';
import { createMemory, StrataError, type Memory } from '@strata/core';
import { strataMemory, type StrataMemoryOptions } from '../src/index.js';
import { scriptedModel, shapeOf, streamParts, textOf, type Reply } from './mock-models.js';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

let memory: Memory;
beforeEach(async () => {
  memory = await createMemory();
});
afterEach(async () => {
  await memory.close();
});

function wrapped(replies: Reply[] | Parameters<typeof scriptedModel>[0], options: Partial<StrataMemoryOptions> = {}) {
  const inner = scriptedModel(replies);
  const model = wrapLanguageModel({ model: inner, middleware: strataMemory({ memory, sessionId: 'chat-1', namespace: 'ana', ...options }) });
  return { inner, model };
}

/** What the session holds: role and text, tool calls and results named by id. */
async function stored(sessionId = 'chat-1'): Promise<string[]> {
  return (await memory.messages(sessionId)).map((m) => {
    if (m.role === 'tool') return `tool(${m.toolCallId}): ${m.content}`;
    const calls = (m.toolCalls ?? []).map((c) => ` calls ${c.name}#${c.id}(${JSON.stringify(c.args)})`).join('');
    return `${m.role}: ${m.content}${calls}`;
  });
}

const weather = tool({
  description: 'The weather in a city',
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: async ({ city }) => ({ city, tempC: 21 }),
});

describe('strataMemory: the prompt the model gets', () => {
  it('one system message (the app prompt first, then memory) and the current turn last', async () => {
    const { inner, model } = wrapped(['Nice to meet you!', 'You live in Lisbon.']);
    await generateText({ model, system: 'You are terse.', prompt: 'Hi! I live in Lisbon and I work as a nurse.' });
    await memory.flush();
    await generateText({ model, system: 'You are terse.', prompt: 'Where do I live?' });

    const second = inner.doGenerateCalls[1]?.prompt ?? [];
    const { systems, roles } = shapeOf(second);
    expect(systems).toHaveLength(1);
    expect(roles[0]).toBe('system');
    expect(systems[0]).toMatch(/^You are terse\.\n\n/);
    expect(systems[0]).toMatch(/Lisbon/);
    expect(textOf(second.at(-1))).toBe('Where do I live?');
    expect(second.filter((m) => textOf(m) === 'Where do I live?')).toHaveLength(1);
  });

  it('several app system messages become one, and the current turn is sent even when the budget holds none of it', async () => {
    const { inner, model } = wrapped(['ok'], { budgetTokens: 1 });
    const long = 'tell me everything about '.repeat(40);
    const messages: ModelMessage[] = [
      { role: 'system', content: 'Rule one.' },
      { role: 'system', content: 'Rule two.' },
      { role: 'user', content: long },
    ];
    await generateText({ model, messages });
    const prompt = inner.doGenerateCalls[0]?.prompt ?? [];
    expect(shapeOf(prompt).systems).toEqual([expect.stringMatching(/^Rule one\.\n\nRule two\./)]);
    expect(shapeOf(prompt).roles).toEqual(['system', 'user']);
    expect(textOf(prompt[1])).toBe(long);
  });

  it('the context replaces the history the app passes: earlier turns come from strata, within the budget', async () => {
    const { inner, model } = wrapped(['first answer', 'second answer']);
    await generateText({ model, prompt: 'first question' });
    await generateText({ model, prompt: 'second question' });
    const prompt = inner.doGenerateCalls[1]?.prompt ?? [];
    expect(prompt.map(textOf).filter((t) => t !== '' && !t.startsWith('['))).toEqual(expect.arrayContaining(['first question', 'first answer', 'second question']));
    expect(textOf(prompt.at(-1))).toBe('second question');
  });

  it('hands each context to onContext, with its manifest', async () => {
    const seen: unknown[] = [];
    const { model } = wrapped(['ok'], { onContext: (context) => seen.push(context.manifest) });
    await generateText({ model, prompt: 'hello' });
    expect(seen).toHaveLength(1);
    expect(Array.isArray(seen[0])).toBe(true);
  });
});

describe('strataMemory: what is stored', () => {
  it('generateText: the user turn and the reply, once each', async () => {
    const { model } = wrapped(['Hello there.']);
    const result = await generateText({ model, prompt: 'Hi' });
    expect(result.text).toBe('Hello there.');
    expect(await stored()).toEqual(['user: Hi', 'assistant: Hello there.']);
  });

  it('a multi-step tool loop stores each turn once: user, tool call, tool result, answer', async () => {
    const { inner, model } = wrapped([{ toolCalls: [{ id: 'call-1', name: 'weather', input: { city: 'Porto' } }] }, 'It is 21 °C in Porto.']);
    const result = await generateText({ model, prompt: 'Weather in Porto?', tools: { weather }, stopWhen: stepCountIs(5) });
    expect(result.steps).toHaveLength(2);
    expect(await stored()).toEqual(['user: Weather in Porto?', 'assistant:  calls weather#call-1({"city":"Porto"})', 'tool(call-1): {"city":"Porto","tempC":21}', 'assistant: It is 21 °C in Porto.']);
    // the second step still saw its own tool call and result, paired
    expect(shapeOf(inner.doGenerateCalls[1]?.prompt ?? []).roles.slice(-3)).toEqual(['user', 'assistant', 'tool']);
  });

  it('streamText in a tool loop stores the same, once', async () => {
    const { model } = wrapped([{ toolCalls: [{ id: 'call-1', name: 'weather', input: { city: 'Porto' } }] }, 'Sunny.']);
    const result = streamText({ model, prompt: 'Weather in Porto?', tools: { weather }, stopWhen: stepCountIs(5) });
    expect(await result.text).toBe('Sunny.');
    await result.consumeStream();
    expect(await stored()).toEqual(['user: Weather in Porto?', 'assistant:  calls weather#call-1({"city":"Porto"})', 'tool(call-1): {"city":"Porto","tempC":21}', 'assistant: Sunny.']);
  });

  it('a ToolLoopAgent (generate, then stream) stores each turn of both runs once', async () => {
    const { model } = wrapped([
      { toolCalls: [{ id: 'call-1', name: 'weather', input: { city: 'Porto' } }] },
      'Sunny.',
      { toolCalls: [{ id: 'call-2', name: 'weather', input: { city: 'Faro' } }] },
      'Hot.',
    ]);
    const agent = new ToolLoopAgent({ model, instructions: 'You check the weather.', tools: { weather }, stopWhen: stepCountIs(4) });
    expect((await agent.generate({ prompt: 'Weather in Porto?' })).text).toBe('Sunny.');
    const streamed = await agent.stream({ prompt: 'And in Faro?' });
    expect(await streamed.text).toBe('Hot.');
    expect(await stored()).toEqual([
      'user: Weather in Porto?',
      'assistant:  calls weather#call-1({"city":"Porto"})',
      'tool(call-1): {"city":"Porto","tempC":21}',
      'assistant: Sunny.',
      'user: And in Faro?',
      'assistant:  calls weather#call-2({"city":"Faro"})',
      'tool(call-2): {"city":"Faro","tempC":21}',
      'assistant: Hot.',
    ]);
  });

  it('the whole history passed again on each call (as chat UIs do) stores nothing twice', async () => {
    const { model } = wrapped(['A1', 'A2', 'A3']);
    const history: ModelMessage[] = [];
    for (const question of ['Q1', 'Q2', 'Q3']) {
      history.push({ role: 'user', content: question });
      const { response } = await generateText({ model, messages: history });
      history.push(...response.messages);
    }
    expect(await stored()).toEqual(['user: Q1', 'assistant: A1', 'user: Q2', 'assistant: A2', 'user: Q3', 'assistant: A3']);
  });

  it('a history that includes a tool loop, passed again, stores nothing twice', async () => {
    const { model } = wrapped([{ toolCalls: [{ id: 'call-1', name: 'weather', input: { city: 'Porto' } }] }, 'Sunny.', 'You are welcome.']);
    const history: ModelMessage[] = [{ role: 'user', content: 'Weather in Porto?' }];
    const first = await generateText({ model, messages: history, tools: { weather }, stopWhen: stepCountIs(5) });
    history.push(...first.response.messages, { role: 'user', content: 'Thanks!' });
    await generateText({ model, messages: history, tools: { weather }, stopWhen: stepCountIs(5) });
    expect(await stored()).toEqual([
      'user: Weather in Porto?',
      'assistant:  calls weather#call-1({"city":"Porto"})',
      'tool(call-1): {"city":"Porto","tempC":21}',
      'assistant: Sunny.',
      'user: Thanks!',
      'assistant: You are welcome.',
    ]);
  });

  it('a user repeating the same words in a later turn is stored again (only a repeated tail is recognised)', async () => {
    const { model } = wrapped(['Sure.', 'Sure again.']);
    await generateText({ model, prompt: 'yes' });
    await generateText({ model, prompt: 'yes' });
    expect(await stored()).toEqual(['user: yes', 'assistant: Sure.', 'user: yes', 'assistant: Sure again.']);
  });

  it('an aborted stream stores the user turn and no partial reply', async () => {
    const controller = new AbortController();
    const inner = new MockLanguageModelV3({
      doStream: async () => ({ stream: simulateReadableStream({ chunks: streamParts('one two three four five six seven'), chunkDelayInMs: 30 }) }),
    });
    const model = wrapLanguageModel({ model: inner, middleware: strataMemory({ memory, sessionId: 'chat-1', namespace: 'ana' }) });
    const result = streamText({ model, prompt: 'Tell me a story', abortSignal: controller.signal, onError: () => undefined });
    let received = '';
    try {
      for await (const delta of result.textStream) {
        received += delta;
        if (received.length > 3) controller.abort();
      }
    } catch {
      // an abort may end the stream with an error
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.length).toBeGreaterThan(0);
    expect(await stored()).toEqual(['user: Tell me a story']);
  });

  it('a stream that errors stores the user turn and no partial reply', async () => {
    const inner = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [...streamParts('partial answer').slice(0, -2), { type: 'error', error: new Error('provider fell over') }, ...streamParts('x', 'error').slice(-1)],
        }),
      }),
    });
    const model = wrapLanguageModel({ model: inner, middleware: strataMemory({ memory, sessionId: 'chat-1', namespace: 'ana' }) });
    const result = streamText({ model, prompt: 'Tell me a story', onError: () => undefined });
    await result.consumeStream();
    expect(await stored()).toEqual(['user: Tell me a story']);
  });

  it('a model call that throws stores the user turn and no reply', async () => {
    const inner = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('rate limited');
      },
    });
    const model = wrapLanguageModel({ model: inner, middleware: strataMemory({ memory, sessionId: 'chat-1', namespace: 'ana' }) });
    await expect(generateText({ model, prompt: 'Hello?', maxRetries: 0 })).rejects.toThrow(/rate limited/);
    expect(await stored()).toEqual(['user: Hello?']);
  });

  it('persist: false reads memory and stores nothing', async () => {
    const { inner, model } = wrapped(['ok'], { persist: false });
    await memory.sessions.create({ namespace: 'ana', id: 'chat-1' });
    await memory.append('chat-1', { role: 'user', content: 'I live in Lisbon.' });
    await memory.flush();
    await generateText({ model, prompt: 'Where do I live?' });
    expect(await stored()).toEqual(['user: I live in Lisbon.']);
    expect(shapeOf(inner.doGenerateCalls[0]?.prompt ?? []).systems[0]).toMatch(/Lisbon/);
  });

  it('keeps file parts and reasoning losslessly in the stored turn', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const { inner, model } = wrapped(['A picture of a cat.', 'Still a cat.']);
    await generateText({
      model,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'file', data: bytes, mediaType: 'image/png' },
          ],
        },
      ],
    });
    await generateText({ model, prompt: 'And now?' });
    const replayed = (inner.doGenerateCalls[1]?.prompt ?? []).find((m) => m.role === 'user' && textOf(m) === 'What is this?');
    expect(replayed?.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'file', data: bytes, mediaType: 'image/png' },
    ]);
  });
});

describe('strataMemory: sessions', () => {
  it('an unknown session is created in the namespace on first use', async () => {
    const { model } = wrapped(['ok'], { session: { id: 'chat-9', title: 'Plans' } });
    await generateText({ model, prompt: 'hi' });
    expect(await memory.sessions.get('chat-9')).toMatchObject({ namespace: 'ana', title: 'Plans' });
  });

  it('without a namespace an unknown session is NOT_FOUND, and the model is not called', async () => {
    const inner = scriptedModel(['ok']);
    const model = wrapLanguageModel({ model: inner, middleware: strataMemory({ memory, sessionId: 'nope' }) });
    const error = await generateText({ model, prompt: 'hi' }).catch((e: unknown) => e);
    expect(StrataError.is(error, 'NOT_FOUND')).toBe(true);
    expect(inner.doGenerateCalls).toHaveLength(0);
  });

  it('a session of another namespace is refused (CONFLICT) and nothing is stored in it', async () => {
    await memory.sessions.create({ namespace: 'bob', id: 'chat-1' });
    const { inner, model } = wrapped(['ok']);
    const error = await generateText({ model, prompt: 'hi' }).catch((e: unknown) => e);
    expect(StrataError.is(error, 'CONFLICT')).toBe(true);
    expect(inner.doGenerateCalls).toHaveLength(0);
    expect(await memory.messages('chat-1')).toEqual([]);
  });

  it('a call names its session in providerOptions.strata.sessionId: one wrapped model serves many chats', async () => {
    const { model } = wrapped(['one', 'two']);
    await generateText({ model, prompt: 'in A', providerOptions: { strata: { sessionId: 'chat-a' } } });
    await generateText({ model, prompt: 'in B', providerOptions: { strata: { sessionId: 'chat-b' } } });
    expect(await stored('chat-a')).toEqual(['user: in A', 'assistant: one']);
    expect(await stored('chat-b')).toEqual(['user: in B', 'assistant: two']);
  });

  it('no session anywhere is INVALID_INPUT with a hint', async () => {
    const model = wrapLanguageModel({ model: scriptedModel(['ok']), middleware: strataMemory({ memory }) });
    const error = await generateText({ model, prompt: 'hi' }).catch((e: unknown) => e);
    expect(StrataError.is(error, 'INVALID_INPUT')).toBe(true);
    expect((error as StrataError).hint).toMatch(/sessionId/);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, ToolMessage, type AIMessageChunk } from '@langchain/core/messages';
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai';
import { hashVector, promptText, startOpenAiStub, type ChatCompletionRequest, type OpenAiStub } from '../src/index.js';

let stub: OpenAiStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

function chatModel(url: string) {
  // maxRetries 0: a stub error must fail the test at once, not after the client's backoff.
  return new ChatOpenAI({ model: 'stub-model', apiKey: 'test', streaming: false, maxRetries: 0, configuration: { baseURL: `${url}/v1` } });
}

/** Streams when asked to (`stream()`), and asks for usage in the stream as ChatOpenAI does by default. */
function streamingChatModel(url: string) {
  return new ChatOpenAI({ model: 'stub-model', apiKey: 'test', maxRetries: 0, configuration: { baseURL: `${url}/v1` } });
}

function post(url: string, body: unknown) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function embeddings(url: string, dimensions?: number) {
  return new OpenAIEmbeddings({ model: 'stub-embed', apiKey: 'test', encodingFormat: 'float', maxRetries: 0, configuration: { baseURL: `${url}/v1` }, ...(dimensions ? { dimensions } : {}) });
}

describe('startOpenAiStub with ChatOpenAI', () => {
  it('answers from the script in order, tool calls included, and records each request', async () => {
    stub = await startOpenAiStub({ chat: [{ toolCalls: [{ id: 'call_w', name: 'get_weather', args: { city: 'Oslo' } }] }, 'It is -3 °C in Oslo.'] });
    const model = chatModel(stub.url).bindTools([
      { type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    ]);
    const first = await model.invoke([new HumanMessage('Weather in Oslo?')]);
    expect(first.tool_calls).toEqual([{ id: 'call_w', name: 'get_weather', args: { city: 'Oslo' }, type: 'tool_call' }]);
    const second = await model.invoke([new HumanMessage('Weather in Oslo?'), first, new ToolMessage({ content: '{"temp":-3}', tool_call_id: 'call_w' })]);
    expect(second.text).toBe('It is -3 °C in Oslo.');
    expect(stub.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/v1/chat/completions'],
      ['POST', '/v1/chat/completions'],
    ]);
    const sent = stub.requests[1]?.body as ChatCompletionRequest;
    expect(sent.model).toBe('stub-model');
    expect(sent.tools?.map((t) => t.function.name)).toEqual(['get_weather']);
    expect(sent.messages.map((m) => [m.role, m.tool_calls?.[0]?.function ?? null, m.tool_call_id ?? null])).toEqual([
      ['user', null, null],
      ['assistant', { name: 'get_weather', arguments: '{"city":"Oslo"}' }, null],
      ['tool', null, 'call_w'],
    ]);
    expect(stub.requests[0]?.headers.authorization).toBe('Bearer test');
  });

  it('computes replies with a handler function of the request', async () => {
    stub = await startOpenAiStub({ chat: (request) => (promptText(request).includes('Lisbon') ? 'You live in Lisbon.' : 'I do not know.') });
    const model = chatModel(stub.url);
    expect((await model.invoke([new HumanMessage('I live in Lisbon. Where do I live?')])).text).toBe('You live in Lisbon.');
    expect((await model.invoke('Where do I live?')).text).toBe('I do not know.');
    expect(await model.invoke([new AIMessage('hi'), new HumanMessage('Lisbon?')])).toMatchObject({ content: 'You live in Lisbon.' });
  });

  it('fails fast with the reason when the script runs out, and answers 404 off its routes', async () => {
    stub = await startOpenAiStub({ chat: ['only one'] });
    const model = chatModel(stub.url);
    await model.invoke('first');
    await expect(model.invoke('second')).rejects.toThrow(/no scripted chat reply left/);
    expect((await post(`${stub.url}/v1/other`, {})).status).toBe(404);
  });
});

/** The `data:` payloads of a server-sent event stream, parsed, and whether it ended with [DONE]. */
async function readEvents(response: Response) {
  const lines = (await response.text()).split('\n\n').filter(Boolean);
  const done = lines.at(-1) === 'data: [DONE]';
  return { done, events: lines.slice(0, done ? -1 : undefined).map((l) => JSON.parse(l.replace(/^data: /, '')) as StreamChunk) };
}

interface StreamChunk {
  object: string;
  choices: { index: number; delta: { role?: string; content?: string; tool_calls?: { index: number; id?: string; function: { name?: string; arguments: string } }[] }; finish_reason: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

describe('startOpenAiStub streaming', () => {
  it('streams text a word at a time as chat.completion.chunk events, then the usage when asked', async () => {
    stub = await startOpenAiStub({ chat: ['It is cold in Oslo.', 'Again.'] });
    const response = await post(`${stub.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const { done, events } = await readEvents(response);
    expect(done).toBe(true);
    expect(events.every((e) => e.object === 'chat.completion.chunk')).toBe(true);
    expect(events[0]?.choices[0]?.delta).toMatchObject({ role: 'assistant', content: '' });
    expect(events.slice(1, -2).map((e) => e.choices[0]?.delta.content)).toEqual(['It ', 'is ', 'cold ', 'in ', 'Oslo.']);
    expect(events.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(events.slice(0, -1).every((e) => e.usage === null)).toBe(true);
    expect(events.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: Math.ceil('user: Hi'.length / 4), completion_tokens: Math.ceil(('It is cold in Oslo.'.length + 2) / 4) } });
    expect(stub.requests[0]?.response).toEqual(events);
    // without include_usage: no usage fields and no usage chunk
    const plain = await readEvents(await post(`${stub.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true }));
    expect(plain.events.some((e) => 'usage' in e)).toBe(false);
    expect(plain.events.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('streams tool calls as indexed deltas that ChatOpenAI assembles, with usage_metadata', async () => {
    stub = await startOpenAiStub({
      chat: [
        {
          content: 'Checking.',
          toolCalls: [
            { id: 'call_a', name: 'get_weather', args: { city: 'Oslo' } },
            { name: 'get_time', args: { zone: 'Europe/Oslo' } },
          ],
        },
      ],
    });
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await streamingChatModel(stub.url).stream([new HumanMessage('Weather and time in Oslo?')])) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(6);
    const whole = chunks.reduce((sum, chunk) => sum.concat(chunk));
    expect(whole.text).toBe('Checking.');
    expect(whole.tool_calls).toEqual([
      { id: 'call_a', name: 'get_weather', args: { city: 'Oslo' }, type: 'tool_call' },
      { id: 'call_1_1', name: 'get_time', args: { zone: 'Europe/Oslo' }, type: 'tool_call' },
    ]);
    const sent = stub.requests[0]?.body as ChatCompletionRequest;
    expect(sent).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const usage = (stub.requests[0]!.response as StreamChunk[]).at(-1)?.usage;
    expect(whole.usage_metadata).toMatchObject({ input_tokens: usage?.prompt_tokens, output_tokens: usage?.completion_tokens });
    const argPieces = (stub.requests[0]!.response as StreamChunk[]).filter((e) => e.choices[0]?.delta.tool_calls?.[0]?.index === 1 && !e.choices[0].delta.tool_calls[0].id);
    expect(argPieces.map((e) => e.choices[0]?.delta.tool_calls?.[0]?.function.arguments).join('')).toBe('{"zone":"Europe/Oslo"}');
    expect(argPieces.length).toBeGreaterThan(1);
  });

  it('paces chunks with streamDelayMs, so a client can abort mid-stream, and serves on after', async () => {
    stub = await startOpenAiStub({ chat: [Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ')], streamDelayMs: 10 });
    const controller = new AbortController();
    const received: string[] = [];
    const reading = (async () => {
      for await (const chunk of await streamingChatModel(stub!.url).stream('Talk.', { signal: controller.signal })) {
        received.push(chunk.text);
        if (received.length === 3) controller.abort();
      }
    })();
    await expect(reading).rejects.toThrow(/abort/i);
    expect(received.length).toBeLessThan(10);
    // the stub stops writing to the closed connection and keeps serving
    await stub.settled();
    expect(stub.requests[0]?.ended).toBe('client gone');
    expect((await post(`${stub.url}/v1/embeddings`, { input: 'x' })).status).toBe(200);
  });
});

describe('startOpenAiStub with OpenAIEmbeddings', () => {
  it('returns deterministic float vectors per input, with the requested dimensions', async () => {
    stub = await startOpenAiStub({ embeddingDimensions: 16 });
    const model = embeddings(stub.url);
    const [a, b, again] = await model.embedDocuments(['I live in Lisbon', 'I love jazz', 'I live in Lisbon']);
    expect(a).toHaveLength(16);
    expect(a).toEqual(again);
    expect(a).not.toEqual(b);
    expect(a).toEqual(hashVector('I live in Lisbon', 16));
    expect(Math.hypot(...(a ?? []))).toBeCloseTo(1, 5);
    expect(await model.embedQuery('I love jazz')).toEqual(b);
    expect((stub.requests[0]!.body as { encoding_format?: string }).encoding_format).toBe('float');
    expect(await embeddings(stub.url, 8).embedQuery('x')).toEqual(hashVector('x', 8));
  });

  it('answers base64 requests with the same vectors, as little-endian float32', async () => {
    stub = await startOpenAiStub();
    const response = await post(`${stub.url}/v1/embeddings`, { model: 'e', input: 'I live in Lisbon', encoding_format: 'base64' });
    const { data } = (await response.json()) as { data: { embedding: string }[] };
    const bytes = Buffer.from(data[0]?.embedding ?? '', 'base64');
    expect(Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4))).toEqual(hashVector('I live in Lisbon', 32));
  });
});

describe('startOpenAiStub usage and ports', () => {
  it('records each response with the usage it reported, which ChatOpenAI passes on as usage_metadata', async () => {
    stub = await startOpenAiStub({ chat: ['Hello there!'] });
    const reply = await chatModel(stub.url).invoke([new HumanMessage('Hi')]);
    const usage = (stub.requests[0]!.response as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    expect(usage).toEqual({
      prompt_tokens: Math.ceil('user: Hi'.length / 4),
      completion_tokens: Math.ceil(('Hello there!'.length + 2) / 4),
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
    });
    expect(reply.usage_metadata).toMatchObject({ input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens });
  });

  it('listens again on the port of an endpoint that was brought down', async () => {
    const first = await startOpenAiStub({ chat: ['one'] });
    const port = Number(new URL(first.url).port);
    await first.close();
    await expect(chatModel(first.url).invoke('Hi')).rejects.toThrow(/Connection error/);
    stub = await startOpenAiStub({ chat: ['back'], port });
    expect(stub.url).toBe(first.url);
    expect((await chatModel(stub.url).invoke('Hi')).text).toBe('back');
  });
});

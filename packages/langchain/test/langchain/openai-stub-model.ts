import { ChatOpenAI } from '@langchain/openai';
import { tool } from '@langchain/core/tools';
import { startOpenAiStub, type ChatCompletionMessage, type ChatCompletionRequest, type OpenAiStub, type OpenAiStubOptions } from '@strata/testkit';
import type { ExportBundle, Memory } from '@strata/core';
import { z } from 'zod';

/**
 * The OpenAI stub and a ChatOpenAI talking to it over HTTP. Streaming is left on its default
 * (off for invoke, on for stream() and LangGraph's 'messages' mode), as an app would have it.
 */
export async function startStubModel(options: OpenAiStubOptions) {
  const stub = await startOpenAiStub(options);
  const model = new ChatOpenAI({ model: 'stub-model', apiKey: 'test', maxRetries: 0, configuration: { baseURL: `${stub.url}/v1` } });
  return { stub, model };
}

/** The chat requests the stub received, in order. */
export function chatRequests(stub: OpenAiStub): ChatCompletionRequest[] {
  return stub.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatCompletionRequest);
}

/** A message's text, whether sent as a string or as content parts. */
export function textOf(message: ChatCompletionMessage | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).map((part) => part.text ?? '').join('');
}

/** The roles of a request's messages, with the tool calls and call ids that pair them. */
export function shapeOf(request: ChatCompletionRequest | undefined) {
  return (request?.messages ?? []).map((m) => ({
    role: m.role,
    ...(m.tool_calls ? { calls: m.tool_calls.map((c) => c.id) } : {}),
    ...(m.tool_call_id ? { answers: m.tool_call_id } : {}),
  }));
}

/** The stored turns of a session, in the fields a test compares. */
export async function storedTurns(memory: Memory, sessionId: string) {
  const bundle = JSON.parse(await memory.export(sessionId, { format: 'json' })) as ExportBundle;
  return (bundle.sessions[0]?.messages ?? []).map((m) => ({
    role: m.role,
    content: m.content,
    ...(m.toolCalls ? { toolCalls: m.toolCalls } : {}),
    ...(m.toolCallId ? { toolCallId: m.toolCallId } : {}),
  }));
}

export const getWeather = tool(async ({ city }: { city: string }) => JSON.stringify({ city, tempC: city === 'Lisbon' ? 21 : 9 }), {
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: z.object({ city: z.string() }),
});

/** The stub's replies for one weather question: a tool call, then the answer. */
export const weatherReplies = (answer = 'It is 21 °C in Lisbon.') => [{ toolCalls: [{ id: 'call_lx', name: 'get_weather', args: { city: 'Lisbon' } }] }, answer];

/** What strata stores for one weather question answered with `weatherReplies`. */
export const weatherTurns = (question: string, answer = 'It is 21 °C in Lisbon.') => [
  { role: 'user', content: question },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_lx', name: 'get_weather', args: { city: 'Lisbon' } }] },
  { role: 'tool', content: '{"city":"Lisbon","tempC":21}', toolCallId: 'call_lx' },
  { role: 'assistant', content: answer },
];

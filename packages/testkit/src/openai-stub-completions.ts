import type { ChatCompletionMessage, ChatCompletionRequest, StubAnswer } from './openai-stub-server.js';

// The wire format of the stub's chat completions: one JSON completion, or the chunks it streams as.

/** The text of every message of a chat request, `role: content` per line, to search a prompt. */
export function promptText(request: ChatCompletionRequest): string {
  return request.messages.map((m) => `${m.role}: ${messageText(m)}`).join('\n');
}

function messageText(message: ChatCompletionMessage): string {
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).map((part) => part.text ?? '').join('');
}

/** A reply as OpenAI answers it, with a usage estimated at 4 characters a token. */
export function chatCompletion(request: ChatCompletionRequest, reply: StubAnswer, n: number) {
  const { content = '', toolCalls = [] } = typeof reply === 'string' ? { content: reply } : reply;
  const tool_calls = toolCalls.map((call, i) => ({ id: call.id ?? `call_${n}_${i}`, type: 'function' as const, function: { name: call.name, arguments: JSON.stringify(call.args) } }));
  const promptTokens = Math.ceil(promptText(request).length / 4);
  const completionTokens = Math.ceil((content.length + JSON.stringify(tool_calls).length) / 4);
  return {
    id: `chatcmpl-stub-${n}`,
    object: 'chat.completion',
    created: 1_700_000_000 + n,
    model: request.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: tool_calls.length && !content ? null : content, refusal: null, ...(tool_calls.length ? { tool_calls } : {}) },
        finish_reason: tool_calls.length ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

export type ChatCompletion = ReturnType<typeof chatCompletion>;

/**
 * A completion as OpenAI streams it: the role, the text a word at a time, each tool call's id
 * and name then its arguments in pieces (each delta carries the call's index), the finish
 * reason, and a last chunk with no choices and the usage when the request asked for it.
 */
export function completionChunks(completion: ChatCompletion, request: ChatCompletionRequest): unknown[] {
  const choice = completion.choices[0];
  const includeUsage = (request.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const content = choice?.message.content ?? '';
  const calls = choice?.message.tool_calls ?? [];
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of content.match(/\s*\S+\s*/g) ?? []) chunks.push(chunk({ content: piece }));
  calls.forEach((call, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    for (const piece of call.function.arguments.match(/[\s\S]{1,8}/g) ?? []) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, choice?.finish_reason ?? 'stop'));
  if (includeUsage) chunks.push({ id: completion.id, object: 'chat.completion.chunk', created: completion.created, model: completion.model, choices: [], usage: completion.usage });
  return chunks;
}

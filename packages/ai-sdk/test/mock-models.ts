import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV3['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
type Prompt = MockLanguageModelV3['doGenerateCalls'][number]['prompt'];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A scripted reply: text, or tool calls (`input` as the JSON text a provider sends). */
export type Reply = string | { toolCalls: { id: string; name: string; input: Record<string, unknown> }[] };

function contentOf(reply: Reply): GenerateResult['content'] {
  if (typeof reply === 'string') return [{ type: 'text', text: reply }];
  return reply.toolCalls.map((call) => ({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) }));
}

/** A mock model answering each call with the next reply (the last one again when they run out); `reply` may read the prompt. */
export function scriptedModel(replies: Reply[] | ((prompt: Prompt, call: number) => Reply)): MockLanguageModelV3 {
  let call = 0;
  const next = (prompt: Prompt): Reply => {
    const reply = typeof replies === 'function' ? replies(prompt, call) : (replies[Math.min(call, replies.length - 1)] ?? '');
    call += 1;
    return reply;
  };
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const reply = next(prompt);
      return { content: contentOf(reply), finishReason: { unified: typeof reply === 'string' ? 'stop' : 'tool-calls', raw: undefined }, usage, warnings: [] };
    },
    doStream: async ({ prompt }) => ({ stream: simulateReadableStream({ chunks: streamParts(next(prompt)) }) }),
  });
}

/** The stream parts of a reply, the text in words. */
export function streamParts(reply: Reply, finish: 'stop' | 'error' = 'stop'): StreamPart[] {
  const body: StreamPart[] =
    typeof reply === 'string'
      ? [{ type: 'text-start', id: 't1' }, ...reply.split(/(?<= )/).map((delta): StreamPart => ({ type: 'text-delta', id: 't1', delta })), { type: 'text-end', id: 't1' }]
      : reply.toolCalls.map((call): StreamPart => ({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) }));
  const reason = finish === 'error' ? 'error' : typeof reply === 'string' ? 'stop' : 'tool-calls';
  return [{ type: 'stream-start', warnings: [] }, ...body, { type: 'finish', finishReason: { unified: reason, raw: undefined }, usage }];
}

/** The text of a prompt's system messages, and the roles of its messages in order. */
export function shapeOf(prompt: Prompt): { systems: string[]; roles: string[] } {
  return { systems: prompt.flatMap((m) => (m.role === 'system' ? [m.content] : [])), roles: prompt.map((m) => m.role) };
}

/** The text of a prompt message (its text parts). */
export function textOf(message: Prompt[number] | undefined): string {
  if (message === undefined) return '';
  if (message.role === 'system') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

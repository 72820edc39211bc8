import type { ChatCompletionMessage, ChatCompletionRequest } from '@strata/testkit';

/** What a scripted stub reply looks at in a chat request. */
export interface ChatRequestView {
  /** The system message's text ('' when there is none). */
  system: string;
  /** The `- ` lines of the system message (strata's facts, retrieved memories, ...), without the `(since ...)` dates. */
  memoryLines: string[];
  /** The text of the newest user message. */
  question: string;
  /** The tool results that end the request (none when the model is to answer the user), with the name of the tool called. */
  toolResults: { name: string; content: string }[];
}

/**
 * Reads a chat request the way the examples' scripted stub models do: they can only answer
 * from what the prompt holds, so the output shows what memory reached the model.
 */
export function readChatRequest(request: ChatCompletionRequest): ChatRequestView {
  const { messages } = request;
  const system = messages
    .filter((m) => m.role === 'system')
    .map(textOf)
    .join('\n');
  const memoryLines = system
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2).replace(/ \(since [^)]*\)$/, ''));
  const question = textOf(messages.findLast((m) => m.role === 'user'));
  const toolNames = new Map(messages.flatMap((m) => m.tool_calls ?? []).map((call) => [call.id, call.function.name]));
  const beforeResults = messages.findLastIndex((m) => m.role !== 'tool');
  const toolResults = messages.slice(beforeResults + 1).map((m) => ({ name: toolNames.get(m.tool_call_id ?? '') ?? '', content: textOf(m) }));
  return { system, memoryLines, question, toolResults };
}

function textOf(message: ChatCompletionMessage | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).map((part) => part.text ?? '').join('');
}

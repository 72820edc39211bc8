import { AIMessage, type BaseMessage, type ToolMessage } from '@langchain/core/messages';

/** Content blocks that are tool calls in some provider's format (LangChain v1, Anthropic, OpenAI responses). */
const CALL_BLOCK_TYPES = new Set(['tool_call', 'tool_use', 'function_call', 'server_tool_call']);

/**
 * The messages with every tool call answered by a tool message after it, and every tool
 * message answering a call before it: an AI message's unanswered calls are taken out (from
 * `tool_calls`, `invalid_tool_calls`, `additional_kwargs.tool_calls` and content blocks), the
 * message dropped when nothing is left of it, and a tool message whose call is gone is dropped.
 * Providers reject either half alone.
 */
export function pairToolCalls(messages: readonly BaseMessage[]): BaseMessage[] {
  const answeredLater = new Set<string>();
  const kept: BaseMessage[] = [];
  // newest first, so whether a call is answered later is known when it is met
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (!message) continue;
    if (message.type === 'tool') answeredLater.add((message as ToolMessage).tool_call_id);
    if (message.type !== 'ai') {
      kept.push(message);
      continue;
    }
    const paired = withAnsweredCallsOnly(message as AIMessage, answeredLater);
    if (paired) kept.push(paired);
  }
  kept.reverse();
  const calledBefore = new Set<string>();
  return kept.filter((message) => {
    if (message.type === 'ai') for (const id of callIdsOf(message as AIMessage)) calledBefore.add(id);
    return message.type !== 'tool' || calledBefore.has((message as ToolMessage).tool_call_id);
  });
}

function callIdsOf(message: AIMessage): string[] {
  return [...(message.tool_calls ?? []), ...(message.invalid_tool_calls ?? [])].map((call) => call.id ?? '');
}

/** The message itself when each of its calls is answered; else a copy without the others (undefined when it is then empty). */
function withAnsweredCallsOnly(message: AIMessage, answered: ReadonlySet<string>): AIMessage | undefined {
  const ids = callIdsOf(message);
  if (ids.every((id) => answered.has(id))) return message;
  const keep = (call: { id?: string | undefined }) => call.id !== undefined && answered.has(call.id);
  const content = typeof message.content === 'string' ? message.content : message.content.filter((block) => !isCallBlock(block) || keep(block as { id?: string }));
  const toolCalls = (message.tool_calls ?? []).filter(keep);
  const invalid = (message.invalid_tool_calls ?? []).filter(keep);
  const { tool_calls: raw, ...kwargs } = message.additional_kwargs as { tool_calls?: { id?: string }[] } & Record<string, unknown>;
  const rawKept = raw?.filter(keep) ?? [];
  const copy = new AIMessage({
    content,
    ...(message.id === undefined ? {} : { id: message.id }),
    ...(message.name === undefined ? {} : { name: message.name }),
    tool_calls: toolCalls,
    invalid_tool_calls: invalid,
    additional_kwargs: rawKept.length ? { ...kwargs, tool_calls: rawKept } : kwargs,
    response_metadata: message.response_metadata,
    ...(message.usage_metadata === undefined ? {} : { usage_metadata: message.usage_metadata }),
  });
  const hasContent = typeof content === 'string' ? content !== '' : content.length > 0;
  return hasContent || toolCalls.length || invalid.length ? copy : undefined;
}

function isCallBlock(block: unknown): boolean {
  return typeof block === 'object' && block !== null && CALL_BLOCK_TYPES.has(String((block as { type?: unknown }).type));
}

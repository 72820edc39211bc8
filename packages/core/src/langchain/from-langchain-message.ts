import type { BaseMessage } from '@langchain/core/messages';
import type { MessageInput, Role, ToolCall } from '../domain/message.js';
import { newId } from '../engine/ids.js';
import { StrataError } from '../errors/strata-error.js';

/** LangChain message types and the strata role each one is stored as. */
const ROLE_OF_TYPE: Record<string, Role> = { human: 'user', ai: 'assistant', tool: 'tool', system: 'system', developer: 'system' };
/** Roles a generic `ChatMessage` may carry, in OpenAI and LangChain spellings. */
const ROLE_OF_CHAT_ROLE: Record<string, Role> = { ...ROLE_OF_TYPE, user: 'user', assistant: 'assistant' };

/**
 * A LangChain message as the turn strata stores: HumanMessage -> user, AIMessage (and chunks)
 * -> assistant with its tool calls, ToolMessage -> tool with its tool call id, SystemMessage ->
 * system. Returns null for an assistant message with neither text nor tool calls: there is
 * nothing to keep, and strata refuses empty turns.
 * @throws StrataError INVALID_INPUT for a message type strata has no role for (e.g. RemoveMessage).
 */
export function toMessageInput(message: BaseMessage): MessageInput | null {
  const role = roleOf(message);
  const content = message.text;
  const toolCalls = role === 'assistant' ? toolCallsOf(message) : [];
  if (!content && !toolCalls.length) return null;
  const name = typeof message.name === 'string' && message.name ? message.name : undefined;
  return {
    role,
    content,
    ...(name ? { name } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(role === 'tool' ? { toolCallId: toolCallIdOf(message) } : {}),
  };
}

/** Converts a batch, dropping the empty assistant turns `toMessageInput` skips. */
export function toMessageInputs(messages: readonly BaseMessage[]): MessageInput[] {
  return messages.map(toMessageInput).filter((m): m is MessageInput => m !== null);
}

/** Text of the newest human message, the natural query for what memory to recall. */
export function lastHumanText(messages: readonly BaseMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.type === 'human') return message.text;
  }
  return undefined;
}

function roleOf(message: BaseMessage): Role {
  const chatRole = message.type === 'generic' && 'role' in message && typeof message.role === 'string' ? message.role : undefined;
  const role = chatRole === undefined ? ROLE_OF_TYPE[message.type] : ROLE_OF_CHAT_ROLE[chatRole];
  if (role) return role;
  throw new StrataError('INVALID_INPUT', `cannot store a LangChain message of type ${JSON.stringify(chatRole ?? message.type)}`, {
    hint: 'Pass HumanMessage, AIMessage, ToolMessage or SystemMessage (or a ChatMessage with role user, assistant, system or tool).',
  });
}

function toolCallsOf(message: BaseMessage): ToolCall[] {
  const calls = 'tool_calls' in message && Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]) : [];
  return calls.filter(isToolCallLike).map((call) => ({
    // A tool result must point at its call; a provider that omits ids still gets a stable pairing here.
    id: call.id || newId('call'),
    name: call.name,
    args: call.args ?? {},
  }));
}

interface ToolCallLike {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

function isToolCallLike(value: unknown): value is ToolCallLike {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}

function toolCallIdOf(message: BaseMessage): string {
  const id = 'tool_call_id' in message && typeof message.tool_call_id === 'string' ? message.tool_call_id : '';
  if (id) return id;
  throw new StrataError('INVALID_INPUT', 'a ToolMessage without tool_call_id cannot be stored', {
    hint: 'Set tool_call_id to the id of the AIMessage tool call this result answers.',
  });
}

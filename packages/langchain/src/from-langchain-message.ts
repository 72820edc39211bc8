import { BaseMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { StrataError, type MessageInput, type Role, type ToolCall } from '@strata/core';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { LANGCHAIN_METADATA_KEY, restoredToolCalls, type LangChainMessageRecord } from './langchain-message-record.js';
import { toLosslessJson } from './lossless-json.js';

/** LangChain message types and the strata role each one is stored as. */
const ROLE_OF_TYPE = new Map<string, Role>([
  ['human', 'user'],
  ['ai', 'assistant'],
  ['tool', 'tool'],
  ['system', 'system'],
]);
/** ChatMessage roles with a strata role of their own, in OpenAI and LangChain spellings. */
const ROLE_OF_CHAT_ROLE = new Map<string, Role>([
  ['user', 'user'],
  ['human', 'user'],
  ['assistant', 'assistant'],
  ['ai', 'assistant'],
  ['system', 'system'],
  ['developer', 'system'],
]);
/** Content block types that are text or tool calls, which strata holds in `content` and `toolCalls`. */
const TEXTUAL_BLOCKS = new Set(['text', 'tool_call', 'tool_call_chunk', 'invalid_tool_call']);

/**
 * A LangChain message as the turn strata stores, losslessly: role, the text as `content`
 * (what strata indexes, summarises and extracts facts from), name, tool calls and tool call
 * id in strata's fields, and everything else under `metadata.langchain` (see
 * {@link LangChainMessageRecord}): the LangChain id, content blocks (images, multi-part
 * arrays), ToolMessage status / artifact / metadata, usage_metadata, response_metadata,
 * additional_kwargs, invalid_tool_calls, tool_call_chunks, the ChatMessage role and whether it
 * was a chunk. `toLangChainMessage` restores the same class with the same fields.
 *
 * - HumanMessage -> user, AIMessage (and chunks) -> assistant, SystemMessage (developer ones
 *   too: `additional_kwargs.__openai_role__` is kept) -> system, ToolMessage -> tool.
 * - ChatMessage: roles user/human, assistant/ai, system/developer map to theirs; any other role
 *   (e.g. 'critic') is stored as a user turn named after the role (unless it has a name), so
 *   strata attributes what it says to that speaker.
 * - A message without text gets a short stand-in as content ("[image]", "[empty]"); its real
 *   content is kept. A tool call without an id gets one (`call_<hex>`) so a result can point at it.
 * - Values JSON cannot hold are converted losslessly (undefined, NaN, ±Infinity, -0, bigint,
 *   Date, Uint8Array, Buffer); anything else is refused. The record counts against
 *   `policy.limits.metadataBytes` (64 KB by default): `memory.append` refuses a larger one
 *   (e.g. a big inline image) with INVALID_INPUT rather than drop it.
 *
 * Returns null for an AIMessage with nothing in it (no text, content blocks or tool calls, e.g.
 * the empty tail of a stream): there is no turn to keep. Any other empty message is stored
 * as "[empty]", its empty content kept.
 * @throws StrataError INVALID_INPUT for a message type strata has no role for (RemoveMessage,
 *   FunctionMessage), a ToolMessage without tool_call_id, a tool call without a name, or a
 *   field that is not data (a class instance, a function).
 */
export function toMessageInput(message: BaseMessage): MessageInput | null {
  const { role, speaker } = roleOf(message);
  const toolCalls = role === 'assistant' ? toolCallsOf(message) : [];
  const text = message.text;
  const blocks = nonTextBlockTypes(message);
  if (message.type === 'ai' && !text && !toolCalls.length && !blocks.length && !listOf(message, 'invalid_tool_calls').length) return null;
  const content = text || (blocks.length ? blocks.map((type) => `[${type}]`).join(' ') : toolCalls.length ? '' : '[empty]');
  const name = (typeof message.name === 'string' && message.name) || speaker;
  const record = recordOf(message, { content, name, toolCalls });
  return {
    role,
    content,
    ...(name ? { name } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(role === 'tool' ? { toolCallId: toolCallIdOf(message) } : {}),
    ...(record ? { metadata: { [LANGCHAIN_METADATA_KEY]: record } } : {}),
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

/** The strata role, and for a ChatMessage with a role strata lacks, the speaker to name. */
function roleOf(message: BaseMessage): { role: Role; speaker?: string } {
  if (message.type === 'generic') {
    const chatRole = 'role' in message && typeof message.role === 'string' ? message.role : '';
    const role = ROLE_OF_CHAT_ROLE.get(chatRole);
    return role ? { role } : { role: 'user', ...(chatRole ? { speaker: chatRole } : {}) };
  }
  const role = ROLE_OF_TYPE.get(message.type);
  if (role) return { role };
  throw new StrataError('INVALID_INPUT', `cannot store a LangChain message of type ${JSON.stringify(message.type)}`, {
    hint: 'Pass HumanMessage, AIMessage, ToolMessage, SystemMessage or ChatMessage (a FunctionMessage becomes a ToolMessage with the tool_call_id it answers; a RemoveMessage is an instruction, not a turn).',
  });
}

interface Stored {
  content: string;
  name: string | undefined;
  toolCalls: ToolCall[];
}

/** What strata's own fields do not say of the message, or undefined when they say it all. */
function recordOf(message: BaseMessage, stored: Stored): LangChainMessageRecord | undefined {
  const where = (message.constructor as { lc_name?: () => string }).lc_name?.() ?? message.type;
  const lossless = (field: string, value: unknown) => toLosslessJson(value, `${where}.${field}`);
  const record: Record<string, unknown> = {};
  if (message.type === 'generic' && 'role' in message) Object.assign(record, { type: 'generic', role: message.role });
  if (BaseMessageChunk.isInstance(message)) record.chunk = true;
  if (message.id !== undefined) record.id = message.id;
  if (message.name !== stored.name) record.name = message.name ?? null;
  if (message.content !== stored.content) record.content = lossless('content', message.content);
  if (message.type === 'ai') {
    const chunks = listOf(message, 'tool_call_chunks');
    // A chunk with tool_call_chunks derives its tool calls from them again.
    const calls = toolCallsWithIds(message, stored.toolCalls);
    if (chunks.length) record.tool_call_chunks = lossless('tool_call_chunks', chunks);
    // strata keeps args as their JSON round trip (an undefined property or -0 would not come back).
    else if (!isDeepStrictEqual(calls, restoredToolCalls(JSON.parse(JSON.stringify(stored.toolCalls)) as ToolCall[]))) record.tool_calls = lossless('tool_calls', calls);
    const invalid = listOf(message, 'invalid_tool_calls');
    if (invalid.length) record.invalid_tool_calls = lossless('invalid_tool_calls', invalid);
    if ('usage_metadata' in message && message.usage_metadata !== undefined) record.usage_metadata = lossless('usage_metadata', message.usage_metadata);
  }
  if (message.type === 'tool') {
    for (const field of ['status', 'artifact', 'metadata'] as const) {
      const value = (message as unknown as Record<string, unknown>)[field];
      if (value !== undefined) record[field] = lossless(field, value);
    }
  }
  for (const field of ['response_metadata', 'additional_kwargs'] as const) {
    const value: unknown = message[field];
    if (value !== undefined && !isDeepStrictEqual(value, {})) record[field] = lossless(field, value);
  }
  return Object.keys(record).length ? (record as LangChainMessageRecord) : undefined;
}

/** The message's tool calls with the ids strata gave those that had none. */
function toolCallsWithIds(message: BaseMessage, stored: readonly ToolCall[]): unknown[] {
  return listOf(message, 'tool_calls').map((call, i) => ({ ...(call as object), id: stored[i]?.id }));
}

function toolCallsOf(message: BaseMessage): ToolCall[] {
  return listOf(message, 'tool_calls').map((call, i) => {
    const { id, name, args } = (call ?? {}) as { id?: unknown; name?: unknown; args?: unknown };
    if (typeof name !== 'string' || !name) {
      throw new StrataError('INVALID_INPUT', `tool_calls[${i}] of an AIMessage has no name (got ${JSON.stringify(name)})`, {
        hint: 'Each tool call needs the name of the tool it calls, as chat models return it.',
      });
    }
    // A tool result must point at its call; a provider that omits ids still gets a stable pairing here.
    return { id: typeof id === 'string' && id ? id : `call_${randomUUID().replace(/-/g, '')}`, name, args: (args ?? {}) as Record<string, unknown> };
  });
}

/** Types of the content blocks that are neither text nor tool calls (images, files, reasoning, ...). */
function nonTextBlockTypes(message: BaseMessage): string[] {
  if (typeof message.content === 'string') return [];
  return message.contentBlocks.map((block) => block.type).filter((type) => !TEXTUAL_BLOCKS.has(type));
}

function listOf(message: BaseMessage, field: 'tool_calls' | 'invalid_tool_calls' | 'tool_call_chunks'): unknown[] {
  const value = (message as unknown as Record<string, unknown>)[field];
  return Array.isArray(value) ? value : [];
}

function toolCallIdOf(message: BaseMessage): string {
  const id = 'tool_call_id' in message && typeof message.tool_call_id === 'string' ? message.tool_call_id : '';
  if (id) return id;
  throw new StrataError('INVALID_INPUT', 'a ToolMessage without tool_call_id cannot be stored', {
    hint: 'Set tool_call_id to the id of the AIMessage tool call this result answers.',
  });
}

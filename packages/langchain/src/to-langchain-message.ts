import {
  AIMessage,
  AIMessageChunk,
  ChatMessage,
  ChatMessageChunk,
  HumanMessage,
  HumanMessageChunk,
  SystemMessage,
  SystemMessageChunk,
  ToolMessage,
  ToolMessageChunk,
  type BaseMessage,
  type MessageContent,
} from '@langchain/core/messages';
import { isMemoryMessage, type ContextMessage, type Role, type StoredMessage } from '@strata/core';
import { readLangChainRecord, restoredToolCalls, type LangChainMessageRecord } from './langchain-message-record.js';

/** The LangChain message type each strata role reads back as, when the turn keeps no record of its own. */
const TYPE_OF_ROLE: Record<Role, 'human' | 'ai' | 'system' | 'tool'> = { user: 'human', assistant: 'ai', system: 'system', tool: 'tool' };

/**
 * A stored turn as the LangChain message it was appended as (see `toMessageInput`): the same
 * class (HumanMessage, AIMessage, SystemMessage, ToolMessage, ChatMessage, or their chunk
 * classes) with the same id, content (string or content blocks), name, tool calls,
 * invalid_tool_calls, tool_call_chunks, tool_call_id, status, artifact, usage_metadata,
 * response_metadata and additional_kwargs. A turn appended without a LangChain record (e.g.
 * with `memory.append`) becomes the message its role names, with the stored text. A message
 * stored without an id comes back with the strata message id, and a tool call stored without
 * one with the id strata gave it.
 * @throws StrataError INVALID_INPUT when `metadata.langchain` is not a record `toMessageInput` wrote.
 */
export function toLangChainMessage(message: StoredMessage): BaseMessage {
  const record = readLangChainRecord(message);
  const common = {
    content: (record && 'content' in record ? record.content : message.content) as MessageContent,
    id: record?.id ?? message.id,
    name: record && 'name' in record ? (record.name ?? undefined) : message.name,
    additional_kwargs: (record?.additional_kwargs ?? {}) as Record<string, unknown>,
    response_metadata: (record?.response_metadata ?? {}) as Record<string, unknown>,
  };
  const chunk = record?.chunk === true;
  switch (record?.type ?? TYPE_OF_ROLE[message.role]) {
    case 'human':
      return chunk ? new HumanMessageChunk(common) : new HumanMessage(common);
    case 'system':
      return chunk ? new SystemMessageChunk(common) : new SystemMessage(common);
    case 'generic': {
      const fields = { ...common, role: record?.role ?? message.role };
      return chunk ? new ChatMessageChunk(fields) : new ChatMessage(fields);
    }
    case 'tool': {
      const fields = { ...common, tool_call_id: message.toolCallId ?? '', status: record?.status, artifact: record?.artifact, metadata: record?.metadata as Record<string, unknown> | undefined };
      return chunk ? new ToolMessageChunk(fields) : new ToolMessage(fields);
    }
    case 'ai':
      return chunk ? new AIMessageChunk(aiFields(common, message, record)) : new AIMessage(aiFields(common, message, record));
  }
}

/** The messages of `memory.getContext()` as LangChain messages: the memory as a SystemMessage, then the turns. */
export function toLangChainMessages(messages: readonly ContextMessage[]): BaseMessage[] {
  return messages.map((m) => (isMemoryMessage(m) ? new SystemMessage(m.content) : toLangChainMessage(m)));
}

/** AIMessage fields: tool calls from strata's fields unless the record keeps them (or the chunks they come from). */
function aiFields<C extends object>(common: C, message: StoredMessage, record: LangChainMessageRecord | undefined) {
  const calls =
    record?.tool_call_chunks === undefined
      ? { tool_calls: (record?.tool_calls ?? restoredToolCalls(message.toolCalls)) as AIMessage['tool_calls'] }
      : { tool_call_chunks: record.tool_call_chunks as AIMessageChunk['tool_call_chunks'] };
  return {
    ...common,
    ...calls,
    invalid_tool_calls: (record?.invalid_tool_calls ?? []) as AIMessage['invalid_tool_calls'],
    usage_metadata: record?.usage_metadata as AIMessage['usage_metadata'],
  };
}

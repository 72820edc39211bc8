import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { StoredMessage } from '../domain/message.js';

/** A stored turn as the LangChain message a chat model takes, tool calls intact. */
export function toLangChainMessage(message: StoredMessage): BaseMessage {
  const common = { content: message.content, id: message.id, ...(message.name ? { name: message.name } : {}) };
  switch (message.role) {
    case 'user':
      return new HumanMessage(common);
    case 'assistant':
      return new AIMessage({
        ...common,
        tool_calls: (message.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args, type: 'tool_call' as const })),
      });
    case 'tool':
      return new ToolMessage({ ...common, tool_call_id: message.toolCallId ?? '' });
    case 'system':
      return new SystemMessage(common);
  }
}

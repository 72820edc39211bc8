import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';

/**
 * One line per step of an agent run: `user: ...`, `tool call: name({...})` for each call the
 * model made, `tool result (name): ...`, `assistant: ...`.
 */
export function describeMessage(message: BaseMessage): string[] {
  if (AIMessage.isInstance(message)) {
    const calls = (message.tool_calls ?? []).map((call) => `tool call: ${call.name}(${JSON.stringify(call.args)})`);
    return message.text ? [`assistant: ${message.text}`, ...calls] : calls;
  }
  if (ToolMessage.isInstance(message)) return [`tool result (${message.name ?? 'tool'}): ${message.text.replace(/\n/g, '\n    ')}`];
  return [`${message.type === 'human' ? 'user' : message.type}: ${message.text}`];
}

import { convertToModelMessages, type ModelMessage, type UIMessage } from 'ai';
import type { MessageInput, StoredMessage, ToolCall } from '@strata/core';
import type { PromptMessage, TurnMessage } from './language-model-types.js';
import { fromPlainJson, toPlainJson } from './plain-json.js';
import { AI_SDK_KEY } from './turn-metadata.js';

type ToolMessage = Extract<TurnMessage, { role: 'tool' }>;
type ToolResultPart = Extract<ToolMessage['content'][number], { type: 'tool-result' }>;
type ToolResultOutput = ToolResultPart['output'];

/**
 * A prompt's turns as strata stores them, one unit per stored turn: user and assistant
 * messages as they are, a tool message split into one message per tool result (a strata tool
 * turn answers one call). Tool-approval responses are protocol, not conversation: not stored.
 */
export function toTurnUnits(messages: readonly PromptMessage[]): TurnMessage[] {
  return messages.flatMap((message): TurnMessage[] => {
    if (message.role === 'system') return [];
    if (message.role !== 'tool') return [message];
    return message.content.flatMap((part) => (part.type === 'tool-result' ? [{ ...message, content: [part] }] : []));
  });
}

/** A turn unit as a strata message: readable content for retrieval, the exact message in metadata. */
export function toMessageInput(message: TurnMessage): MessageInput {
  const metadata = { [AI_SDK_KEY]: { message: toPlainJson(message) } } as Record<string, unknown>;
  if (message.role === 'tool') {
    const [result] = message.content as ToolResultPart[];
    return { role: 'tool', content: outputText(result?.output) || '(no output)', toolCallId: result?.toolCallId ?? '', ...(result ? { name: result.toolName } : {}), metadata };
  }
  const text = partsText(message.content);
  if (message.role === 'user') return { role: 'user', content: text || describeParts(message.content), metadata };
  const toolCalls = message.content.flatMap((part): ToolCall[] => (part.type === 'tool-call' ? [{ id: part.toolCallId, name: part.toolName, args: argsOf(part.input) }] : []));
  return { role: 'assistant', content: text || (toolCalls.length ? '' : describeParts(message.content)), ...(toolCalls.length ? { toolCalls } : {}), metadata };
}

/**
 * A stored turn as prompt messages: exactly as given when this package stored it (a prompt
 * message, or a chat UIMessage through the AI SDK's own conversion), else from its role,
 * content and tool calls. A stored system turn comes back as a system message.
 */
export async function fromStoredTurn(turn: StoredMessage): Promise<PromptMessage[]> {
  const stored = turn.metadata?.[AI_SDK_KEY] as { message?: unknown; ui?: unknown } | undefined;
  if (stored?.message !== undefined) return [fromPlainJson(stored.message) as PromptMessage];
  if (stored?.ui !== undefined) return (await convertToModelMessages([stored.ui as UIMessage])).flatMap(toPromptMessage);
  switch (turn.role) {
    case 'system':
      return [{ role: 'system', content: turn.content }];
    case 'user':
      return [{ role: 'user', content: [{ type: 'text', text: turn.content }] }];
    case 'tool':
      return [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: turn.toolCallId ?? '', toolName: turn.name ?? 'tool', output: { type: 'text', value: turn.content } }] }];
    default:
      return [
        {
          role: 'assistant',
          content: [
            ...(turn.content ? [{ type: 'text' as const, text: turn.content }] : []),
            ...(turn.toolCalls ?? []).map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.args })),
          ],
        },
      ];
  }
}

/**
 * What identifies a turn when the same conversation is passed again: its role, its text, and
 * the ids of the tool calls it makes or answers. Provider options, file bytes and the exact
 * shape of tool inputs are left out: a chat UI that rebuilds its prompt from its own history
 * may carry them differently.
 */
export function fingerprint(message: PromptMessage): string {
  if (message.role === 'system') return JSON.stringify(['system', message.content]);
  const ids = message.content.flatMap((part) => ('toolCallId' in part ? [part.toolCallId] : []));
  const text = message.role === 'tool' ? '' : partsText(message.content);
  return JSON.stringify([message.role, text, ids]);
}

/** A high-level model message (from `convertToModelMessages`) as a prompt message. */
function toPromptMessage(message: ModelMessage): PromptMessage[] {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: message.content }];
    case 'user': {
      const content = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
      return [
        {
          role: 'user',
          content: content.map((part) =>
            part.type === 'image' ? { type: 'file' as const, data: part.image, mediaType: part.mediaType ?? 'image/*' } : part.type === 'file' ? { ...part, data: part.data } : part,
          ),
        },
      ] as PromptMessage[];
    }
    case 'assistant': {
      const content = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
      return [{ role: 'assistant', content: content.filter((part) => part.type !== 'tool-approval-request') }] as PromptMessage[];
    }
    default: {
      const results = message.content.filter((part) => part.type === 'tool-result');
      return results.length ? ([{ role: 'tool', content: results }] as PromptMessage[]) : [];
    }
  }
}

function partsText(parts: readonly { type: string }[]): string {
  return parts
    .flatMap((part) => (part.type === 'text' && 'text' in part && typeof part.text === 'string' ? [part.text] : []))
    .join('\n')
    .trim();
}

/** Content for a turn with no text: what it holds, e.g. `[file image/png]`. */
function describeParts(parts: readonly { type: string }[]): string {
  const named = parts.map((part) => {
    if (part.type === 'file' && 'mediaType' in part) return `[file ${String(part.mediaType)}${'filename' in part && part.filename ? ` ${String(part.filename)}` : ''}]`;
    return `[${part.type}]`;
  });
  return named.join(' ') || '[empty]';
}

/** A tool call's input as strata's `args` (a plain JSON object): an object as it is, anything else under `input`. */
function argsOf(input: unknown): Record<string, unknown> {
  const plain = toPlainJson(input, 'tool call input');
  return plain !== null && typeof plain === 'object' && !Array.isArray(plain) ? (plain as Record<string, unknown>) : { input: plain };
}

/** A tool result's output as readable text. */
export function outputText(output: ToolResultOutput | undefined): string {
  if (output === undefined) return '';
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return `execution denied${output.reason ? `: ${output.reason}` : ''}`;
    default:
      return JSON.stringify(toPlainJson(output.value, 'tool output'));
  }
}

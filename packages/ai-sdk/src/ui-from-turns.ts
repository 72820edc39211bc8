import type { StoredMessage } from '@strata/core';
import type { UIMessage } from 'ai';
import type { TurnMessage } from './language-model-types.js';
import { fromPlainJson } from './plain-json.js';
import { AI_SDK_KEY } from './turn-metadata.js';

type UIPart = UIMessage['parts'][number];
type ToolPart = Extract<UIPart, { toolCallId: string }>;
type ToolResultPart = Extract<Extract<TurnMessage, { role: 'tool' }>['content'][number], { type: 'tool-result' }>;
type FilePart = Extract<Extract<TurnMessage, { role: 'user' }>['content'][number], { type: 'file' }>;

/** An assistant message being converted: the next assistant turn continues it when its last step called tools. */
export interface OpenReply {
  message: UIMessage;
  callsTools: boolean;
}

/** Adds a turn not saved as a UIMessage to the chat, best-effort; returns the assistant message still open. */
export function addConvertedTurn(chat: UIMessage[], turn: StoredMessage, open: OpenReply | undefined): OpenReply | undefined {
  const prompt = promptMessageOf(turn);
  if (turn.role === 'user' || turn.role === 'system') {
    const parts = prompt?.role === 'user' ? prompt.content.map((part): UIPart => (part.type === 'file' ? toFilePart(part) : { type: 'text', text: part.text })) : [];
    chat.push({ id: turn.id, role: turn.role, parts: parts.length ? parts : [{ type: 'text', text: turn.content }] });
    return undefined;
  }
  let reply = open;
  if (reply === undefined || (turn.role === 'assistant' && !reply.callsTools)) {
    reply = { message: { id: turn.id, role: 'assistant', parts: [] }, callsTools: false };
    chat.push(reply.message);
  } else if (turn.role === 'assistant') {
    reply.message.parts.push({ type: 'step-start' });
  }
  const parts = reply.message.parts;
  if (turn.role === 'tool') {
    const results: ToolResultPart[] = prompt?.role === 'tool' ? prompt.content.filter((part) => part.type === 'tool-result') : [];
    if (results.length === 0) setToolResult(parts, turn.toolCallId ?? '', turn.name ?? 'tool', { type: 'text', value: turn.content });
    for (const result of results) setToolResult(parts, result.toolCallId, result.toolName, result.output);
    reply.callsTools = true;
    return reply;
  }
  const content = prompt?.role === 'assistant' ? prompt.content : plainAssistantContent(turn);
  for (const part of content) {
    if (part.type === 'text' || part.type === 'reasoning') parts.push({ type: part.type, text: part.text });
    else if (part.type === 'file') parts.push(toFilePart(part));
    else if (part.type === 'tool-call')
      parts.push({ type: `tool-${part.toolName}`, toolCallId: part.toolCallId, state: 'input-available', input: part.input, ...(part.providerExecuted ? { providerExecuted: true } : {}) });
    else setToolResult(parts, part.toolCallId, part.toolName, part.output);
  }
  reply.callsTools = content.some((part) => part.type === 'tool-call');
  return reply;
}

/** The prompt message the middleware stored with the turn (binary data decoded), when it is one of this turn's role. */
function promptMessageOf(turn: StoredMessage): TurnMessage | undefined {
  const stored = turn.metadata?.[AI_SDK_KEY];
  const message = isRecord(stored) ? stored.message : undefined;
  if (!isRecord(message) || message.role !== turn.role || !Array.isArray(message.content) || !message.content.every(isTypedPart)) return undefined;
  return fromPlainJson(message) as TurnMessage;
}

function plainAssistantContent(turn: StoredMessage): Extract<TurnMessage, { role: 'assistant' }>['content'] {
  return [
    ...(turn.content ? [{ type: 'text' as const, text: turn.content }] : []),
    ...(turn.toolCalls ?? []).map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.args })),
  ];
}

/** Puts a tool result on the call it answers (or on a new tool part when the call is not in the message). */
function setToolResult(parts: UIPart[], toolCallId: string, toolName: string, output: ToolResultPart['output']): void {
  const index = parts.findIndex((part) => 'toolCallId' in part && part.toolCallId === toolCallId);
  const call = index >= 0 ? (parts[index] as ToolPart) : undefined;
  const base = {
    ...(call?.type === 'dynamic-tool' ? { type: 'dynamic-tool', toolName: call.toolName } : { type: call?.type ?? `tool-${toolName}` }),
    toolCallId,
    input: call ? call.input : {},
    ...(call?.providerExecuted ? { providerExecuted: true } : {}),
  };
  const part = { ...base, ...resultFields(toolCallId, output) } as UIPart;
  if (call) parts[index] = part;
  else parts.push(part);
}

function resultFields(toolCallId: string, output: ToolResultPart['output']): Record<string, unknown> {
  switch (output.type) {
    case 'error-text':
      return { state: 'output-error', errorText: output.value };
    case 'error-json':
      return { state: 'output-error', errorText: JSON.stringify(output.value) };
    case 'execution-denied':
      return { state: 'output-denied', approval: { id: toolCallId, approved: false, ...(output.reason ? { reason: output.reason } : {}) } };
    default:
      return { state: 'output-available', output: output.value };
  }
}

function toFilePart(part: FilePart): UIPart {
  return { type: 'file', mediaType: part.mediaType, url: fileUrl(part.data, part.mediaType), ...(part.filename ? { filename: part.filename } : {}) };
}

/** A file's data as a UIMessage file URL: a URL as it is, bytes and base64 as a data URL. */
function fileUrl(data: FilePart['data'], mediaType: string): string {
  if (data instanceof URL) return data.href;
  if (data instanceof Uint8Array) return `data:${mediaType};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
  return /^[a-z][a-z0-9+.-]*:/i.test(data) ? data : `data:${mediaType};base64,${data}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isTypedPart(part: unknown): boolean {
  return isRecord(part) && typeof part.type === 'string';
}

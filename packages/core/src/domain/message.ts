/** Who a message is from; a `tool` message carries a tool's result and names its call in `toolCallId`. */
export type Role = 'user' | 'assistant' | 'system' | 'tool';

/**
 * A tool call an assistant message requests: its `id` (the `toolCallId` of the `tool` message
 * that answers it), the tool's name, and its arguments as a plain JSON object.
 */
export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** A message as the app hands it in. */
export interface MessageInput {
  role: Role;
  content: string;
  id?: string;
  name?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  /** Epoch milliseconds or a Date / ISO string; defaults to the clock. */
  createdAt?: number | string | Date;
  metadata?: Record<string, unknown>;
}

/**
 * What a turn costs in a prompt (content, tool calls and per-message overhead), counted once
 * when it is stored, with the counter named: a memory with another counter counts again.
 */
export interface TurnTokenCount {
  /** `TokenCounter.name` of the counter that counted it. */
  counter: string;
  count: number;
}

/** A message ready to be stored: id and time resolved, seq not yet assigned. */
export interface NewMessage {
  id: string;
  role: Role;
  content: string;
  name?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  createdAt: number;
  metadata: Record<string, unknown>;
  /** Prompt tokens of the turn, counted when it was stored (absent on turns stored before counts were kept). */
  tokens?: TurnTokenCount;
}

/** A stored message: verbatim, with its per-session sequence number (1, 2, ...). */
export interface StoredMessage extends NewMessage {
  sessionId: string;
  namespace: string;
  seq: number;
}

/** The one system message of a context: the app's system prompt, if given, then strata's memory (working tier, facts, recalled extracts). */
export interface MemoryMessage {
  role: 'system';
  content: string;
  /** Tells it apart from a stored system turn. */
  memory: true;
}

/** A message of an assembled context: the memory message (when there is memory to show), then stored turns verbatim. */
export type ContextMessage = MemoryMessage | StoredMessage;

/** The memory message of a context, as opposed to a stored turn. */
export function isMemoryMessage(message: ContextMessage): message is MemoryMessage {
  return 'memory' in message && message.memory === true;
}

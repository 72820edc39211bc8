export type Role = 'user' | 'assistant' | 'system' | 'tool';

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
}

/** A stored message: verbatim, with its per-session sequence number (1, 2, ...). */
export interface StoredMessage extends NewMessage {
  sessionId: string;
  namespace: string;
  seq: number;
}

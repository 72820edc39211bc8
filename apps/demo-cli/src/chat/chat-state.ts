import type { Memory, Session } from '@strata/core';
import type { CliConfig } from '../config.js';
import type { ChatAssistant } from './assistant.js';

/** Everything a chat turn or command needs; `session` changes with /new, /load, /clear, /forget. */
export interface ChatState {
  memory: Memory;
  assistant: ChatAssistant;
  config: CliConfig;
  /** The SQLite file, for people. */
  path: string;
  session: Session;
  /** Token budget of the context the model gets. */
  budgetTokens: number;
  /** Writes a line for the person at the keyboard. */
  print(line?: string): void;
  /** True when talking to a terminal (clear screen, prompts). */
  isInteractive: boolean;
}

/** Creates a session in the chat's namespace, titled with the time. */
export async function newChatSession(state: Pick<ChatState, 'memory' | 'config'>, title?: string): Promise<Session> {
  return state.memory.sessions.create({ namespace: state.config.namespace, title: title ?? `Chat ${new Date().toISOString().slice(0, 16).replace('T', ' ')}` });
}

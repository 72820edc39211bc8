import { randomUUID } from 'node:crypto';
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
  /** The chat's session; a new one is a draft until its first message (`isSessionStored`), so quitting a chat at once leaves no empty session. */
  session: Session;
  isSessionStored: boolean;
  /** Token budget of the context the model gets. */
  budgetTokens: number;
  /** Writes a line for the person at the keyboard. */
  print(line?: string): void;
  /** True when talking to a terminal (clear screen, prompts). */
  isInteractive: boolean;
  /** A destructive command that asked for confirmation: the next line answers it (y / yes runs it). */
  pendingConfirmation?: { run: () => Promise<void> };
}

/** A new session of the chat's namespace, titled with the time: a draft, stored with its first message (`storeSession`). */
export function draftSession(config: Pick<ChatState['config'], 'namespace'>, title?: string): Session {
  const now = Date.now();
  // the id is fixed now, so that what the chat shows is the id the session is stored under
  return {
    id: `ses_${randomUUID().replace(/-/g, '')}`,
    namespace: config.namespace,
    title: title ?? `Chat ${new Date(now).toISOString().slice(0, 16).replace('T', ' ')}`,
    metadata: {},
    createdAt: now,
    updatedAt: now,
    lastSeq: 0,
  };
}

/** The chat's session, stored first if it is still a draft. */
export async function storeSession(state: ChatState): Promise<Session> {
  if (!state.isSessionStored) {
    const { id, namespace, title } = state.session;
    state.session = await state.memory.sessions.create({ id, namespace, ...(title === undefined ? {} : { title }) });
    state.isSessionStored = true;
  }
  return state.session;
}

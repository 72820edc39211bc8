import { isMemoryMessage, type ContextResult, type StoredMessage } from '@strata/core';
import type { Prompt, PromptMessage, TurnMessage } from './language-model-types.js';
import { fromStoredTurn } from './prompt-turns.js';

export interface PromptInput {
  /** The context strata assembled (with `systemPrompt: appSystem`). */
  context: ContextResult;
  /** The app's own system prompt: its system messages, joined. */
  appSystem: string;
  /** The current turn as the call gave it (the newest user message and what followed it): always sent, as it is. */
  current: readonly TurnMessage[];
  /** Ids of the stored turns that are the current turn: left out of the context's turns, which would repeat them. */
  currentIds: ReadonlySet<string>;
}

/**
 * The prompt a model gets: ONE system message (the app's system prompt, then strata's memory,
 * then stored system turns of the window), the context's turns oldest first, then the current
 * turn. A tool call of the context whose result is not in it (or a result whose call was cut)
 * is left out with it: providers reject either half alone.
 */
export async function buildPrompt({ context, appSystem, current, currentIds }: PromptInput): Promise<Prompt> {
  const memoryText = context.messages.find(isMemoryMessage)?.content ?? '';
  const turns = context.messages.filter((m): m is StoredMessage => !isMemoryMessage(m) && !currentIds.has(m.id));
  const history = (await Promise.all(turns.map(fromStoredTurn))).flat();
  const folded = history.flatMap((m) => (m.role === 'system' ? [m.content] : []));
  const system = [appSystem, memoryWithoutPrompt(memoryText, appSystem), ...folded].filter((part) => part !== '').join('\n\n');
  const answeredInCurrent = new Set(current.flatMap(resultIds));
  const messages = [
    ...pairToolCalls(
      history.filter((m): m is TurnMessage => m.role !== 'system'),
      answeredInCurrent,
    ),
    ...current,
  ];
  return system ? [{ role: 'system', content: system }, ...messages] : messages;
}

/** The memory message's text after the system prompt core put first ('' when it holds only the prompt). */
function memoryWithoutPrompt(memoryText: string, systemPrompt: string): string {
  if (!systemPrompt) return memoryText;
  if (memoryText === systemPrompt) return '';
  if (memoryText.startsWith(`${systemPrompt}\n\n`)) return memoryText.slice(systemPrompt.length + 2);
  return memoryText;
}

/** Drops tool calls without a result (in `messages` or `answeredElsewhere`) and results without a call; a message left empty goes too. */
export function pairToolCalls(messages: readonly TurnMessage[], answeredElsewhere: ReadonlySet<string> = new Set()): TurnMessage[] {
  const answered = new Set([...answeredElsewhere, ...messages.flatMap(resultIds)]);
  const called = new Set(messages.flatMap((m) => (m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'tool-call' ? [p.toolCallId] : [])) : [])));
  return messages.flatMap((message): TurnMessage[] => {
    if (message.role === 'user') return [message];
    if (message.role === 'assistant') {
      const content = message.content.filter((p) => p.type !== 'tool-call' || p.providerExecuted === true || answered.has(p.toolCallId));
      return content.length ? [{ ...message, content }] : [];
    }
    const content = message.content.filter((p) => p.type === 'tool-result' && called.has(p.toolCallId));
    return content.length ? [{ ...message, content }] : [];
  });
}

function resultIds(message: PromptMessage): string[] {
  return message.role === 'tool' ? message.content.flatMap((p) => (p.type === 'tool-result' ? [p.toolCallId] : [])) : [];
}

import type { BaseMessage } from '@langchain/core/messages';
import { isMemoryMessage, type ContextResult, type StoredMessage } from '@strata/core';
import { toLangChainMessage } from './to-langchain-message.js';
import { pairToolCalls } from './pair-tool-calls.js';

/** A context as a chat model takes it: one system text, then the turns. */
export interface StrataPrompt {
  /**
   * The one system message: the app's system prompt, strata's memory, then any stored system
   * turns of the recent window, separated by blank lines ('' when there is none of them).
   */
  system: string;
  /** What strata adds after the app's system prompt ('' when nothing): `system` is `systemPrompt`, a blank line and this. */
  appended: string;
  /** The turns after the system message, oldest first, no system turn among them, every tool call answered. */
  messages: BaseMessage[];
}

/**
 * Turns a context (from `memory.getContext(id, { systemPrompt })`) into a prompt providers
 * accept: exactly one leading system message, and tool calls paired with their results. Stored
 * system turns are folded into the system message (they were counted in the budget as turns).
 * A tool call whose result is not in the window (or a result whose call was cut) is left out
 * with it: OpenAI, Anthropic and others reject either half alone.
 * @example
 * const context = await memory.getContext(session.id, { systemPrompt: 'You are terse.', budgetTokens: 2000 });
 * const { system, messages } = buildStrataPrompt(context, 'You are terse.');
 * await model.invoke([new SystemMessage(system), ...messages]);
 */
export function buildStrataPrompt(context: ContextResult, systemPrompt = ''): StrataPrompt {
  const memoryText = context.messages.find(isMemoryMessage)?.content ?? '';
  const turns = context.messages.filter((m): m is StoredMessage => !isMemoryMessage(m));
  const folded = turns.filter((m) => m.role === 'system').map((m) => m.content);
  const head = memoryWithoutPrompt(memoryText, systemPrompt);
  const appended = [head, ...folded].filter((part) => part !== '').join('\n\n');
  return {
    system: [systemPrompt, appended].filter((part) => part !== '').join('\n\n'),
    appended,
    messages: pairToolCalls(turns.filter((m) => m.role !== 'system').map(toLangChainMessage)),
  };
}

/** The memory message's text after the system prompt core put first ('' when it holds only the prompt). */
function memoryWithoutPrompt(memoryText: string, systemPrompt: string): string {
  if (!systemPrompt) return memoryText;
  if (memoryText === systemPrompt) return '';
  if (memoryText.startsWith(`${systemPrompt}\n\n`)) return memoryText.slice(systemPrompt.length + 2);
  // A core that did not put the prompt first: keep its memory, the prompt is still sent once.
  return memoryText;
}

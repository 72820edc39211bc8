import { HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { RunnableLambda, type Runnable, type RunnableConfig, type RunnableInterface } from '@langchain/core/runnables';
import type { ContextResult } from '../services/context.js';
import type { Memory } from '../services/memory.js';
import { lastHumanText, toMessageInputs } from './from-langchain-message.js';

/**
 * What the wrapped runnable takes: the new user turn as text or a HumanMessage, or new
 * turns of any role (e.g. the ToolMessages answering the model's last tool calls).
 */
export type WithStrataMemoryInput = string | BaseMessage | BaseMessage[];

export interface WithStrataMemoryOptions {
  memory: Memory;
  /** The session every call reads from and appends to; create it with `memory.sessions.create()`. */
  sessionId: string;
  /** Token budget of the prompt handed to the model. @defaultValue the memory policy's `context.defaultBudgetTokens` */
  budgetTokens?: number;
  /** Called with each context before the model sees it: its manifest says what was kept or cut, and why. */
  onContext?: (context: ContextResult) => void;
}

/**
 * Gives any chat model (or runnable taking `BaseMessage[]`) strata memory. Each call appends
 * the new turn, assembles the context for it within the budget (facts, recalled extracts,
 * summaries, recent turns), invokes the model with that context, appends the model's reply
 * (tool calls intact) and returns it.
 * @example
 * const chat = withStrataMemory(new ChatOpenAI({ model: 'gpt-4o-mini' }), { memory, sessionId: session.id, budgetTokens: 2000 });
 * const reply = await chat.invoke('Where do I live?');
 */
export function withStrataMemory<O extends BaseMessage>(model: RunnableInterface<BaseMessage[], O>, options: WithStrataMemoryOptions): Runnable<WithStrataMemoryInput, O> {
  const { memory, sessionId, budgetTokens, onContext } = options;
  const run = async (input: WithStrataMemoryInput, config: Partial<RunnableConfig>): Promise<O> => {
    const turns = toTurns(input);
    const inputs = toMessageInputs(turns);
    if (inputs.length) await memory.append(sessionId, inputs);
    const query = lastHumanText(turns);
    const context = await memory.getContext(sessionId, {
      ...(query === undefined ? {} : { query }),
      ...(budgetTokens === undefined ? {} : { budgetTokens }),
    });
    onContext?.(context);
    const reply = await model.invoke(context.messages, config);
    const stored = toMessageInputs([reply]);
    if (stored.length) await memory.append(sessionId, stored);
    return reply;
  };
  return RunnableLambda.from(run).withConfig({ runName: 'StrataMemory' });
}

function toTurns(input: WithStrataMemoryInput): BaseMessage[] {
  if (typeof input === 'string') return [new HumanMessage(input)];
  return Array.isArray(input) ? input : [input];
}

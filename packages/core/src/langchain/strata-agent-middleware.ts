import type { BaseMessage } from '@langchain/core/messages';
import type { createMiddleware as CreateMiddleware } from 'langchain';
import { z } from 'zod';
import { StrataError } from '../errors/strata-error.js';
import type { ContextResult } from '../services/context.js';
import type { Memory } from '../services/memory.js';
import { lastHumanText, toMessageInputs } from './from-langchain-message.js';

/** What the middleware reads from an agent run to pick the session. */
export interface StrataAgentRuntime {
  readonly configurable?: { thread_id?: string; [key: string]: unknown };
  readonly context?: unknown;
}

export interface StrataMiddlewareOptions {
  memory: Memory;
  /**
   * The strata session of the conversation: a fixed id (one agent per session), or a function
   * of the run, e.g. `(runtime) => String(runtime.configurable?.thread_id)` with
   * `agent.invoke(input, { configurable: { thread_id: session.id } })`.
   */
  sessionId: string | ((runtime: StrataAgentRuntime) => string);
  /** Token budget of each model prompt. @defaultValue the memory policy's `context.defaultBudgetTokens` */
  budgetTokens?: number;
  /** Called with each context before the model sees it: its manifest says what was kept or cut, and why. */
  onContext?: (context: ContextResult) => void;
}

/**
 * Agent state the middleware adds: ids of the state messages already appended to strata.
 * It lives in the agent state (not in the middleware) so concurrent runs, and runs resumed
 * from a checkpointer, each append every message exactly once.
 */
const strataStateSchema = z.object({ strataStoredMessageIds: z.array(z.string()).default([]) });

interface StrataAgentState {
  messages: BaseMessage[];
  strataStoredMessageIds?: string[];
}

/**
 * Middleware for LangChain v1 agents (`createAgent` from 'langchain') that makes strata the
 * agent's memory. Before every model call it appends the turns the model has not seen stored
 * (the user's message, then its tool calls and the tool results) and replaces the prompt's
 * messages with strata's context for the latest user message: facts, recalled extracts,
 * summaries and recent turns within the budget. After the run it appends the final answer.
 * Each message is appended once. Pass only the new user message to `invoke`: strata is the history.
 *
 * Async because it loads 'langchain' (an optional peer dependency) only when called, so the
 * rest of `@strata/core/langchain` works without it.
 * @throws StrataError CONFIG_INVALID when 'langchain' is not installed.
 * @example
 * const agent = createAgent({
 *   model,
 *   tools: [getWeather],
 *   middleware: [await createStrataMiddleware({ memory, sessionId: (rt) => String(rt.configurable?.thread_id), budgetTokens: 2000 })],
 * });
 * await agent.invoke({ messages: [new HumanMessage('Where do I live?')] }, { configurable: { thread_id: session.id } });
 */
export async function createStrataMiddleware(options: StrataMiddlewareOptions) {
  const createMiddleware = await loadCreateMiddleware();
  const sessionOf = (runtime: StrataAgentRuntime) => resolveSessionId(options.sessionId, runtime);
  const persist = (state: StrataAgentState, runtime: StrataAgentRuntime) => appendNewMessages(options.memory, sessionOf(runtime), state);
  return createMiddleware({
    name: 'StrataMemory',
    stateSchema: strataStateSchema,
    beforeModel: persist,
    wrapModelCall: async (request, handler) => {
      const context = await contextFor(options, sessionOf(request.runtime), request.state.messages);
      return handler({ ...request, messages: context.messages });
    },
    afterAgent: persist,
  });
}

/** The result type of `createStrataMiddleware`, for annotations. */
export type StrataMiddleware = Awaited<ReturnType<typeof createStrataMiddleware>>;

async function loadCreateMiddleware(): Promise<typeof CreateMiddleware> {
  try {
    return (await import('langchain')).createMiddleware;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new StrataError('CONFIG_INVALID', "createStrataMiddleware needs the 'langchain' package (v1.x), which is not installed", {
      hint: 'Install it next to @strata/core: npm install langchain@^1.5.14',
      cause: error,
    });
  }
}

function resolveSessionId(sessionId: StrataMiddlewareOptions['sessionId'], runtime: StrataAgentRuntime): string {
  const id = typeof sessionId === 'function' ? sessionId(runtime) : sessionId;
  if (typeof id === 'string' && id.trim()) return id;
  throw new StrataError('INVALID_INPUT', `the strata session id for this agent run is empty (got ${JSON.stringify(id)})`, {
    hint: 'Pass sessionId as the id from memory.sessions.create(), or a function returning it (e.g. from configurable.thread_id).',
  });
}

/** Appends the state messages not appended yet and records their ids in the agent state. */
async function appendNewMessages(memory: Memory, sessionId: string, state: StrataAgentState): Promise<{ strataStoredMessageIds: string[] } | undefined> {
  const storedIds = state.strataStoredMessageIds ?? [];
  const stored = new Set(storedIds);
  const fresh = state.messages.map((message, index) => ({ message, key: keyOf(message, index) })).filter((m) => !stored.has(m.key));
  if (!fresh.length) return undefined;
  const inputs = toMessageInputs(fresh.map((m) => m.message));
  if (inputs.length) await memory.append(sessionId, inputs);
  return { strataStoredMessageIds: [...storedIds, ...fresh.map((m) => m.key)] };
}

/** LangGraph gives every state message an id; the position is a fallback that is stable within a run. */
function keyOf(message: BaseMessage, index: number): string {
  return message.id ?? `#${index}`;
}

async function contextFor(options: StrataMiddlewareOptions, sessionId: string, messages: readonly BaseMessage[]): Promise<ContextResult> {
  const query = lastHumanText(messages);
  const context = await options.memory.getContext(sessionId, {
    ...(query === undefined ? {} : { query }),
    ...(options.budgetTokens === undefined ? {} : { budgetTokens: options.budgetTokens }),
  });
  options.onContext?.(context);
  return context;
}

import { SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import type { InteropZodObject } from '@langchain/core/utils/types';
import { z } from 'zod';
import { StrataError, type ContextResult, type MemoryApi } from '@strata/core';
import { lastHumanText } from './from-langchain-message.js';
import { ensureSession } from './ensure-session.js';
import { buildStrataPrompt, type StrataPrompt } from './strata-prompt.js';
import { sessionIdForThread } from './thread-session-id.js';
import { appendAfterWatermark } from './state-watermark.js';

/** What the middleware reads from an agent run to pick (and create) the session. */
export interface StrataAgentRuntime {
  readonly configurable?: { thread_id?: string; [key: string]: unknown };
  readonly context?: unknown;
}

/** A value, or a function of the agent run that gives it. */
export type PerRun<T> = T | ((runtime: StrataAgentRuntime) => T);

/**
 * Options of {@link createStrataMiddleware}: the memory, the session of each run (by default
 * from its thread id), the namespace to create it in, the token budget, and a hook that sees
 * each context.
 */
export interface StrataMiddlewareOptions {
  memory: MemoryApi;
  /**
   * The strata session of the run: a fixed id, or a function of the run.
   * @defaultValue the run's `configurable.thread_id` (through {@link sessionIdForThread})
   */
  sessionId?: PerRun<string>;
  /**
   * Namespace (user, tenant) of the run. When given, an unknown session is created in it on
   * the run's first step, and a session of another namespace is refused (CONFLICT).
   * Without it, the session must exist (NOT_FOUND otherwise). A function reads the run's
   * `configurable`, or its `context` (whose fields LangChain hands to middleware hooks only
   * when they are in the middleware's `contextSchema`).
   */
  namespace?: PerRun<string>;
  /** Title and metadata of a session the middleware creates. */
  session?: { title?: PerRun<string>; metadata?: PerRun<Record<string, unknown>> };
  /** Token budget of each model prompt, the agent's system prompt included. @defaultValue the memory policy's `context.defaultBudgetTokens` */
  budgetTokens?: number;
  /** Called with each context before the model sees it: its manifest says what was kept or cut, and why. */
  onContext?: (context: ContextResult) => void;
  /** Zod schema of the agent `context` fields the functions above read (e.g. a user id for `namespace`). */
  contextSchema?: InteropZodObject;
}

/**
 * Agent state the middleware adds: the key (id) of the newest state message already appended
 * to strata. One string, whatever the length of the thread, checkpointed with the rest of the
 * state, so runs resumed from a checkpointer (also after an interrupt) and concurrent runs on
 * other threads each append every message exactly once.
 */
const strataStateSchema = z.object({ strataWatermark: z.string().optional() });

/**
 * Middleware for LangChain v1 agents (`createAgent` from 'langchain') that makes strata the
 * agent's memory. At the start of a run it finds the session (creating it in `namespace` on a
 * new thread). Before every model call it appends the state messages strata has not seen (the
 * user's message, then tool calls and results) and replaces the prompt with strata's context:
 * one system message (the agent's `systemPrompt`, then strata's memory, counted in the budget)
 * and the turns that fit, the current turn always among them. After the run it appends the
 * final answer. With a checkpointer, the state keeps its history but the model still sees
 * strata's context, and nothing is appended twice. Without one, pass only the new messages to
 * `invoke`: strata is the history, and a run cannot tell earlier turns passed again from new ones.
 * @example
 * const agent = createAgent({
 *   model,
 *   tools: [getWeather],
 *   systemPrompt: 'You are a weather bot.',
 *   middleware: [createStrataMiddleware({
 *     memory,
 *     contextSchema: z.object({ userId: z.string() }),
 *     namespace: (runtime) => (runtime.context as { userId: string }).userId,
 *     budgetTokens: 2000,
 *   })],
 *   checkpointer: new MemorySaver(),
 * });
 * await agent.invoke({ messages: [new HumanMessage('Where do I live?')] }, { configurable: { thread_id: crypto.randomUUID() }, context: { userId: 'u42' } });
 */
export function createStrataMiddleware(options: StrataMiddlewareOptions) {
  const { memory } = options;
  const sessionOf = (runtime: StrataAgentRuntime) => resolveSessionId(options.sessionId, runtime);
  const persist = async (state: { messages: BaseMessage[]; strataWatermark?: string | undefined }, runtime: StrataAgentRuntime) => {
    const watermark = await appendAfterWatermark(memory, sessionOf(runtime), state.messages, state.strataWatermark);
    return watermark === state.strataWatermark ? undefined : { strataWatermark: watermark };
  };
  return createMiddleware({
    name: 'StrataMemory',
    stateSchema: strataStateSchema,
    contextSchema: options.contextSchema,
    beforeAgent: async (_state, runtime) => {
      await ensureSession(memory, sessionOf(runtime), newSessionSpec(options, runtime));
    },
    beforeModel: persist,
    wrapModelCall: async (request, handler) => {
      const agentPrompt = request.systemMessage.text;
      const context = await contextFor(options, sessionOf(request.runtime), request.state.messages, agentPrompt);
      const prompt = buildStrataPrompt(context, agentPrompt);
      // Never an empty prompt: if no stored turn could be shown, the run's own current turn is sent.
      const messages = prompt.messages.length ? prompt.messages : currentTurnOf(request.messages);
      return handler({ ...request, messages, systemMessage: mergedSystemMessage(request.systemMessage, prompt) });
    },
    afterAgent: persist,
  });
}

/** The result type of `createStrataMiddleware`, for annotations. */
export type StrataMiddleware = ReturnType<typeof createStrataMiddleware>;

function resolvePerRun<T>(value: PerRun<T>, runtime: StrataAgentRuntime): T {
  return typeof value === 'function' ? (value as (runtime: StrataAgentRuntime) => T)(runtime) : value;
}

function resolveSessionId(sessionId: StrataMiddlewareOptions['sessionId'], runtime: StrataAgentRuntime): string {
  if (sessionId === undefined) {
    const threadId: unknown = runtime.configurable?.thread_id;
    if ((typeof threadId === 'string' && threadId) || typeof threadId === 'number') return sessionIdForThread(String(threadId));
    throw new StrataError('INVALID_INPUT', `this agent run has no thread_id to name its strata session (got ${JSON.stringify(threadId)})`, {
      hint: "Invoke the agent with { configurable: { thread_id } } (e.g. crypto.randomUUID() per conversation), or pass the middleware's sessionId option.",
    });
  }
  const id = resolvePerRun(sessionId, runtime);
  if (typeof id === 'string' && id.trim()) return id;
  throw new StrataError('INVALID_INPUT', `the strata session id for this agent run is empty (got ${JSON.stringify(id)})`, {
    hint: 'Pass sessionId as the id from memory.sessions.create(), or a function returning it (e.g. from configurable.thread_id).',
  });
}

function newSessionSpec(options: StrataMiddlewareOptions, runtime: StrataAgentRuntime) {
  if (options.namespace === undefined) return {};
  const namespace = resolvePerRun(options.namespace, runtime);
  if (typeof namespace !== 'string' || !namespace) {
    throw new StrataError('INVALID_INPUT', `the namespace for this agent run is empty (got ${JSON.stringify(namespace)})`, {
      hint: "A namespace function reads runtime.configurable, or runtime.context fields declared in the middleware's contextSchema option (LangChain gives hooks no others).",
    });
  }
  const { title, metadata } = options.session ?? {};
  return {
    namespace,
    ...(title === undefined ? {} : { title: resolvePerRun(title, runtime) }),
    ...(metadata === undefined ? {} : { metadata: resolvePerRun(metadata, runtime) }),
  };
}

async function contextFor(options: StrataMiddlewareOptions, sessionId: string, messages: readonly BaseMessage[], systemPrompt: string): Promise<ContextResult> {
  const query = lastHumanText(messages);
  const context = await options.memory.getContext(sessionId, {
    ...(query ? { query } : {}),
    ...(options.budgetTokens === undefined ? {} : { budgetTokens: options.budgetTokens }),
    ...(systemPrompt ? { systemPrompt } : {}),
  });
  options.onContext?.(context);
  return context;
}

/**
 * The agent's system message with strata's part appended, so its content blocks (e.g. cache
 * control) stay as they were; or strata's text alone when the agent has none.
 */
function mergedSystemMessage(agentMessage: SystemMessage, prompt: StrataPrompt): SystemMessage {
  if (!prompt.appended) return agentMessage;
  return agentMessage.text ? agentMessage.concat(`\n\n${prompt.appended}`) : new SystemMessage(prompt.system);
}

/** The state's newest human message and what follows it, without system messages. */
function currentTurnOf(messages: readonly BaseMessage[]): BaseMessage[] {
  const start = messages.findLastIndex((m) => m.type === 'human');
  return messages.slice(Math.max(start, 0)).filter((m) => m.type !== 'system');
}

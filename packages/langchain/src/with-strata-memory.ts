import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { CallbackManagerForChainRun } from '@langchain/core/callbacks/manager';
import { patchConfig, Runnable, type RunnableConfig, type RunnableInterface } from '@langchain/core/runnables';
import { concat } from '@langchain/core/utils/stream';
import { StrataError, type ContextResult, type MemoryApi } from '@strata/core';
import { lastHumanText, toMessageInputs } from './from-langchain-message.js';
import { ensureSession } from './ensure-session.js';
import { buildStrataPrompt } from './strata-prompt.js';

/**
 * What the wrapped runnable takes: the new user turn as text or a HumanMessage, or new
 * turns of any role (e.g. the ToolMessages answering the model's last tool calls).
 */
export type WithStrataMemoryInput = string | BaseMessage | BaseMessage[];

/**
 * Options of {@link withStrataMemory}: the memory, the session of each call (fixed or from its
 * config), the namespace to create it in, the system prompt, the token budget, and a hook
 * that sees each context.
 */
export interface WithStrataMemoryOptions {
  memory: MemoryApi;
  /**
   * The session every call reads from and appends to, or a function of the call's config (in a
   * LangGraph node, e.g. `(config) => sessionIdForThread(config.configurable?.thread_id)`).
   */
  sessionId: string | ((config: RunnableConfig) => string);
  /** When given, an unknown session is created in this namespace on first use (and a session of another namespace is refused). */
  namespace?: string;
  /** Your system prompt: it leads the one system message (strata's memory follows) and counts against the budget. */
  systemPrompt?: string;
  /** Token budget of the prompt handed to the model. @defaultValue the memory policy's `context.defaultBudgetTokens` */
  budgetTokens?: number;
  /** Called with each context before the model sees it: its manifest says what was kept or cut, and why. */
  onContext?: (context: ContextResult) => void;
  /**
   * Called once per call when the reply's fate is known: appended to the session, or not, and
   * why not (e.g. to log a streamed answer the user aborted). It runs after the append, so the
   * session already holds what it says.
   */
  onReply?: (outcome: ReplyOutcome) => void;
}

/**
 * What became of one call's reply (see {@link WithStrataMemoryOptions.onReply}). A reply is
 * not stored when the call was `aborted` through its signal, when the consumer of a stream
 * `stopped reading` before its end, when the model or the append `failed` (with its error), or when
 * the model streamed nothing (`empty`).
 */
export type ReplyOutcome = { sessionId: string; stored: true } | { sessionId: string; stored: false; reason: 'aborted' | 'stopped reading' | 'failed' | 'empty'; error?: unknown };

/**
 * Gives any chat model (or runnable taking `BaseMessage[]`) strata memory. Each call appends
 * the new turns, assembles the context within the budget (one system message: `systemPrompt`
 * and strata's memory; then the recent turns, the current turn always in), calls the model
 * with it, appends the model's reply (tool calls intact) and returns it.
 *
 * `stream()` and `streamEvents()` yield the model's chunks as they come; the whole reply is
 * appended once the stream ends. A stream aborted through its signal, or left early by its
 * consumer, appends no reply (the user's turn, appended before the model is called, stays).
 * @example
 * const chat = withStrataMemory(new ChatOpenAI({ model: 'gpt-4o-mini' }), { memory, sessionId: session.id, systemPrompt: 'Be brief.', budgetTokens: 2000 });
 * const reply = await chat.invoke('Where do I live?');
 * for await (const chunk of await chat.stream('And my cat?')) process.stdout.write(chunk.text);
 */
export function withStrataMemory<O extends BaseMessage>(model: RunnableInterface<BaseMessage[], O>, options: WithStrataMemoryOptions): Runnable<WithStrataMemoryInput, O> {
  return new StrataMemoryRunnable(model, options);
}

class StrataMemoryRunnable<O extends BaseMessage> extends Runnable<WithStrataMemoryInput, O> {
  lc_namespace = ['strata', 'runnables'];

  constructor(
    private readonly model: RunnableInterface<BaseMessage[], O>,
    private readonly options: WithStrataMemoryOptions,
  ) {
    super();
  }

  static override lc_name(): string {
    return 'StrataMemory';
  }

  override async invoke(input: WithStrataMemoryInput, options?: Partial<RunnableConfig>): Promise<O> {
    return this._callWithConfig(this.invokeModel.bind(this), input, options);
  }

  override async *_streamIterator(input: WithStrataMemoryInput, options?: Partial<RunnableConfig>): AsyncGenerator<O> {
    async function* only() {
      yield input;
    }
    yield* this._transformStreamWithConfig(only(), this.streamModel.bind(this), options);
  }

  private async invokeModel(input: WithStrataMemoryInput, config?: Partial<RunnableConfig>, runManager?: CallbackManagerForChainRun): Promise<O> {
    const { sessionId, prompt } = await this.prepare(input, config ?? {});
    let reply: O;
    try {
      reply = await this.model.invoke(prompt, patchConfig(config, { callbacks: runManager?.getChild() }));
      await this.store(sessionId, reply);
    } catch (error) {
      this.options.onReply?.({ sessionId, stored: false, reason: config?.signal?.aborted ? 'aborted' : 'failed', error });
      throw error;
    }
    this.options.onReply?.({ sessionId, stored: true });
    return reply;
  }

  private async *streamModel(inputs: AsyncGenerator<WithStrataMemoryInput>, runManager?: CallbackManagerForChainRun, config?: Partial<RunnableConfig>): AsyncGenerator<O> {
    let input: WithStrataMemoryInput | undefined;
    for await (const value of inputs) input = value;
    if (input === undefined) return;
    const { sessionId, prompt } = await this.prepare(input, config ?? {});
    let reply: O | undefined;
    // The outcome is reported once: when the stream ends, fails or is left, or at the abort
    // itself (an aborted stream can stay suspended at its yield, never resumed).
    let settled = false;
    let storing = false;
    const report = (outcome: ReplyOutcome): void => {
      if (settled) return;
      settled = true;
      this.options.onReply?.(outcome);
    };
    const signal = config?.signal;
    const onAbort = (): void => {
      if (!storing) report({ sessionId, stored: false, reason: 'aborted' });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const chunk of await this.model.stream(prompt, patchConfig(config, { callbacks: runManager?.getChild() }))) {
        reply = reply === undefined ? chunk : (concat(reply, chunk) as O);
        yield chunk;
      }
      // Reached only when the model's stream ended: a consumer that stopped reading never gets here.
      // Some models end their stream quietly on abort, so the signal decides.
      signal?.throwIfAborted();
      storing = true;
      if (reply !== undefined) await this.store(sessionId, reply);
      report(reply === undefined ? { sessionId, stored: false, reason: 'empty' } : { sessionId, stored: true });
    } catch (error) {
      report({ sessionId, stored: false, reason: !storing && signal?.aborted ? 'aborted' : 'failed', error });
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // a consumer that stops reading ends this generator at its yield
      report({ sessionId, stored: false, reason: 'stopped reading' });
    }
  }

  /** Appends the new turns and builds the prompt from strata's context. */
  private async prepare(input: WithStrataMemoryInput, config: Partial<RunnableConfig>): Promise<{ sessionId: string; prompt: BaseMessage[] }> {
    const { memory, budgetTokens, systemPrompt, namespace, onContext } = this.options;
    const sessionId = this.sessionIdFor(config);
    if (namespace !== undefined) await ensureSession(memory, sessionId, { namespace });
    const turns = toTurns(input);
    const inputs = toMessageInputs(turns);
    if (inputs.length) await memory.append(sessionId, inputs);
    const query = lastHumanText(turns);
    const context = await memory.getContext(sessionId, {
      ...(query ? { query } : {}),
      ...(budgetTokens === undefined ? {} : { budgetTokens }),
      ...(systemPrompt ? { systemPrompt } : {}),
    });
    onContext?.(context);
    const { system, messages } = buildStrataPrompt(context, systemPrompt);
    // Never an empty prompt: if no stored turn could be shown, the call's own turns are sent.
    const turnsToSend = messages.length ? messages : turns.filter((m) => m.type !== 'system');
    return { sessionId, prompt: [...(system ? [new SystemMessage(system)] : []), ...turnsToSend] };
  }

  private async store(sessionId: string, reply: BaseMessage): Promise<void> {
    const stored = toMessageInputs([reply]);
    if (stored.length) await this.options.memory.append(sessionId, stored);
  }

  private sessionIdFor(config: Partial<RunnableConfig>): string {
    const { sessionId } = this.options;
    const id = typeof sessionId === 'function' ? sessionId(config) : sessionId;
    if (typeof id === 'string' && id) return id;
    throw new StrataError('INVALID_INPUT', `withStrataMemory got no session id for this call (got ${JSON.stringify(id)})`, {
      hint: 'Pass sessionId as the id from memory.sessions.create(), or a function of the call config returning it (e.g. from configurable.thread_id).',
    });
  }
}

function toTurns(input: WithStrataMemoryInput): BaseMessage[] {
  if (typeof input === 'string') return [new HumanMessage(input)];
  return Array.isArray(input) ? input : [input];
}

import type { LanguageModelMiddleware } from 'ai';
import { StrataError, type ContextResult, type MemoryApi, type StoredMessage } from '@strata/core';
import { ensureSession } from './ensure-session.js';
import type { CallOptions, PromptMessage, ResultContent, StreamPart, TurnMessage } from './language-model-types.js';
import { fingerprint, fromStoredTurn, toMessageInput, toTurnUnits } from './prompt-turns.js';
import { buildPrompt } from './strata-prompt.js';

/** The session a call reads and writes, and what a session created on first use gets. */
export interface StrataSessionSpec {
  id: string;
  title?: string;
  metadata?: Record<string, unknown>;
}

/** Options of {@link strataMemory}. */
export interface StrataMemoryOptions {
  memory: MemoryApi;
  /**
   * The strata session of the calls: an id, or an id with the title and metadata a session
   * created on first use gets. A call can name another one in its provider options:
   * `providerOptions: { strata: { sessionId } }`. One of the three is required.
   */
  sessionId?: string;
  session?: StrataSessionSpec;
  /**
   * Namespace (user, tenant) of the session. When given, an unknown session is created in it
   * on first use, and a session of another namespace is refused (CONFLICT). Without it, the
   * session must exist (NOT_FOUND otherwise).
   */
  namespace?: string;
  /** Token budget of each prompt, the app's system prompt included. @defaultValue the memory policy's `context.defaultBudgetTokens` */
  budgetTokens?: number;
  /**
   * What strata retrieves for: a fixed text, or a function of the call's prompt.
   * @defaultValue the text of the newest user message
   */
  query?: string | ((prompt: readonly PromptMessage[]) => string | undefined);
  /**
   * Whether the middleware stores the turns (true), or only reads memory (false): for a chat
   * UI that stores its `UIMessage`s with `saveUIMessages` instead.
   * @defaultValue true
   */
  persist?: boolean;
  /** Called with each context before the model sees it: its manifest says what was kept or cut, and why. */
  onContext?: (context: ContextResult) => void;
}

/** The turns of a call and where they stand in the session. */
interface PreparedCall {
  sessionId: string;
  params: CallOptions;
}

/**
 * Language-model middleware (`wrapLanguageModel({ model, middleware: strataMemory(...) })`)
 * that makes strata the model's memory, with any provider, for `generateText`, `streamText`
 * and tool loops (`stopWhen`, agents).
 *
 * Before each model call it stores the turns of the prompt strata has not seen (the user's
 * message, then the tool results of a loop), and replaces the prompt with strata's context:
 * ONE system message (the app's system prompt, then strata's memory, counted in the budget),
 * the turns that fit, and the current turn (the newest user message and what followed it)
 * always, as given. After the call it stores the reply (text, reasoning, tool calls). Each
 * turn is stored once however many steps run: a prompt's turns that end the stored session
 * are recognised (role, text and tool call ids), so passing the whole history again, as chat
 * UIs do, stores nothing twice. A stream that is aborted or fails stores the user's turn and
 * no partial reply.
 * @example
 * const model = wrapLanguageModel({ model: openai('gpt-4o-mini'), middleware: strataMemory({ memory, sessionId: chatId, namespace: userId }) });
 * const { text } = await generateText({ model, system: 'You are terse.', prompt: 'Where do I live?' });
 */
export function strataMemory(options: StrataMemoryOptions): LanguageModelMiddleware {
  const persist = options.persist ?? true;
  const prepare = async (params: CallOptions): Promise<PreparedCall> => {
    const session = sessionOf(options, params);
    await ensureSession(options.memory, session.id, {
      ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
      ...(session.title === undefined ? {} : { title: session.title }),
      ...(session.metadata === undefined ? {} : { metadata: session.metadata }),
    });
    const prompt = await memoryPrompt(options, session.id, params.prompt, persist);
    return { sessionId: session.id, params: { ...params, prompt } };
  };
  const store = async (sessionId: string, reply: TurnMessage | null): Promise<void> => {
    if (persist && reply !== null) await options.memory.append(sessionId, toMessageInput(reply));
  };
  return {
    specificationVersion: 'v3',
    wrapGenerate: async ({ params, model }) => {
      const call = await prepare(params);
      const result = await model.doGenerate(call.params);
      await store(call.sessionId, replyOf(result.content));
      return result;
    },
    wrapStream: async ({ params, model }) => {
      const call = await prepare(params);
      const { stream, ...rest } = await model.doStream(call.params);
      return { ...rest, stream: stream.pipeThrough(storeWhenComplete(params.abortSignal, (reply) => store(call.sessionId, reply))) };
    },
  };
}

function sessionOf(options: StrataMemoryOptions, params: CallOptions): StrataSessionSpec {
  const perCall = (params.providerOptions?.strata as { sessionId?: unknown } | undefined)?.sessionId;
  if (perCall !== undefined) {
    if (typeof perCall === 'string' && perCall.trim()) return { id: perCall };
    throw new StrataError('INVALID_INPUT', `providerOptions.strata.sessionId must be a non-empty string (got ${JSON.stringify(perCall)})`, {
      hint: "Pass the chat's id, e.g. providerOptions: { strata: { sessionId: chatId } }.",
    });
  }
  const session = options.session ?? (options.sessionId === undefined ? undefined : { id: options.sessionId });
  if (session !== undefined && typeof session.id === 'string' && session.id.trim()) return session;
  throw new StrataError('INVALID_INPUT', `strataMemory needs the strata session of this call (got ${JSON.stringify(session?.id)})`, {
    hint: 'Pass sessionId (or session: { id, title }) to strataMemory, or providerOptions: { strata: { sessionId } } to the call.',
  });
}

/**
 * Stores the prompt's new turns (when `persist`), then assembles the prompt from strata's
 * context. The new turns are those after the longest run of the prompt's first turns that
 * ends the stored session: nothing when the whole prompt is stored already (a step that only
 * repeats), all of them when the app passes only the new message.
 */
async function memoryPrompt(options: StrataMemoryOptions, sessionId: string, prompt: readonly PromptMessage[], persist: boolean): Promise<PromptMessage[]> {
  const { memory } = options;
  const units = toTurnUnits(prompt);
  const tail = units.length ? await storedUnits(await memory.messages(sessionId, { last: units.length })) : [];
  const matched = overlapLength(
    units.map(fingerprint),
    tail.map((unit) => unit.fingerprint),
  );
  const fresh = units.slice(matched);
  const freshIds = persist && fresh.length ? (await memory.append(sessionId, fresh.map(toMessageInput))).map((m) => m.id) : [];
  const ids = [...tail.slice(tail.length - matched).map((unit) => unit.id), ...freshIds];
  const lastUser = units.findLastIndex((unit) => unit.role === 'user');
  const start = Math.max(lastUser, 0);
  const current = units.slice(start);
  const currentIds = new Set(ids.slice(start));
  const appSystem = prompt
    .flatMap((m) => (m.role === 'system' ? [m.content] : []))
    .filter((text) => text !== '')
    .join('\n\n');
  const query = queryOf(options.query, prompt, units[lastUser]);
  const context = await memory.getContext(sessionId, {
    ...(query ? { query } : {}),
    ...(options.budgetTokens === undefined ? {} : { budgetTokens: options.budgetTokens }),
    ...(appSystem ? { systemPrompt: appSystem } : {}),
  });
  options.onContext?.(context);
  return buildPrompt({ context, appSystem, current, currentIds });
}

/** The stored turns as units with their fingerprints, oldest first (a stored chat UIMessage may give several). */
async function storedUnits(turns: readonly StoredMessage[]): Promise<{ id: string; fingerprint: string }[]> {
  const expanded = await Promise.all(turns.map(async (turn) => toTurnUnits(await fromStoredTurn(turn)).map((unit) => ({ id: turn.id, fingerprint: fingerprint(unit) }))));
  return expanded.flat();
}

/** The length of the longest prefix of `incoming` that is also a suffix of `stored`. */
export function overlapLength(incoming: readonly string[], stored: readonly string[]): number {
  for (let length = Math.min(incoming.length, stored.length); length > 0; length--) {
    const offset = stored.length - length;
    let same = true;
    for (let i = 0; i < length && same; i++) same = incoming[i] === stored[offset + i];
    if (same) return length;
  }
  return 0;
}

function queryOf(query: StrataMemoryOptions['query'], prompt: readonly PromptMessage[], lastUser: TurnMessage | undefined): string | undefined {
  if (typeof query === 'string') return query;
  if (typeof query === 'function') return query(prompt);
  if (lastUser?.role !== 'user') return undefined;
  return lastUser.content
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
}

type AssistantPart = Extract<TurnMessage, { role: 'assistant' }>['content'][number];

/** A model's reply as an assistant turn (null when it holds nothing to store). */
function replyOf(content: readonly ResultContent[]): TurnMessage | null {
  const parts = content.flatMap((part): AssistantPart[] => {
    switch (part.type) {
      case 'text':
        return part.text ? [{ type: 'text', text: part.text }] : [];
      case 'reasoning':
        return part.text ? [{ type: 'reasoning', text: part.text }] : [];
      case 'tool-call':
        return [{ type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: parseInput(part.input), ...(part.providerExecuted ? { providerExecuted: true } : {}) }];
      case 'file':
        return [{ type: 'file', data: part.data, mediaType: part.mediaType }];
      default:
        return [];
    }
  });
  return parts.length ? { role: 'assistant', content: parts } : null;
}

/** A tool call's input arrives as JSON text; the prompt of the next step holds it parsed. */
function parseInput(input: string): unknown {
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/**
 * Passes a model's stream through, collecting the reply; stores it once the stream ends with a
 * finish that is not an error and the call was not aborted. An aborted, failed or cancelled
 * stream stores nothing (its user turn was stored before the call).
 */
function storeWhenComplete(signal: AbortSignal | undefined, store: (reply: TurnMessage | null) => Promise<void>): TransformStream<StreamPart, StreamPart> {
  const content: ResultContent[] = [];
  const open = new Map<string, { type: 'text' | 'reasoning'; text: string }>();
  let failed = false;
  let finished = false;
  return new TransformStream<StreamPart, StreamPart>({
    transform(part, controller) {
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start': {
          const entry = { type: part.type === 'text-start' ? ('text' as const) : ('reasoning' as const), text: '' };
          open.set(`${entry.type}:${part.id}`, entry);
          content.push(entry as ResultContent);
          break;
        }
        case 'text-delta':
        case 'reasoning-delta': {
          const entry = open.get(`${part.type === 'text-delta' ? 'text' : 'reasoning'}:${part.id}`);
          if (entry) entry.text += part.delta;
          break;
        }
        case 'tool-call':
        case 'file':
          content.push(part as ResultContent);
          break;
        case 'error':
          failed = true;
          break;
        case 'finish':
          finished = true;
          if (part.finishReason.unified === 'error') failed = true;
          break;
        default:
          break;
      }
      controller.enqueue(part);
    },
    async flush() {
      // Some providers end their stream quietly on abort: the signal decides.
      if (failed || !finished || signal?.aborted) return;
      await store(replyOf(content));
    },
  });
}

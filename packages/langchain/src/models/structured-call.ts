import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { invalidModelOutput, StrataError, toModelError, type UsageListener } from '@strata/core';
import { breakerOptionsSchema, throughBreaker, type BreakerOptions } from './endpoint-breaker.js';
import { endpointHost, endpointKey, withMethod, type StructuredOutputMethod } from './output-method.js';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from './retry-after.js';
import { answerCandidates, readAnswer, type AnswerShape, type DroppedItem } from './read-model-answer.js';

export type { StructuredOutputMethod } from './output-method.js';

/** Options shared by the LLM-backed models; parsed once by their constructors. */
export const llmModelOptionsSchema = z.object({
  model: z.custom<BaseChatModel>((value) => typeof value === 'object' && value !== null && typeof (value as { withStructuredOutput?: unknown }).withStructuredOutput === 'function', {
    message: 'model must be a LangChain chat model (BaseChatModel, e.g. new ChatOpenAI({ ... }))',
  }),
  /**
   * How structured output is asked for; `'auto'` tries tool calling, then a JSON schema, then
   * JSON mode, and remembers what the endpoint accepted (per base URL and model, for the process).
   * @defaultValue 'auto'
   */
  method: z.enum(['auto', 'functionCalling', 'jsonSchema', 'jsonMode']).default('auto'),
  /** The endpoint's circuit breaker: consecutive failures that make derivation go offline at once, and the cool-down before a call probes again. @defaultValue 3 failures, 30 s cool-down */
  breaker: breakerOptionsSchema.default({ failures: 3, coolDownMs: 30_000 }),
  /**
   * Each model call's time limit, whatever the chat model's own client allows (ChatOpenAI's is
   * 10 minutes): a call over it counts as the endpoint failing (retried with backoff, then
   * derived offline). @defaultValue 60_000
   */
  timeoutMs: z.int().positive().default(60_000),
});

/** How the LLM-backed models call their chat model: the parsed options, less the model. */
export type CallSettings = Pick<StructuredCall<unknown>, 'method' | 'breaker' | 'timeoutMs'>;

/** The model and its call settings, from options parsed with {@link llmModelOptionsSchema}. */
export function callSettingsOf(parsed: z.output<typeof llmModelOptionsSchema>): { model: BaseChatModel; settings: CallSettings } {
  return { model: parsed.model, settings: { method: parsed.method, breaker: parsed.breaker, timeoutMs: parsed.timeoutMs } };
}

export interface StructuredCall<T> {
  model: BaseChatModel;
  method: StructuredOutputMethod | 'auto';
  /** Name of the tool / schema the model is asked to fill. */
  name: string;
  /** The schema the model is asked for, and how its answer is read leniently (see {@link AnswerShape}). */
  shape: AnswerShape<T>;
  messages: BaseMessage[];
  onUsage: UsageListener | undefined;
  /** The circuit breaker's settings (the first model built on `model` sets them); false: no breaker (a probe). */
  breaker: BreakerOptions | false;
  /** The call's time limit; past it the call fails as the endpoint being down (BACKEND_UNAVAILABLE, retryable). */
  timeoutMs: number;
  /** Told of the items of an answer left out (invalid), with why; the rest is kept. */
  onDropped?: ((dropped: DroppedItem[]) => void) | undefined;
}

/** The model name for messages: ChatOpenAI's `model`, else the LangChain model type. */
export function modelNameOf(model: BaseChatModel): string {
  const named = (model as { model?: unknown }).model;
  return typeof named === 'string' && named ? named : model._llmType();
}

/**
 * Asks the model for output of `shape.schema` and reads the answer tolerantly, keeping strictly:
 * from a tool call (also one under another name), from JSON-schema output, or from text that
 * may be fenced, wrapped in prose or cut short (repaired with jsonrepair); a list's items are
 * validated one by one (numbers sent as text are read), the invalid ones dropped and reported
 * through `onDropped`. When nothing can be read, the model is asked once more with the
 * validation error: at most two calls. Reports each call's token usage, with the model's name;
 * a failure names the endpoint's host (never its key).
 * @throws StrataError from {@link toModelError} when a call fails; INTERNAL (not retryable)
 *   when neither answer can be read.
 */
export async function invokeStructured<T>(call: StructuredCall<T>): Promise<T> {
  const first = await ask(call, call.messages);
  const read = readAnswer(answerCandidates(first.raw, first.parsed, call.name), call.shape);
  if (read.ok) return kept(call, read);
  const retry = [
    ...call.messages,
    new AIMessage(first.raw?.text || JSON.stringify(first.raw?.tool_calls?.[0]?.args ?? null)),
    new HumanMessage(`Your answer could not be used: ${read.error}\nAnswer again with the same content as valid JSON for ${call.name}, every field of the requested schema filled.`),
  ];
  const second = await ask(call, retry);
  const again = readAnswer(answerCandidates(second.raw, second.parsed, call.name), call.shape);
  if (again.ok) return kept(call, again);
  throw invalidModelOutput(modelNameOf(call.model), again.error, undefined, endpointHost(call.model));
}

function kept<T>(call: StructuredCall<T>, read: { value: T; dropped: DroppedItem[] }): T {
  if (read.dropped.length) call.onDropped?.(read.dropped);
  return read.value;
}

/** One model call: its raw message (with usage reported) and what LangChain parsed, if anything. */
async function ask<T>(call: StructuredCall<T>, messages: BaseMessage[]): Promise<{ raw?: AIMessage; parsed?: unknown }> {
  const name = modelNameOf(call.model);
  const endpoint = endpointHost(call.model);
  const once = () =>
    withMethod(call.method, endpointKey(call.model, name), (method) => {
      const invoke = async () => {
        try {
          const runnable = call.model.withStructuredOutput(call.shape.schema, { name: call.name, method, includeRaw: true });
          return (await runnable.invoke(messages, { timeout: call.timeoutMs })) as unknown;
        } catch (error) {
          throw toModelError(error, name, endpoint);
        }
      };
      return call.breaker === false ? invoke() : throughBreaker(call.model, call.breaker, name, endpoint, isEndpointDown, invoke);
    });
  let output: unknown;
  try {
    output = await once();
  } catch (error) {
    // A 429 or 503 that says when to come back is asked again then, once (a longer wait is the queue's backoff).
    const wait = StrataError.is(error) ? retryAfterMs(error.cause) : undefined;
    if (wait === undefined || wait > MAX_RETRY_AFTER_MS) throw error;
    await new Promise((resolve) => setTimeout(resolve, wait));
    output = await once();
  }
  const split = splitOutput(output);
  if (split.raw) call.onUsage?.({ ...usageOf(split.raw), model: name });
  return split;
}

/** `{ raw, parsed }` with `includeRaw`; models that ignore it (test fakes) return the parsed value. */
function splitOutput(output: unknown): { raw?: AIMessage; parsed?: unknown } {
  if (typeof output === 'object' && output !== null && 'raw' in output) {
    const { raw, parsed } = output as { raw: unknown; parsed: unknown };
    return { ...(AIMessage.isInstance(raw) ? { raw } : {}), ...(parsed === null || parsed === undefined ? {} : { parsed }) };
  }
  return { parsed: output };
}

function usageOf(raw: AIMessage): { inputTokens: number; outputTokens: number } {
  const usage = raw.usage_metadata;
  return { inputTokens: usage?.input_tokens ?? 0, outputTokens: usage?.output_tokens ?? 0 };
}

/** A failure that says the endpoint is down or overloaded (what the breaker counts), not that it refused or answered badly. */
const isEndpointDown = (error: unknown): boolean => StrataError.is(error, 'BACKEND_UNAVAILABLE') && error.retryable;

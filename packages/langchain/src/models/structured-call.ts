import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { invalidModelOutput, toModelError, type UsageListener } from '@strata/core';

/** How a chat model is asked for structured output (LangChain's `withStructuredOutput` methods). */
export type StructuredOutputMethod = 'functionCalling' | 'jsonSchema' | 'jsonMode';

/** Options shared by the LLM-backed models; parsed once by their constructors. */
export const llmModelOptionsSchema = z.object({
  model: z.custom<BaseChatModel>((value) => typeof value === 'object' && value !== null && typeof (value as { withStructuredOutput?: unknown }).withStructuredOutput === 'function', {
    message: 'model must be a LangChain chat model (BaseChatModel, e.g. new ChatOpenAI({ ... }))',
  }),
  /** @defaultValue 'functionCalling' (tool calling: what most OpenAI-compatible servers support) */
  method: z.enum(['functionCalling', 'jsonSchema', 'jsonMode']).default('functionCalling'),
});

export interface StructuredCall<T> {
  model: BaseChatModel;
  method: StructuredOutputMethod;
  /** Name of the tool / schema the model is asked to fill. */
  name: string;
  schema: z.ZodType<T>;
  messages: BaseMessage[];
  onUsage: UsageListener | undefined;
}

/** The model name for messages: ChatOpenAI's `model`, else the LangChain model type. */
export function modelNameOf(model: BaseChatModel): string {
  const named = (model as { model?: unknown }).model;
  return typeof named === 'string' && named ? named : model._llmType();
}

/**
 * Asks the model for output of `schema` and validates it with zod (LangChain's tool-call
 * parser does not). Reports the call's token usage from the response's `usage_metadata`.
 * @throws StrataError from {@link toModelError} when the call fails; INTERNAL (not retryable)
 *   when the answer does not match the schema.
 */
export async function invokeStructured<T>(call: StructuredCall<T>): Promise<T> {
  const name = modelNameOf(call.model);
  let output: unknown;
  try {
    const runnable = call.model.withStructuredOutput(call.schema, { name: call.name, method: call.method, includeRaw: true });
    output = await runnable.invoke(call.messages);
  } catch (error) {
    throw toModelError(error, name);
  }
  const { raw, parsed } = splitOutput(output);
  if (raw) call.onUsage?.(usageOf(raw));
  const candidate = parsed ?? (raw ? rawArguments(raw, call.name) : undefined);
  const result = call.schema.safeParse(candidate);
  if (!result.success) throw invalidModelOutput(name, z.prettifyError(result.error), result.error);
  return result.data;
}

/** `{ raw, parsed }` with `includeRaw`; models that ignore it (test fakes) return the parsed value. */
function splitOutput(output: unknown): { raw?: AIMessage; parsed?: unknown } {
  if (typeof output === 'object' && output !== null && 'raw' in output) {
    const { raw, parsed } = output as { raw: unknown; parsed: unknown };
    return { ...(AIMessage.isInstance(raw) ? { raw } : {}), ...(parsed === null || parsed === undefined ? {} : { parsed }) };
  }
  return { parsed: output };
}

/** The arguments of the named tool call, else the message text parsed as JSON. */
function rawArguments(raw: AIMessage, name: string): unknown {
  const call = raw.tool_calls?.find((c) => c.name === name) ?? raw.tool_calls?.[0];
  if (call) return call.args;
  try {
    return JSON.parse(raw.text) as unknown;
  } catch {
    // Not JSON: zod reports the missing fields against `undefined`.
    return undefined;
  }
}

function usageOf(raw: AIMessage): { inputTokens: number; outputTokens: number } {
  const usage = raw.usage_metadata;
  return { inputTokens: usage?.input_tokens ?? 0, outputTokens: usage?.output_tokens ?? 0 };
}

import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { StrataError } from '@strata/core';

/** How a chat model is asked for structured output (LangChain's `withStructuredOutput` methods). */
export type StructuredOutputMethod = 'functionCalling' | 'jsonSchema' | 'jsonMode';

/** The methods `'auto'` tries, in order: tool calling, then a JSON schema, then JSON mode. */
export const AUTO_ORDER: readonly StructuredOutputMethod[] = ['functionCalling', 'jsonSchema', 'jsonMode'];

/** The method that worked for each endpoint and model, for the life of the process. */
const detected = new Map<string, StructuredOutputMethod>();

/** The host (`host:port`) of a chat model's endpoint (ChatOpenAI's base URL), for reports: never a key, a path or a query. */
export function endpointHost(model: BaseChatModel): string | undefined {
  const baseURL = (model as { clientConfig?: { baseURL?: unknown } }).clientConfig?.baseURL;
  if (typeof baseURL !== 'string') return undefined;
  try {
    return new URL(baseURL).host || undefined;
  } catch {
    return undefined;
  }
}

/** An endpoint and model as one key: the client's base URL (ChatOpenAI's `clientConfig`) and the model name. */
export function endpointKey(model: BaseChatModel, name: string): string {
  const baseURL = (model as { clientConfig?: { baseURL?: unknown } }).clientConfig?.baseURL;
  return `${typeof baseURL === 'string' ? baseURL : model._llmType()}|${name}`;
}

/**
 * Runs `call` with the method to use: `method` itself, or for `'auto'` the one that worked
 * before for this endpoint and model, else each of {@link AUTO_ORDER} until the endpoint
 * accepts one (a request it refuses, HTTP 4xx: INVALID_INPUT, tries the next), remembered
 * once a call with it succeeds.
 * @throws what the call throws, or the last refusal when the endpoint accepts none of them.
 */
export async function withMethod<T>(method: StructuredOutputMethod | 'auto', key: string, call: (method: StructuredOutputMethod) => Promise<T>): Promise<T> {
  if (method !== 'auto') return call(method);
  const known = detected.get(key);
  if (known !== undefined) return call(known);
  let refusal: unknown;
  for (const candidate of AUTO_ORDER) {
    try {
      const result = await call(candidate);
      detected.set(key, candidate);
      return result;
    } catch (error) {
      if (!StrataError.is(error, 'INVALID_INPUT')) throw error;
      refusal = error;
    }
  }
  throw new StrataError('CONFIG_INVALID', `the endpoint refused tool calling, JSON schema and JSON mode alike (${key})`, {
    hint: 'Use a model or server that supports one of them (most do tool calling), or check the request it refused in the cause.',
    cause: refusal,
  });
}

/** The method `'auto'` settled on for an endpoint and model in this process, if it has. */
export function detectedMethod(key: string): StructuredOutputMethod | undefined {
  return detected.get(key);
}

import { ChatOpenAI } from '@langchain/openai';
import type { StubChatHandler } from '@strata/testkit';
import { exampleEndpoint } from './example-endpoint.js';

export interface ConnectedChatModel {
  model: ChatOpenAI;
  /** Where the model answers from, for the example's first line of output. */
  endpoint: string;
  /** Stops the stub, if one was started. */
  close(): Promise<void>;
}

/**
 * The chat model of an example: the OpenAI-compatible endpoint named by STRATA_LLM_BASE_URL
 * (with STRATA_LLM_MODEL and OPENAI_API_KEY), or, when it is not set, strata's OpenAI-compatible
 * stub started on 127.0.0.1 and answering with `script`, so the example runs offline with no key.
 * An invalid environment is reported on stderr and ends the process with code 1.
 * @example
 * const { model, endpoint, close } = await connectChatModel('my-example', (request) => 'Hello!');
 */
export async function connectChatModel(example: string, script: StubChatHandler): Promise<ConnectedChatModel> {
  const { model, apiKey, baseURL, isStub, endpoint, close } = await exampleEndpoint(example, script);
  return { model: chatModel(model, apiKey, baseURL, isStub ? 0 : undefined), endpoint, close };
}

function chatModel(model: string, apiKey: string, baseURL: string, maxRetries?: number): ChatOpenAI {
  return new ChatOpenAI({
    model,
    apiKey,
    configuration: { baseURL },
    // Streaming makes LangChain estimate usage with tokenizers it downloads; strata counts tokens itself.
    streaming: false,
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });
}

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { StubChatHandler } from '@strata/testkit';
import { exampleEndpoint } from './example-endpoint.js';

export interface ConnectedLanguageModel {
  /** An AI SDK language model (`@ai-sdk/openai-compatible`). */
  model: ReturnType<ReturnType<typeof createOpenAICompatible>['chatModel']>;
  /** Where the model answers from, for the example's first line of output. */
  endpoint: string;
  /** Stops the stub, if one was started. */
  close(): Promise<void>;
}

/** The AI SDK model of an example, on the endpoint {@link exampleEndpoint} picks (the scripted stub offline). */
export async function connectLanguageModel(example: string, script: StubChatHandler): Promise<ConnectedLanguageModel> {
  const { model, apiKey, baseURL, isStub, endpoint, close } = await exampleEndpoint(example, script);
  const provider = createOpenAICompatible({ name: isStub ? 'strata-stub' : 'openai-compatible', baseURL, apiKey });
  return { model: provider.chatModel(model), endpoint, close };
}

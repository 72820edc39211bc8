import type { Embedder, FactExtractor, Summarizer, ThreadSelector } from '@strata/core';
import { OpenAIEmbeddings } from '@langchain/openai';
import { LlmThreadSelector } from '@strata/langchain';
import type { ChatAssistant } from './chat/assistant.js';
import { ModelAssistant } from './chat/model-assistant.js';
import type { Endpoint } from './config.js';
import { createLlmModels } from './llm-models.js';

/** The models an OpenAI-compatible endpoint gives the CLI: derivation, the chat and the thread choice. */
export interface EndpointModels {
  summarizer: Summarizer;
  extractor: FactExtractor;
  embeddings?: Embedder;
  assistant: ChatAssistant;
  threadSelector: ThreadSelector;
}

/**
 * Everything the CLI builds on LangChain, in one module that the composition root imports
 * only when an endpoint is configured (the offline commands never load LangChain).
 */
export function createEndpointModels(llm: Endpoint, embeddings: (Endpoint & { dimensions?: number }) | undefined): EndpointModels {
  const { method, ...endpoint } = llm;
  const models = createLlmModels({ ...endpoint, ...(method ? { structuredOutput: method } : {}), ...(embeddings ? { embeddings } : {}) });
  return {
    summarizer: models.summarizer,
    extractor: models.extractor,
    ...(models.embeddings ? { embeddings: models.embeddings } : {}),
    assistant: new ModelAssistant(models.streamingChatModel, `${llm.model} at ${llm.baseUrl}`),
    threadSelector: new LlmThreadSelector({ model: models.chatModel, ...(method ? { method } : {}) }),
  };
}

/** Embeddings from an endpoint while the summaries and facts stay offline (no LLM configured). */
export function createEndpointEmbeddings(endpoint: Endpoint & { dimensions?: number }): Embedder {
  return new OpenAIEmbeddings({
    model: endpoint.model,
    apiKey: endpoint.apiKey ?? 'no-key',
    encodingFormat: 'float',
    maxRetries: 0,
    ...(endpoint.dimensions ? { dimensions: endpoint.dimensions } : {}),
    configuration: { baseURL: endpoint.baseUrl },
  });
}

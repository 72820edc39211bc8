import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai';
import { StrataError } from '@strata/core/errors';
import { LlmFactExtractor, LlmSummarizer, type StructuredOutputMethod } from '@strata/langchain';
import { z } from 'zod';

const url = (what: string) => z.url({ protocol: /^https?$/, error: `${what} must be an http(s) URL, e.g. http://127.0.0.1:11434/v1` });

const endpointSchema = {
  baseUrl: url('baseUrl'),
  model: z.string().trim().min(1, 'model must name the model the endpoint serves'),
  apiKey: z.string().min(1).optional(),
};

export const llmModelsConfigSchema = z.object({
  ...endpointSchema,
  /** How structured output is requested; 'auto' finds what the endpoint accepts (tool calling, then JSON schema, then JSON mode). @defaultValue 'auto' */
  structuredOutput: z.enum(['auto', 'functionCalling', 'jsonSchema', 'jsonMode']).default('auto'),
  /** Per-request timeout. @defaultValue 60000 */
  timeoutMs: z.number().int().positive().default(60_000),
  /** Retries inside the client; the job queue already retries with backoff. @defaultValue 0 */
  maxRetries: z.number().int().min(0).max(10).default(0),
  /** The endpoint's circuit breaker: consecutive failed calls that make derivation go offline at once, and the cool-down before one call probes again. @defaultValue 3 failures, 30000 ms */
  breaker: z.object({ failures: z.number().int().min(1).default(3), coolDownMs: z.number().int().min(0).default(30_000) }).default({ failures: 3, coolDownMs: 30_000 }),
  embeddings: z.object({ ...endpointSchema, dimensions: z.number().int().positive().optional() }).optional(),
});

export type LlmModelsConfig = z.input<typeof llmModelsConfigSchema>;

export interface LlmModels {
  chatModel: ChatOpenAI;
  /** The same endpoint and model with streaming allowed, for answers shown as they are written (`chatModel` never streams). */
  streamingChatModel: ChatOpenAI;
  summarizer: LlmSummarizer;
  extractor: LlmFactExtractor;
  /** Present when `config.embeddings` is. */
  embeddings?: OpenAIEmbeddings;
}

// Local servers (Ollama, vLLM, LM Studio) need no key; the client refuses to start without one.
const NO_KEY = 'no-key';

/**
 * Builds strata's LLM-backed models for any OpenAI-compatible endpoint: one `ChatOpenAI`
 * (non-streaming, temperature 0) shared by the summarizer and the fact extractor, and
 * `OpenAIEmbeddings` (float encoding) when `embeddings` is given. No I/O, no env: the CLI
 * reads `STRATA_LLM_*` / `STRATA_EMBEDDINGS_*` / `OPENAI_API_KEY` and passes them here.
 * @throws StrataError CONFIG_INVALID naming the bad field.
 * @example
 * const { summarizer, extractor, embeddings } = createLlmModels({
 *   baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1',
 *   embeddings: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text' },
 * });
 * const memory = await createMemory({ summarizer, extractor, ...(embeddings ? { embeddings } : {}) });
 */
export function createLlmModels(config: LlmModelsConfig): LlmModels {
  const parsed = llmModelsConfigSchema.safeParse(config);
  if (!parsed.success) {
    throw new StrataError('CONFIG_INVALID', `LLM model config is invalid:\n${z.prettifyError(parsed.error)}`, {
      hint: 'Set STRATA_LLM_BASE_URL (ending in /v1) and STRATA_LLM_MODEL; STRATA_EMBEDDINGS_BASE_URL and STRATA_EMBEDDINGS_MODEL for embeddings.',
      cause: parsed.error,
    });
  }
  const c = parsed.data;
  const settings = { model: c.model, apiKey: c.apiKey ?? NO_KEY, temperature: 0, timeout: c.timeoutMs, maxRetries: c.maxRetries, configuration: { baseURL: c.baseUrl } };
  // Streaming usage estimates fetch tokenizer files from the internet; responses carry usage anyway.
  const chatModel = new ChatOpenAI({ ...settings, streaming: false });
  // .stream() asks the endpoint for its usage in the last chunk (stream_options.include_usage): nothing is estimated
  const streamingChatModel = new ChatOpenAI({ ...settings, streamUsage: true });
  const method: StructuredOutputMethod | 'auto' = c.structuredOutput;
  const e = c.embeddings;
  return {
    chatModel,
    streamingChatModel,
    summarizer: new LlmSummarizer({ model: chatModel, method, breaker: c.breaker, timeoutMs: c.timeoutMs }),
    extractor: new LlmFactExtractor({ model: chatModel, method, breaker: c.breaker, timeoutMs: c.timeoutMs }),
    ...(e
      ? {
          embeddings: new OpenAIEmbeddings({
            model: e.model,
            apiKey: e.apiKey ?? NO_KEY,
            // Servers answering float arrays to a base64 request yield [] silently.
            encodingFormat: 'float',
            timeout: c.timeoutMs,
            maxRetries: c.maxRetries,
            configuration: { baseURL: e.baseUrl },
            ...(e.dimensions ? { dimensions: e.dimensions } : {}),
          }),
        }
      : {}),
  };
}

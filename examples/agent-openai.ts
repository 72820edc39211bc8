/**
 * strata as the memory of a LangChain agent on any OpenAI-compatible endpoint (OpenAI, Ollama,
 * vLLM, LM Studio, ...).
 *
 *   STRATA_LLM_BASE_URL=https://api.openai.com/v1 STRATA_LLM_MODEL=gpt-4o-mini OPENAI_API_KEY=sk-... \
 *     node --import tsx --conditions=@strata/source examples/agent-openai.ts
 */
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { runTwoSessionDemo } from './lib/two-session-demo.js';

const envSchema = z.object({
  STRATA_LLM_BASE_URL: z.url({ error: 'STRATA_LLM_BASE_URL must be the base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1' }),
  /** @defaultValue gpt-4o-mini */
  STRATA_LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  OPENAI_API_KEY: z.string({ error: 'OPENAI_API_KEY must be set (any non-empty value for servers that need no key)' }).min(1),
});

const env = envSchema.safeParse(process.env);
if (!env.success) {
  console.error(`agent-openai: the environment is invalid:\n${z.prettifyError(env.error)}`);
  process.exit(1);
}

const model = new ChatOpenAI({
  model: env.data.STRATA_LLM_MODEL,
  apiKey: env.data.OPENAI_API_KEY,
  configuration: { baseURL: env.data.STRATA_LLM_BASE_URL },
  // Streaming makes LangChain estimate usage with tokenizers it downloads; strata counts tokens itself.
  streaming: false,
});
await runTwoSessionDemo(model);

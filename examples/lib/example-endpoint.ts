// @strata/testkit is a devDependency: fine for this private workspace, not for an app.
import { startOpenAiStub, type StubChatHandler } from '@strata/testkit';
import { z } from 'zod';

/** An unset or empty variable counts as absent, so `STRATA_LLM_BASE_URL= node ...` runs offline. */
const unsetIfEmpty = (value: unknown) => (value === '' ? undefined : value);

const envSchema = z
  .object({
    /** Absent: the example starts the project's OpenAI-compatible stub and scripts its replies. */
    STRATA_LLM_BASE_URL: z.preprocess(unsetIfEmpty, z.url({ error: 'STRATA_LLM_BASE_URL must be the base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1' }).optional()),
    /** @defaultValue gpt-4o-mini */
    STRATA_LLM_MODEL: z.preprocess(unsetIfEmpty, z.string().min(1).default('gpt-4o-mini')),
    OPENAI_API_KEY: z.preprocess(unsetIfEmpty, z.string().optional()),
  })
  .refine((env) => env.STRATA_LLM_BASE_URL === undefined || env.OPENAI_API_KEY !== undefined, {
    path: ['OPENAI_API_KEY'],
    error: 'OPENAI_API_KEY must be set with STRATA_LLM_BASE_URL (any non-empty value for servers that need no key)',
  });

/** Where an example's model answers from, and how to reach it. */
export interface ExampleEndpoint {
  model: string;
  apiKey: string;
  baseURL: string;
  /** True for the scripted stub (offline). */
  isStub: boolean;
  /** For the example's first line of output. */
  endpoint: string;
  /** Stops the stub, if one was started. */
  close(): Promise<void>;
}

/**
 * The OpenAI-compatible endpoint of an example: the one named by STRATA_LLM_BASE_URL (with
 * STRATA_LLM_MODEL and OPENAI_API_KEY), or, when it is not set, strata's OpenAI-compatible stub
 * started on 127.0.0.1 and answering with `script`, so the example runs offline with no key.
 * An invalid environment is reported on stderr and ends the process with code 1.
 */
export async function exampleEndpoint(example: string, script: StubChatHandler): Promise<ExampleEndpoint> {
  const env = envSchema.safeParse(process.env);
  if (!env.success) {
    console.error(`${example}: the environment is invalid:\n${z.prettifyError(env.error)}`);
    process.exit(1);
  }
  const { STRATA_LLM_BASE_URL: baseURL, STRATA_LLM_MODEL: model, OPENAI_API_KEY: apiKey } = env.data;
  if (baseURL !== undefined) return { model, apiKey: apiKey ?? '', baseURL, isStub: false, endpoint: `${model} at ${baseURL}`, close: async () => {} };
  const stub = await startOpenAiStub({ chat: script });
  return {
    model: 'strata-stub',
    apiKey: 'no-key-needed',
    baseURL: `${stub.url}/v1`,
    isStub: true,
    endpoint: `the scripted OpenAI-compatible stub at ${stub.url}/v1 (set STRATA_LLM_BASE_URL to use a real model)`,
    close: () => stub.close(),
  };
}

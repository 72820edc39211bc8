/**
 * `npm run bench -- slow-endpoint`: what a slow model endpoint costs the app. Two memories in
 * one process, the same load on each: the offline models (no endpoint), and LLM models
 * (`LlmSummarizer` and `LlmFactExtractor` over `ChatOpenAI`) on the testkit's OpenAI stub,
 * which holds every request 20 s before it answers. Each memory gets 20 sessions and 1,000 calls
 * (--quick: 200), alternating one appended message and a getContext (1,000-token budget) on a
 * random session, one at a time as an app awaits them. Derivation runs in the background on
 * the default queue, so the endpoint's requests pile up while the app's calls are timed.
 * Target (issue 37): getContext p99 with the 20 s endpoint within 1.2x of the one with none.
 */
import { ChatOpenAI } from '@langchain/openai';
import { createMemory, type FactExtractor, type Memory, type Summarizer } from '@strata/core';
import { startOpenAiStub } from '@strata/testkit';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { ConversationGenerator, seededRandom } from '../lib/conversation-generator.js';
import { nsToMs, summarize } from '../lib/stats.js';

/**
 * The LLM models, loaded at run time by a specifier TypeScript does not follow: the bench's one
 * program also type-checks the server's routes, and @strata/langchain's types in it break the
 * zod augmentation those routes use (`.openapi` goes missing).
 */
async function llmModels(model: ChatOpenAI): Promise<{ summarizer: Summarizer; extractor: FactExtractor }> {
  const specifier: string = '@strata/langchain';
  const langchain = (await import(specifier)) as {
    LlmSummarizer: new (options: { model: ChatOpenAI }) => Summarizer;
    LlmFactExtractor: new (options: { model: ChatOpenAI }) => FactExtractor;
  };
  return { summarizer: new langchain.LlmSummarizer({ model }), extractor: new langchain.LlmFactExtractor({ model }) };
}

const SESSIONS = 20;
const DELAY_MS = 20_000;
const TARGET_RATIO = 1.2;

interface LoadRun {
  append: number[];
  getContext: number[];
  /** Model requests the endpoint had received by the end of the load (all still unanswered with the slow endpoint). */
  requests: number;
}

async function runLoad(memory: Memory, calls: number, seed: number): Promise<Omit<LoadRun, 'requests'>> {
  const generator = new ConversationGenerator(seed);
  const random = seededRandom(seed);
  const sessions: string[] = [];
  for (let i = 0; i < SESSIONS; i++) sessions.push((await memory.sessions.create({ namespace: `bench-${i}` })).id);
  const append: number[] = [];
  const getContext: number[] = [];
  for (let i = 0; i < calls; i++) {
    const session = sessions[Math.floor(random() * sessions.length)] as string;
    const started = process.hrtime.bigint();
    if (i % 2 === 0) {
      await memory.append(session, generator.next());
      append.push(nsToMs(process.hrtime.bigint() - started));
    } else {
      await memory.getContext(session, { query: generator.query(), budgetTokens: 1000 });
      getContext.push(nsToMs(process.hrtime.bigint() - started));
    }
    // as an app between two requests: other work gets the event loop
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { append, getContext };
}

export async function runSlowEndpointBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; notes: string[] }> {
  const calls = options.quick ? 200 : 1000;
  process.stderr.write(`bench: slow-endpoint: ${calls} calls on ${SESSIONS} sessions, offline models, then an endpoint that answers after ${DELAY_MS / 1000} s\n`);

  const offline = await createMemory();
  const none = await runLoad(offline, calls, 7);
  await offline.close();

  const stub = await startOpenAiStub({ chat: () => ({ fault: 'delay', ms: DELAY_MS, reply: '{"facts": []}' }) });
  const model = new ChatOpenAI({ model: 'slow-model', apiKey: 'bench', maxRetries: 0, timeout: 60_000, configuration: { baseURL: `${stub.url}/v1` } });
  const slow = await createMemory(await llmModels(model));
  const loaded = await runLoad(slow, calls, 7);
  const requests = stub.requests.length;
  // the endpoint goes away with its requests pending: derivation falls back, the memory closes
  await stub.close();
  await slow.close();

  const p99 = (samples: number[]) => summarize(samples).p99;
  const ratio = p99(loaded.getContext) / p99(none.getContext);
  const met = ratio <= TARGET_RATIO;
  return {
    latencies: [
      { metric: 'append, no endpoint (offline models)', summary: summarize(none.append) },
      { metric: `append, endpoint answering after ${DELAY_MS / 1000} s`, summary: summarize(loaded.append) },
      { metric: 'getContext, no endpoint (offline models)', summary: summarize(none.getContext) },
      { metric: `getContext, endpoint answering after ${DELAY_MS / 1000} s`, summary: summarize(loaded.getContext) },
    ],
    figures: [
      { name: `getContext p99, ${DELAY_MS / 1000} s endpoint / no endpoint`, value: Math.round(ratio * 100) / 100, unit: 'x' },
      { name: 'append p99, slow endpoint / no endpoint', value: Math.round((p99(loaded.append) / p99(none.append)) * 100) / 100, unit: 'x' },
      { name: 'model requests pending at the end of the load', value: requests, unit: 'requests' },
    ],
    notes: [
      `Target: getContext p99 with the ${DELAY_MS / 1000} s endpoint within ${TARGET_RATIO}x of the one with none: ${met ? 'met' : 'not met'} (${ratio.toFixed(2)}x).`,
      "Both memories use createMemory's defaults (in-memory store, in-process queue), in this one process, one after the other, with the same generated conversation and queries (seed 7). The LLM memory's jobs wait on the endpoint without holding the event loop; the queue runs a few at a time (the pending requests above), the rest wait their turn.",
      'No summary or fact came from the endpoint during the load: every request was still pending when it ended, and derivation fell back when the endpoint went away at the end. The app does not wait on derivation: that is what this measures.',
    ],
  };
}

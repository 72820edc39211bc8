import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { StrataError } from '@strata/core';
import { z } from 'zod';
import { AUTO_ORDER, type StructuredOutputMethod } from './output-method.js';
import { invokeStructured } from './structured-call.js';

/** What one method did in a probe: it worked (with the answer's time), or why not. */
export interface MethodTrial {
  method: StructuredOutputMethod;
  ok: boolean;
  ms: number;
  /** Why it did not work: the endpoint refused the request, or its answer could not be read. */
  error?: string;
}

/** The outcome of {@link probeStructuredOutput}: the first method that worked (if any), and each one tried. */
export interface ProbeReport {
  method: StructuredOutputMethod | undefined;
  trials: MethodTrial[];
}

const probeSchema = z.object({ city: z.string().min(1).describe('The city the user lives in.') }).describe('Records where the user lives.');

/**
 * Makes real structured calls to the model's endpoint, as derivation would, with each method
 * of `methods` in order (tool calling, then JSON schema, then JSON mode by default) until one
 * gives a readable answer: which works, and how long the call took (for `strata doctor`).
 * A failure other than a refusal or an unreadable answer (the endpoint down, the key refused,
 * no answer within `timeoutMs`) is thrown.
 * @example
 * const { method, trials } = await probeStructuredOutput(new ChatOpenAI({ model: 'llama3.1', configuration: { baseURL: 'http://127.0.0.1:11434/v1' } }));
 */
export async function probeStructuredOutput(model: BaseChatModel, methods: readonly StructuredOutputMethod[] = AUTO_ORDER, timeoutMs = 60_000): Promise<ProbeReport> {
  const trials: MethodTrial[] = [];
  for (const method of methods) {
    const started = performance.now();
    try {
      const { city } = await invokeStructured({
        model,
        method,
        name: 'location',
        shape: { schema: probeSchema },
        messages: [new SystemMessage('Extract where the user lives.'), new HumanMessage('I live in Lisbon.')],
        onUsage: undefined,
        // a probe is not derivation: it goes around the circuit derivation uses
        breaker: false,
        timeoutMs,
      });
      trials.push({ method, ok: city.length > 0, ms: Math.round(performance.now() - started) });
      return { method, trials };
    } catch (error) {
      if (!StrataError.is(error, 'INVALID_INPUT') && !StrataError.is(error, 'INTERNAL')) throw error;
      trials.push({ method, ok: false, ms: Math.round(performance.now() - started), error: error.message });
    }
  }
  return { method: undefined, trials };
}

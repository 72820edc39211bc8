import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { BrokenCircuitError, circuitBreaker, ConsecutiveBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import { StrataError } from '@strata/core';
import { z } from 'zod';

/** When a model endpoint counts as down, and how long derivation then stops asking it. */
export const breakerOptionsSchema = z.object({
  /** Consecutive calls that found the endpoint down (unreachable, timed out, 429, 5xx) that open the circuit. @defaultValue 3 */
  failures: z.int().min(1).default(3),
  /** How long the circuit stays open before one call probes the endpoint again. @defaultValue 30000 */
  coolDownMs: z.int().min(0).default(30_000),
});
/** When a model endpoint counts as down, and how long derivation then stops asking it. */
export interface BreakerOptions {
  /** Consecutive calls that found the endpoint down (unreachable, timed out, 429, 5xx) that open the circuit. @defaultValue 3 */
  failures?: number;
  /** How long the circuit stays open before one call probes the endpoint again. @defaultValue 30000 */
  coolDownMs?: number;
}

/** One circuit per chat model object (an endpoint and a model): the models built on it share it. */
const circuits = new WeakMap<BaseChatModel, CircuitBreakerPolicy>();

/**
 * Runs a model call through the model's circuit breaker (cockatiel's consecutive breaker):
 * after `failures` calls in a row found the endpoint down, calls fail at once, for
 * `coolDownMs`, with a BACKEND_UNAVAILABLE that is not retryable, so derivation uses the
 * offline models at once (marked degraded) instead of waiting on each job; then one call
 * probes, and a success closes the circuit (degraded output is re-derived as the endpoint
 * answers again). The circuit's settings are those of the first model built on the object.
 * `isDown` says whether a failure means the endpoint is down (an unusable answer does not).
 */
export async function throughBreaker<T>(
  model: BaseChatModel,
  options: BreakerOptions,
  name: string,
  endpoint: string | undefined,
  isDown: (error: unknown) => boolean,
  call: () => Promise<T>,
): Promise<T> {
  let circuit = circuits.get(model);
  if (circuit === undefined) {
    const { failures, coolDownMs } = breakerOptionsSchema.parse(options);
    circuit = circuitBreaker(handleWhen(isDown), { halfOpenAfter: coolDownMs, breaker: new ConsecutiveBreaker(failures) });
    circuits.set(model, circuit);
  }
  try {
    return await circuit.execute(call);
  } catch (error) {
    if (!(error instanceof BrokenCircuitError)) throw error;
    throw new StrataError('BACKEND_UNAVAILABLE', `model ${name}${endpoint ? ` at ${endpoint}` : ''} is not asked: its endpoint failed several calls in a row (circuit open)`, {
      hint: 'Derivation uses the offline models meanwhile (marked degraded) and re-derives once the endpoint answers; a call probes it again after the cool-down.',
      cause: error,
      retryable: false,
      ...(endpoint === undefined ? {} : { endpoint }),
    });
  }
}

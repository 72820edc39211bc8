import type { DeriveResult } from '../../domain/jobs.js';

/** Derivation counters of one memory since it was created (see `memory.stats()`). */
export interface DerivationStats {
  /** Input (prompt) tokens the models reported for applied results. */
  inputTokens: number;
  /** Output (completion) tokens the models reported for applied results. */
  outputTokens: number;
  /** Model calls that reported usage. */
  modelCalls: number;
  /** Results written to the store (replays and stale results are not counted). */
  results: number;
  /** Of those, produced by an offline fallback because the model failed. */
  degradedResults: number;
  /** Of those, re-derivations that replaced degraded artefacts. */
  rederivedResults: number;
  /** Items of model answers left out because they did not validate (the valid items of those answers were kept). */
  droppedItems: number;
}

/** What `Memory.stats()` returns: the derivation counters of this memory since it was created. */
export interface MemoryStats {
  derivation: DerivationStats;
}

/**
 * Accumulates what applied results report; one per memory.
 * @example
 * const counter = new DerivationCounter();
 * counter.record(result); // a result the store accepted
 * counter.snapshot(); // { inputTokens, outputTokens, modelCalls, results, ... }
 */
export class DerivationCounter {
  private readonly totals: DerivationStats = { inputTokens: 0, outputTokens: 0, modelCalls: 0, results: 0, degradedResults: 0, rederivedResults: 0, droppedItems: 0 };

  /** Counts a result the store accepted. */
  record(result: DeriveResult): void {
    const t = this.totals;
    t.results += 1;
    if (result.degraded) t.degradedResults += 1;
    if (result.job.rederive) t.rederivedResults += 1;
    if ('dropped' in result && result.dropped) t.droppedItems += result.dropped.length;
    if (result.usage) {
      t.inputTokens += result.usage.inputTokens;
      t.outputTokens += result.usage.outputTokens;
      t.modelCalls += result.usage.calls;
    }
  }

  snapshot(): DerivationStats {
    return { ...this.totals };
  }
}

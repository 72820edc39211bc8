import type { JobType, TokenUsage } from '../../domain/derived.js';
import type { DeriveResult, ModelUsage } from '../../domain/jobs.js';

/** Derivation counters of one memory since it was created (see `memory.stats()`). */
export interface DerivationStats {
  /** Input (prompt) tokens the models reported for applied results and for thread selection. */
  inputTokens: number;
  /** Output (completion) tokens the models reported for applied results and for thread selection. */
  outputTokens: number;
  /** Model calls that reported usage. */
  modelCalls: number;
  /**
   * Of those, the thread selector's (a selector on a model chooses which reply each ingested
   * user turn continues, as its results are applied). Not a job: `usage()`, which reads the
   * job ledger, does not include them.
   */
  threadSelection: TokenUsage;
  /** The same token usage by job type (`ingest`, `summarize`, `consolidate`). */
  byJobType: Partial<Record<JobType, TokenUsage>>;
  /** The same token usage by model name (calls whose model gave no name are in the totals only). */
  byModel: Record<string, TokenUsage>;
  /** The same token usage by namespace. */
  byNamespace: Record<string, TokenUsage>;
  /** Results written to the store (replays and stale results are not counted). */
  results: number;
  /** Of those, produced by an offline fallback because the model failed. */
  degradedResults: number;
  /** Of those, re-derivations that replaced degraded artefacts. */
  rederivedResults: number;
  /** Items of model answers left out because they did not validate (the valid items of those answers were kept). */
  droppedItems: number;
  /**
   * Tries of derivation jobs that failed (a model endpoint down, timing out or refusing; a
   * store busy), each reported through `onError` with kind `derive`. Failures an offline
   * fallback replaced are counted in `degradedResults` instead.
   */
  failedTries: number;
}

/** What `Memory.stats()` returns: the derivation counters of this memory since it was created. */
export interface MemoryStats {
  derivation: DerivationStats;
}

/** Derivation counters at zero: what a memory reports before it applied anything. */
export function emptyDerivationStats(): DerivationStats {
  return {
    inputTokens: 0,
    outputTokens: 0,
    modelCalls: 0,
    threadSelection: { inputTokens: 0, outputTokens: 0, calls: 0 },
    byJobType: {},
    byModel: {},
    byNamespace: {},
    results: 0,
    degradedResults: 0,
    rederivedResults: 0,
    droppedItems: 0,
    failedTries: 0,
  };
}

/**
 * Accumulates what applied results report; one per memory.
 * @example
 * const counter = new DerivationCounter();
 * counter.record(result); // a result the store accepted
 * counter.snapshot(); // { inputTokens, outputTokens, modelCalls, byModel, results, ... }
 */
export class DerivationCounter {
  private readonly totals: Omit<DerivationStats, 'byJobType' | 'byModel' | 'byNamespace' | 'threadSelection'> = {
    inputTokens: 0,
    outputTokens: 0,
    modelCalls: 0,
    results: 0,
    degradedResults: 0,
    rederivedResults: 0,
    droppedItems: 0,
    failedTries: 0,
  };
  private readonly threadSelection: TokenUsage = { inputTokens: 0, outputTokens: 0, calls: 0 };
  // Maps: a model name or namespace is any string (`__proto__` included), an object key only when copied out
  private readonly byJobType = new UsageByKey();
  private readonly byModel = new UsageByKey();
  private readonly byNamespace = new UsageByKey();

  /** Counts a result the store accepted. */
  record(result: DeriveResult): void {
    const t = this.totals;
    t.results += 1;
    if (result.degraded) t.degradedResults += 1;
    if (result.job.rederive) t.rederivedResults += 1;
    if ('dropped' in result && result.dropped) t.droppedItems += result.dropped.length;
    const usage = result.usage;
    if (usage) {
      t.inputTokens += usage.inputTokens;
      t.outputTokens += usage.outputTokens;
      t.modelCalls += usage.calls;
      this.byJobType.add(result.job.type, usage);
      this.byNamespace.add(result.job.namespace, usage);
      for (const [model, part] of Object.entries(usage.byModel ?? {})) this.byModel.add(model, part);
    }
  }

  /** Counts one model call of the thread selector for `namespace`. */
  recordThreadSelection(namespace: string, usage: ModelUsage): void {
    const call = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, calls: 1 };
    const t = this.totals;
    t.inputTokens += call.inputTokens;
    t.outputTokens += call.outputTokens;
    t.modelCalls += 1;
    this.threadSelection.inputTokens += call.inputTokens;
    this.threadSelection.outputTokens += call.outputTokens;
    this.threadSelection.calls += 1;
    this.byNamespace.add(namespace, call);
    if (usage.model) this.byModel.add(usage.model, call);
  }

  /** Counts a failed try of a job (reported through `onError`, kind `derive`). */
  recordFailedTry(): void {
    this.totals.failedTries += 1;
  }

  snapshot(): DerivationStats {
    return { ...this.totals, threadSelection: { ...this.threadSelection }, byJobType: this.byJobType.toRecord(), byModel: this.byModel.toRecord(), byNamespace: this.byNamespace.toRecord() };
  }
}

/** Token usage summed per key (model name, namespace, job type). */
export class UsageByKey {
  private readonly sums = new Map<string, TokenUsage>();

  add(key: string, usage: TokenUsage): void {
    let sum = this.sums.get(key);
    if (sum === undefined) {
      sum = { inputTokens: 0, outputTokens: 0, calls: 0 };
      this.sums.set(key, sum);
    }
    sum.inputTokens += usage.inputTokens;
    sum.outputTokens += usage.outputTokens;
    sum.calls += usage.calls;
  }

  /** A plain copy; `Object.fromEntries` makes every key an own property (`__proto__` too). */
  toRecord(): Record<string, TokenUsage> {
    return Object.fromEntries([...this.sums].map(([key, sum]) => [key, { ...sum }]));
  }
}

/** What `after` counted beyond `before` (both snapshots of one counter): the work of one `flush()`. */
export function statsSince(before: DerivationStats, after: DerivationStats): DerivationStats {
  const minus = <K extends string>(a: Partial<Record<K, TokenUsage>>, b: Partial<Record<K, TokenUsage>>): Record<K, TokenUsage> => {
    const out: [string, TokenUsage][] = [];
    for (const [key, value] of Object.entries(a) as [K, TokenUsage][]) {
      const prior = Object.hasOwn(b, key) ? b[key] : undefined;
      const diff = { inputTokens: value.inputTokens - (prior?.inputTokens ?? 0), outputTokens: value.outputTokens - (prior?.outputTokens ?? 0), calls: value.calls - (prior?.calls ?? 0) };
      if (diff.calls || diff.inputTokens || diff.outputTokens) out.push([key, diff]);
    }
    return Object.fromEntries(out) as Record<K, TokenUsage>;
  };
  return {
    inputTokens: after.inputTokens - before.inputTokens,
    outputTokens: after.outputTokens - before.outputTokens,
    modelCalls: after.modelCalls - before.modelCalls,
    threadSelection: {
      inputTokens: after.threadSelection.inputTokens - before.threadSelection.inputTokens,
      outputTokens: after.threadSelection.outputTokens - before.threadSelection.outputTokens,
      calls: after.threadSelection.calls - before.threadSelection.calls,
    },
    byJobType: minus(after.byJobType, before.byJobType),
    byModel: minus(after.byModel, before.byModel),
    byNamespace: minus(after.byNamespace, before.byNamespace),
    results: after.results - before.results,
    degradedResults: after.degradedResults - before.degradedResults,
    rederivedResults: after.rederivedResults - before.rederivedResults,
    droppedItems: after.droppedItems - before.droppedItems,
    failedTries: after.failedTries - before.failedTries,
  };
}

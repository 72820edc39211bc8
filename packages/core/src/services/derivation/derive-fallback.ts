import type { JobUsage, TokenUsage } from '../../domain/derived.js';
import type { ModelFailure, ModelUsage } from '../../domain/jobs.js';
import { StrataError } from '../../errors/strata-error.js';
import { ExtractiveSummarizer } from '../../models/summaries/extractive-summarizer.js';
import { HeuristicFactExtractor } from '../../models/facts/heuristic-fact-extractor.js';
import { ObservationFactExtractor } from '../../models/facts/observation-fact-extractor.js';
import { TiktokenTokenCounter } from '../../models/tokens/tiktoken-token-counter.js';
import { toModelError } from '../../models/to-model-error.js';
import { UsageByKey } from './derivation-stats.js';
import type { DeriveAttempt } from '../../ports/job-queue.js';
import type { FactExtractor, Summarizer, TokenCounter, UsageListener } from '../../ports/models.js';

let offlineSummarizer: ExtractiveSummarizer | undefined;
let offlineExtractor: ObservationFactExtractor | undefined;

/**
 * The fallback for a primary summarizer: the one given, else the offline extractive one,
 * unless the primary is offline itself (an offline primary is never "degraded"). The one place
 * this is decided: `createMemory` resolves it with the memory's token counter, and derivation
 * (which may run without a memory, in a worker) with the default one.
 */
export function fallbackSummarizerFor(primary: Summarizer, given: Summarizer | undefined, tokens?: TokenCounter): Summarizer | undefined {
  if (given) return given;
  if (primary instanceof ExtractiveSummarizer) return undefined;
  if (tokens !== undefined) return new ExtractiveSummarizer({ tokens });
  offlineSummarizer ??= new ExtractiveSummarizer({ tokens: new TiktokenTokenCounter() });
  return offlineSummarizer;
}

/** Whether an extractor runs offline (so it is never "degraded" and needs no fallback). */
export function isOfflineExtractor(extractor: FactExtractor): boolean {
  return extractor instanceof ObservationFactExtractor || extractor instanceof HeuristicFactExtractor;
}

/** Like {@link fallbackSummarizerFor}, with the offline observation extractor. */
export function fallbackExtractorFor(primary: FactExtractor, given: FactExtractor | undefined): FactExtractor | undefined {
  if (given) return given;
  if (isOfflineExtractor(primary)) return undefined;
  offlineExtractor ??= new ObservationFactExtractor();
  return offlineExtractor;
}

export interface Fallback<M> {
  primary: M & { name: string };
  fallback: (M & { name: string }) | undefined;
  attempt: DeriveAttempt;
  /** Re-derivation never falls back: it exists to replace fallback output. */
  isRederive: boolean;
}

/**
 * Runs the primary model. When it fails: a retryable failure (endpoint down, 429, 5xx) on a
 * non-final attempt is thrown so the queue backs off and retries; on the final attempt, or
 * for a failure retrying cannot fix (bad output, refused request), the fallback runs and the
 * value is marked degraded. Without a fallback the failure is thrown unchanged.
 */
export async function runWithFallback<M, T>(spec: Fallback<M>, run: (model: M) => Promise<T>): Promise<{ value: T; degraded: boolean; degradedBy?: ModelFailure }> {
  try {
    return { value: await run(spec.primary), degraded: false };
  } catch (error) {
    if (!spec.fallback || spec.isRederive) throw error;
    const mapped = StrataError.is(error) ? error : toModelError(error, spec.primary.name);
    if (mapped.retryable && !spec.attempt.isFinal) throw mapped;
    return { value: await run(spec.fallback), degraded: true, degradedBy: failureOf(mapped) };
  }
}

/** A model failure as plain data (what a degraded result carries). */
export function failureOf(error: StrataError): ModelFailure {
  return { code: error.code, message: error.message, ...(error.endpoint === undefined ? {} : { endpoint: error.endpoint }) };
}

/** Sums the usage reported by the model calls of one job, in total and by model name. */
export function usageTally(): { onUsage: UsageListener; usage(): JobUsage | undefined } {
  const total: TokenUsage = { inputTokens: 0, outputTokens: 0, calls: 0 };
  const byModel = new UsageByKey();
  return {
    onUsage: (u: ModelUsage) => {
      const call = { inputTokens: u.inputTokens, outputTokens: u.outputTokens, calls: 1 };
      total.inputTokens += call.inputTokens;
      total.outputTokens += call.outputTokens;
      total.calls += 1;
      if (u.model) byModel.add(u.model, call);
    },
    usage: () => {
      if (!total.calls) return undefined;
      const named = byModel.toRecord();
      return Object.keys(named).length ? { ...total, byModel: named } : { ...total };
    },
  };
}

import type { JobType } from '../../domain/derived.js';
import type { Policy } from '../../config/policy.js';
import { StrataError } from '../../errors/strata-error.js';
import type { DeriveJob, DeriveResult, DroppedItem, JobRef, TranscriptTurn } from '../../domain/jobs.js';
import type { DeriveAttempt } from '../../ports/job-queue.js';
import type { UsageListener } from '../../ports/models.js';
import type { MemoryDeps } from '../deps.js';
import { fallbackExtractorFor, fallbackSummarizerFor, runWithFallback, usageTally } from './derive-fallback.js';

/**
 * What derivation needs: the models and the policy, no store. A worker process builds these
 * itself. Without `fallbackSummarizer` / `fallbackExtractor`, a primary that is not one of
 * the offline models falls back to the offline extractive summarizer / heuristic extractor.
 */
export type DeriveModels = Pick<MemoryDeps, 'summarizer' | 'extractor' | 'embeddings' | 'policy' | 'fallbackSummarizer' | 'fallbackExtractor'>;
type ModelDeps = DeriveModels;
const FIRST_AND_FINAL: DeriveAttempt = { number: 1, isFinal: true };

/**
 * Runs the models for one job. Stateless: uses only what the job carries, so it can run in
 * any process. When the summarizer or extractor fails with a retryable error and this is not
 * the final attempt, the error is thrown (the queue backs off and retries); on the final
 * attempt, or when retrying cannot help, the offline fallback runs and the result is marked
 * `degraded`. Re-derivation jobs (`job.rederive`) never fall back. Embedding failures are
 * always thrown. `usage` sums the token usage the models reported.
 * @example
 * // in a worker process: no store, just the models
 * const result = await deriveJob(job, { summarizer, extractor, embeddings, policy: policySchema.parse({}) }, { number: 1, isFinal: false });
 */
export async function deriveJob(job: DeriveJob, deps: ModelDeps, attempt: DeriveAttempt = FIRST_AND_FINAL): Promise<DeriveResult> {
  const tally = usageTally();
  const summarizer = {
    primary: deps.summarizer,
    fallback: fallbackSummarizerFor(deps.summarizer, deps.fallbackSummarizer),
    attempt,
    isRederive: job.rederive !== undefined,
  };
  const withUsage = <R extends DeriveResult>(result: R): R => {
    const usage = tally.usage();
    return usage ? { ...result, usage } : result;
  };
  switch (job.type) {
    case 'ingest':
      return withUsage(await deriveIngest(job, deps, attempt, tally.onUsage));
    case 'summarize': {
      const { value, degraded, degradedBy } = await runWithFallback(summarizer, (model) =>
        model.summarize({
          turns: job.turns,
          ...(job.previousSummary === undefined ? {} : { previousSummary: job.previousSummary }),
          maxTokens: deps.policy.working.summaryMaxTokens,
          onUsage: tally.onUsage,
        }),
      );
      const vector = await deps.embeddings.embedQuery(value.text);
      return withUsage({ job: refOf(job), text: value.text, vector, sourceMessageIds: job.turns.map((t) => t.id), degraded, ...(degradedBy ? { degradedBy } : {}) });
    }
    case 'consolidate': {
      const { value, degraded, degradedBy } = await runWithFallback(summarizer, (model) =>
        model.consolidate({
          ...(job.synopsis ? { synopsis: job.synopsis.text } : {}),
          summaries: job.summaries.map((s) => s.text),
          maxTokens: deps.policy.working.synopsisMaxTokens,
          onUsage: tally.onUsage,
        }),
      );
      const vector = await deps.embeddings.embedQuery(value.text);
      // a synopsis names the turns this fold adds; it covers the rest through the synopsis it replaces
      const sources = job.summaries.flatMap((s) => s.sourceMessageIds);
      return withUsage({
        job: refOf(job),
        text: value.text,
        vector,
        sourceMessageIds: [...new Set(sources)],
        ...(job.synopsis ? { replacesSynopsisId: job.synopsis.id } : {}),
        degraded,
        ...(degradedBy ? { degradedBy } : {}),
      });
    }
  }
}

async function deriveIngest(job: DeriveJob & { type: 'ingest' }, deps: ModelDeps, attempt: DeriveAttempt, onUsage: UsageListener): Promise<DeriveResult> {
  // A re-derivation only replaces facts: its turns are embedded and indexed already.
  const embeddable = job.rederive ? [] : job.turns.filter((t) => t.content.trim().length > 0);
  const dropped: DroppedItem[] = [];
  const extraction = runWithFallback({ primary: deps.extractor, fallback: fallbackExtractorFor(deps.extractor, deps.fallbackExtractor), attempt, isRederive: job.rederive !== undefined }, (model) =>
    model.extract({ turns: job.turns, knownFacts: job.knownFacts, onUsage, onDropped: (items) => dropped.push(...items) }),
  );
  const [turnVectors, extracted] = await Promise.all([embeddable.length ? deps.embeddings.embedDocuments(embeddable.map(textOf)) : Promise.resolve([]), extraction]);
  const facts = withinLimits(extracted.value, job.turns.length, deps.policy.limits);
  const factVectors = facts.length ? await deps.embeddings.embedDocuments(facts.map((f) => f.text)) : [];
  return {
    job: refOf(job),
    turnVectors: embeddable.map((t, i) => ({ id: t.id, vector: turnVectors[i] ?? [] })),
    facts: facts.map((f, i) => ({ ...f, vector: factVectors[i] ?? [] })),
    degraded: extracted.degraded,
    ...(extracted.degradedBy ? { degradedBy: extracted.degradedBy } : {}),
    // what a model that then failed (and was replaced by the fallback) dropped is not this result's
    ...(dropped.length && !extracted.degraded ? { dropped } : {}),
  };
}

/**
 * The extracted facts a store may keep: more than `factsPerDerivation` fails the job (a model
 * listing every sentence is misbehaving, and retrying will not help); a fact longer than
 * `factChars` is left out (a message retold whole: its turn keeps it, searchable).
 */
function withinLimits<F extends { text: string; object: string }>(facts: F[], turns: number, limits: Policy['limits']): F[] {
  if (facts.length > limits.factsPerDerivation) {
    throw new StrataError('INVALID_INPUT', `the fact extractor returned ${facts.length} facts for ${turns} turns, more than policy.limits.factsPerDerivation (${limits.factsPerDerivation})`, {
      hint: 'Check the extractor (its prompt or model), or raise policy.limits.factsPerDerivation.',
    });
  }
  return facts.filter((f) => f.text.length <= limits.factChars && f.object.length <= limits.factChars);
}

function textOf(turn: TranscriptTurn): string {
  return turn.content;
}

function refOf<T extends JobType>(job: JobRef & { type: T }): JobRef & { type: T } {
  return {
    key: job.key,
    type: job.type,
    sessionId: job.sessionId,
    namespace: job.namespace,
    fromSeq: job.fromSeq,
    toSeq: job.toSeq,
    ...(job.rederive ? { rederive: { ...job.rederive } } : {}),
  };
}

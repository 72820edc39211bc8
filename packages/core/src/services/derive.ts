import type { JobType } from '../domain/derived.js';
import type { DeriveJob, DeriveResult, JobRef, TranscriptTurn } from '../domain/jobs.js';
import type { MemoryDeps } from './deps.js';

import type { DeriveAttempt } from '../ports/job-queue.js';

/** What derivation needs: the models and the policy, no store. A worker process builds these itself. */
export type DeriveModels = Pick<MemoryDeps, 'summarizer' | 'extractor' | 'embeddings' | 'policy'>;
type ModelDeps = DeriveModels;
const FIRST_AND_FINAL: DeriveAttempt = { number: 1, isFinal: true };

/**
 * Runs the models for one job. Stateless: uses only what the job carries, so it can run in
 * any process. Throws whatever the models throw; the queue retries.
 * @example
 * // in a worker process: no store, just the models
 * const result = await deriveJob(job, { summarizer, extractor, embeddings, policy: policySchema.parse({}) }, { number: 1, isFinal: false });
 */
export async function deriveJob(job: DeriveJob, deps: ModelDeps, attempt: DeriveAttempt = FIRST_AND_FINAL): Promise<DeriveResult> {
  void attempt;
  switch (job.type) {
    case 'ingest':
      return deriveIngest(job, deps);
    case 'summarize': {
      const { text } = await deps.summarizer.summarize({
        turns: job.turns,
        ...(job.previousSummary === undefined ? {} : { previousSummary: job.previousSummary }),
        maxTokens: deps.policy.working.summaryMaxTokens,
      });
      const vector = await deps.embeddings.embedQuery(text);
      return { job: refOf(job), text, vector, sourceMessageIds: job.turns.map((t) => t.id), degraded: false };
    }
    case 'consolidate': {
      const { text } = await deps.summarizer.consolidate({
        ...(job.synopsis ? { synopsis: job.synopsis.text } : {}),
        summaries: job.summaries.map((s) => s.text),
        maxTokens: deps.policy.working.synopsisMaxTokens,
      });
      const vector = await deps.embeddings.embedQuery(text);
      const sources = [...(job.synopsis?.sourceMessageIds ?? []), ...job.summaries.flatMap((s) => s.sourceMessageIds)];
      return {
        job: refOf(job),
        text,
        vector,
        sourceMessageIds: [...new Set(sources)],
        ...(job.synopsis ? { replacesSynopsisId: job.synopsis.id } : {}),
        degraded: false,
      };
    }
  }
}

async function deriveIngest(job: DeriveJob & { type: 'ingest' }, deps: ModelDeps): Promise<DeriveResult> {
  const embeddable = job.turns.filter((t) => t.content.trim().length > 0);
  const [turnVectors, extracted] = await Promise.all([
    embeddable.length ? deps.embeddings.embedDocuments(embeddable.map(textOf)) : Promise.resolve([]),
    deps.extractor.extract({ turns: job.turns, knownFacts: job.knownFacts }),
  ]);
  const factVectors = extracted.length ? await deps.embeddings.embedDocuments(extracted.map((f) => f.text)) : [];
  return {
    job: refOf(job),
    turnVectors: embeddable.map((t, i) => ({ id: t.id, vector: turnVectors[i] ?? [] })),
    facts: extracted.map((f, i) => ({ ...f, vector: factVectors[i] ?? [] })),
    degraded: false,
  };
}

function textOf(turn: TranscriptTurn): string {
  return turn.content;
}

function refOf<T extends JobType>(job: JobRef & { type: T }): JobRef & { type: T } {
  return { key: job.key, type: job.type, sessionId: job.sessionId, namespace: job.namespace, fromSeq: job.fromSeq, toSeq: job.toSeq };
}

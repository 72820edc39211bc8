import type { Session } from '../../domain/session.js';
import type { JobType, TokenUsage } from '../../domain/derived.js';
import type { MemoryDeps } from '../deps.js';
import { UsageByKey } from './derivation-stats.js';
import { isDegradedMarker } from './rederive.js';

/**
 * The token usage the models reported for the jobs applied to a namespace (or one session of
 * it), read from the job ledger: it counts across processes and restarts, for as long as the
 * sessions are kept (forgetting a session forgets its jobs, and their usage, with it).
 */
export interface UsageReport {
  namespace: string;
  /** The session it was narrowed to, if it was. */
  sessionId?: string;
  /** Applied jobs of those sessions (re-derivations included). */
  jobs: number;
  /** Of those, the jobs whose models reported usage. */
  jobsWithUsage: number;
  /** Summed over those jobs. */
  total: TokenUsage;
  byJobType: Partial<Record<JobType, TokenUsage>>;
  /** By model name (calls whose model gave no name are in the total only). */
  byModel: Record<string, TokenUsage>;
  bySession: Record<string, TokenUsage>;
}

/** How many sessions' ledgers are read at once. */
const PARALLEL_READS = 16;

/** Sums the ledger's usage of `sessions` (all of one namespace). */
export async function usageReport(deps: Pick<MemoryDeps, 'store'>, namespace: string, sessions: readonly Session[], sessionId?: string): Promise<UsageReport> {
  const sums = { jobs: 0, jobsWithUsage: 0, total: new UsageByKey(), byJobType: new UsageByKey(), byModel: new UsageByKey(), bySession: new UsageByKey() };
  for (let i = 0; i < sessions.length; i += PARALLEL_READS) {
    const slice = sessions.slice(i, i + PARALLEL_READS);
    const ledgers = await Promise.all(slice.map((s) => deps.store.jobs({ sessionId: s.id })));
    ledgers.forEach((records, j) => {
      const id = (slice[j] as Session).id;
      for (const record of records) {
        // a degraded marker is not a job: it sits beside the record of the job it marks
        if (isDegradedMarker(record)) continue;
        sums.jobs += 1;
        const usage = record.usage;
        if (!usage) continue;
        sums.jobsWithUsage += 1;
        sums.total.add('total', usage);
        sums.byJobType.add(record.type, usage);
        sums.bySession.add(id, usage);
        for (const [model, part] of Object.entries(usage.byModel ?? {})) sums.byModel.add(model, part);
      }
    });
  }
  return {
    namespace,
    ...(sessionId === undefined ? {} : { sessionId }),
    jobs: sums.jobs,
    jobsWithUsage: sums.jobsWithUsage,
    total: sums.total.toRecord().total ?? { inputTokens: 0, outputTokens: 0, calls: 0 },
    byJobType: sums.byJobType.toRecord(),
    byModel: sums.byModel.toRecord(),
    bySession: sums.bySession.toRecord(),
  };
}

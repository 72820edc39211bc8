import type { JobType, Memory, Session, TokenUsage, UsageReport } from '@strata/core';

/**
 * What the models cost a session, beside its namespace (`strata inspect` and the web app's
 * session page): the token usage the job ledger holds, so it counts every process that derived.
 */
export interface SessionUsage {
  session: UsageReport;
  namespace: UsageReport;
}

/** A row of the usage table: a job type or a model, and its tokens. */
export interface UsageRow {
  by: 'job type' | 'model' | 'total';
  name: string;
  usage: TokenUsage;
}

const JOB_TYPES: readonly JobType[] = ['ingest', 'summarize', 'consolidate'];

/** The usage of the session and of its whole namespace. */
export async function readSessionUsage(memory: Memory, session: Session): Promise<SessionUsage> {
  const [own, namespace] = await Promise.all([memory.usage({ namespace: session.namespace, sessionId: session.id }), memory.usage({ namespace: session.namespace })]);
  return { session: own, namespace };
}

/** By job type (in pipeline order), by model (most tokens first), then the total; none when no job reported usage. */
export function usageRows(report: UsageReport): UsageRow[] {
  if (report.jobsWithUsage === 0) return [];
  const types = JOB_TYPES.flatMap((type) => {
    const usage = report.byJobType[type];
    return usage ? [{ by: 'job type' as const, name: type, usage }] : [];
  });
  const models = Object.entries(report.byModel)
    .sort(([a, x], [b, y]) => tokens(y) - tokens(x) || a.localeCompare(b))
    .map(([name, usage]) => ({ by: 'model' as const, name, usage }));
  return [...types, ...models, { by: 'total', name: 'this session', usage: report.total }];
}

/** Why a report holds no usage, in one line; undefined when it holds some. */
export function noUsageLine(report: UsageReport): string | undefined {
  if (report.jobsWithUsage > 0) return undefined;
  if (report.jobs === 0) return 'no model calls: no derivation job has been applied to this session yet';
  return 'no model calls: derivation ran on the offline models';
}

/** How many of the applied jobs called a model, e.g. `4 of 6 applied jobs reported usage`. */
export function coverageLine(report: UsageReport): string {
  return `${report.jobsWithUsage} of ${report.jobs} applied jobs reported usage`;
}

/** The namespace's total in one line, e.g. `namespace maya: 1,204 tokens in, 96 out, 7 calls over 2 sessions`. */
export function namespaceLine(report: UsageReport): string {
  const sessions = Object.keys(report.bySession).length;
  const { inputTokens, outputTokens, calls } = report.total;
  return `namespace ${report.namespace}: ${formatCount(inputTokens)} tokens in, ${formatCount(outputTokens)} out, ${formatCount(calls)} ${calls === 1 ? 'call' : 'calls'} over ${sessions} ${sessions === 1 ? 'session' : 'sessions'}`;
}

/** `12,345`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

function tokens(usage: TokenUsage): number {
  return usage.inputTokens + usage.outputTokens;
}

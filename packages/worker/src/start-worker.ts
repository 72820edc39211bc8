import { z } from 'zod';
import { deriveJob, policySchema } from '@strata/core';
import type { DeriveModels, FactExtractor, PolicyInput, StrataError, Summarizer } from '@strata/core';

type EmbeddingsInterface = DeriveModels['embeddings'];
import { BOTH_GIVEN_ERROR, bothGiven, connectionShape, parseOptions, redisSettings } from './connection-options.js';
import type { RedisConnectionOptions } from './connection-options.js';
import { stallShape } from './bullmq-job-queue-options.js';
import { startDeriveWorkers } from './derive-workers.js';
import type { WorkerEvent } from './derive-workers.js';
import { MetricsRecorder } from './metrics.js';
import { collectStats } from './queue-stats.js';
import type { QueueStats } from './queue-stats.js';
import { openQueues } from './queues.js';
import { DERIVE_QUEUES, strataKeys } from './redis-keys.js';
import type { DeriveQueueName } from './redis-keys.js';
import { closeRedis, openRedis, probeRedis } from './redis-client.js';
import { errorReporter } from './report-errors.js';

export interface WorkerOptions extends RedisConnectionOptions {
  /** The models; they must match the app's (same embeddings model and dimensions). */
  models: Omit<DeriveModels, 'policy'> & { policy?: PolicyInput };
  /** Jobs run at once, per served queue. @defaultValue 4 */
  concurrency?: number;
  /** Which derive queues to serve. @defaultValue ['ingest', 'summarize', 'consolidate'] */
  queues?: DeriveQueueName[];
  /** A job held by a worker that stopped answering is taken back after about this long. @defaultValue 30000 */
  lockDurationMs?: number;
  /** @defaultValue 30000 */
  stalledIntervalMs?: number;
  /** Times a job may be taken back from a stopped worker before it fails. @defaultValue 2 */
  maxStalledCount?: number;
  /** Every job started, completed, retried or failed, for logs. */
  onEvent?: (event: WorkerEvent) => void;
  /** Background errors (Redis reconnecting). @defaultValue a throttled warning on stderr */
  onError?: (error: StrataError) => void;
}

/** A running worker. */
export interface WorkerHandle {
  /** Stops taking jobs, waits for the running ones to finish, disconnects. Idempotent. */
  close(): Promise<void>;
  /** The prefix's queue depth, latency and counters (all processes, not only this one). */
  stats(): Promise<QueueStats>;
}

const schema = z
  .object({
    ...connectionShape,
    ...stallShape,
    models: z.looseObject({
      summarizer: z.custom<Summarizer>((v) => typeof (v as Summarizer | null)?.summarize === 'function', { error: 'models.summarizer must be a Summarizer' }),
      extractor: z.custom<FactExtractor>((v) => typeof (v as FactExtractor | null)?.extract === 'function', { error: 'models.extractor must be a FactExtractor' }),
      embeddings: z.custom<EmbeddingsInterface>((v) => typeof (v as EmbeddingsInterface | null)?.embedQuery === 'function', { error: 'models.embeddings must be LangChain embeddings' }),
      policy: z.custom<PolicyInput>((v) => typeof v === 'object' && v !== null).optional(),
    }),
    concurrency: z.int().positive().default(4),
    queues: z
      .array(z.enum(DERIVE_QUEUES))
      .min(1)
      .default([...DERIVE_QUEUES]),
    onEvent: z.custom<(event: WorkerEvent) => void>((v) => typeof v === 'function').optional(),
    onError: z.custom<(error: StrataError) => void>((v) => typeof v === 'function').optional(),
  })
  .strict()
  .refine(bothGiven, BOTH_GIVEN_ERROR);

/**
 * Serves derive queues in this process: runs the models for jobs any app enqueued under the
 * prefix and hands the results to the app's apply queue. Stateless, so run as many as you
 * like, on any machine. Installs no signal handlers: call `close()` on SIGTERM / SIGINT.
 * @throws StrataError CONFIG_INVALID for bad options (or policy); BACKEND_UNAVAILABLE when
 * Redis does not answer within `connectTimeoutMs`.
 * @example
 * const worker = await startWorker({ url: 'redis://127.0.0.1:6379', models: { summarizer, extractor, embeddings }, concurrency: 8 });
 * for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void worker.close());
 */
export async function startWorker(options: WorkerOptions): Promise<WorkerHandle> {
  const o = parseOptions(schema, options, 'worker', 'Pass { url, models: { summarizer, extractor, embeddings }, concurrency? } (see WorkerOptions).');
  const models: DeriveModels = { ...(o.models as WorkerOptions['models']), policy: parsePolicy(o.models.policy) };
  const settings = redisSettings(o);
  await probeRedis(settings);
  const reportError = errorReporter(settings.where, o.onError, 'strata worker');
  const client = openRedis(settings, true, reportError);
  const queues = openQueues(client, settings.prefix, reportError);
  const keys = strataKeys(settings.prefix);
  const metricsClient = openRedis(settings, true, reportError, true);
  const metrics = new MetricsRecorder(metricsClient, keys, reportError);
  const workers = startDeriveWorkers({
    settings,
    queues,
    serve: o.queues,
    concurrency: o.concurrency,
    stall: { lockDurationMs: o.lockDurationMs, stalledIntervalMs: o.stalledIntervalMs, maxStalledCount: o.maxStalledCount },
    derive: (job, attempt) => deriveJob(job, models, attempt),
    metrics,
    onError: reportError,
    onEvent: o.onEvent ?? (() => undefined),
  });
  let closing: Promise<void> | null = null;
  const shutdown = async (): Promise<void> => {
    await Promise.allSettled(workers.map((worker) => worker.close()));
    await queues.close().catch(reportError);
    await Promise.all([closeRedis(client), closeRedis(metricsClient)]);
  };
  return {
    close: () => (closing ??= shutdown()),
    stats: () => collectStats(metricsClient, queues, keys, settings.prefix),
  };
}

function parsePolicy(input: PolicyInput | undefined): DeriveModels['policy'] {
  return parseOptions(policySchema, input ?? {}, 'worker models.policy', 'Pass the same policy as the app (or omit it for the defaults).');
}

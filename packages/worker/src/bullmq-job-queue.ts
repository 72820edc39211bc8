// Kept in one file: the queue class, one method per JobQueue operation, over this package's queues, trackers and metrics.
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { isWorthRetrying, StrataError } from '@strata/core';
import type { DeriveJob, JobQueue, JobRuntime, PendingJob } from '@strata/core';
import { startApplyWorker } from './apply-worker.js';
import { parseQueueOptions } from './bullmq-job-queue-options.js';
import type { BullMqJobQueueOptions, BullMqJobQueueSettings } from './bullmq-job-queue-options.js';
import { startDeriveWorkers } from './derive-workers.js';
import { KeyTracker } from './key-tracker.js';
import { checkKeys, refOf } from './check-keys.js';
import { MetricsRecorder } from './metrics.js';
import { PendingIndex } from './pending-index.js';
import { readPending } from './pending-jobs.js';
import { collectStats } from './queue-stats.js';
import type { QueueStats } from './queue-stats.js';
import { jobIdOf, strataKeys, DERIVE_QUEUES } from './redis-keys.js';
import { jobOptions, openQueues, presenceOfMany } from './queues.js';
import type { StrataQueues } from './queues.js';
import { awaitConnection, failAfterOutage, closeRedis, isReconnecting, openRedis, probeRedis } from './redis-client.js';
import { errorReporter } from './report-errors.js';
import { openSettleEvents } from './settle-events.js';
import type { SettleEvents } from './settle-events.js';
import { toStrataError } from './to-strata-error.js';

/**
 * {@link JobQueue} on BullMQ and Redis. Derive jobs go to the queues `ingest`, `summarize`
 * and `consolidate` (job id: the strata key, encoded), served by this process
 * (`deriveConcurrency`) and/or by `startWorker` processes anywhere; results come back through
 * the `apply` queue, which only this process serves, because it owns the store. Keys are
 * deterministic and apply is idempotent, so a job enqueued twice, retried or replayed after
 * a crash is stored once. One store per prefix. `drain()` learns that jobs settled from the
 * local apply worker and from the queues' events (see `KeyTracker`), never by polling.
 */
export class BullMqJobQueue implements JobQueue {
  readonly derivesInline = false;
  /** Jobs stay in Redis after close, for any worker and the next app: the memory plans before it closes. */
  readonly keepsJobs = true;
  private runtime: JobRuntime | null = null;
  private workers: Worker[] = [];
  private readonly tracker: KeyTracker;
  private readonly index: PendingIndex;
  private readonly metrics: MetricsRecorder;
  /** Enqueues run one at a time: check, index, add is not atomic across calls. */
  private serial: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | null = null;

  /** @internal use createBullMqJobQueue() */
  constructor(
    private readonly settings: BullMqJobQueueSettings,
    private readonly client: Redis,
    /** strata's own commands (index, presence, metrics), apart from BullMQ's client. */
    private readonly strataClient: Redis,
    private readonly queues: StrataQueues,
    private readonly reportError: (error: unknown) => void,
    /** Settle events of every process (apply completed, failed for good), read once started. */
    private readonly events: SettleEvents,
  ) {
    const keys = strataKeys(settings.redis.prefix);
    this.index = new PendingIndex(strataClient, keys);
    this.metrics = new MetricsRecorder(strataClient, keys, reportError);
    this.tracker = new KeyTracker({
      safetyCheckMs: settings.safetyCheckMs,
      // After the enqueues under way: a key being enqueued again is not yet in Redis, and its
      // previous job's "applied" event must not settle it.
      check: (items) => this.serial.then(() => checkKeys(strataClient, queues, items)),
      requeue: (jobs) => this.enqueue(jobs),
      onError: reportError,
    });
  }

  /** A lost connection is back: Redis may have restarted without its data, so every tracked job is checked. */
  private readonly onReconnect = (): void => this.tracker.recheck();

  /**
   * Starts the apply worker and, unless `deriveConcurrency` is 0, local derive workers, reads
   * the queues' settle events, and adopts the jobs a previous run left unapplied (drain() waits
   * for them; one check at once settles those that failed for good before this run).
   */
  async start(runtime: JobRuntime): Promise<void> {
    this.assertOpen();
    if (this.runtime !== null) {
      if (this.runtime === runtime) return;
      throw new StrataError('CONFLICT', 'This BullMQ job queue is already started with another runtime.', {
        hint: 'Give each memory its own queue (and its own prefix); createMemory calls start() once.',
      });
    }
    this.runtime = runtime;
    const { settings, index, tracker, metrics, reportError } = this;
    const common = { settings: settings.redis, stall: settings.stall, metrics, onError: reportError };
    this.workers.push(startApplyWorker({ ...common, concurrency: settings.applyConcurrency, runtime, index, tracker }));
    if (settings.deriveConcurrency > 0) {
      const derive = startDeriveWorkers({
        ...common,
        queues: this.queues,
        serve: DERIVE_QUEUES,
        concurrency: settings.deriveConcurrency,
        derive: async (job, attempt) => {
          try {
            return await runtime.derive(job, attempt);
          } catch (error) {
            // this process's memory hears of its own workers' failed tries (a `strata worker` process reports its own)
            runtime.failed?.(job, error, { number: attempt.number, willRetry: isWorthRetrying(error) && !attempt.isFinal });
            throw error;
          }
        },
        onEvent: () => undefined, // failures reach drain() through the queues' events
      });
      this.workers.push(...derive);
    }
    this.events.listen((key, how) => tracker.report(key, how));
    this.client.on('ready', this.onReconnect);
    // Jobs a previous run of the app left unapplied: flush() waits for them too.
    try {
      for (const { ref } of await index.entries()) tracker.adopt(ref);
    } catch (error) {
      throw toStrataError(error, settings.redis.where);
    }
    tracker.recheck();
  }

  /**
   * Adds jobs to their derive queue. A key queued, running or awaiting apply is skipped
   * (dedupe); a key that failed for good starts over. Resolves before any work is done.
   * @throws StrataError BACKEND_UNAVAILABLE when Redis stays unreachable (the jobs are
   * kept and enqueued again once it answers).
   */
  async enqueue(jobs: DeriveJob[]): Promise<void> {
    this.assertOpen();
    if (this.runtime === null) {
      throw new StrataError('CONFIG_INVALID', 'enqueue() was called before start().', { hint: 'Call queue.start(runtime) first; createMemory does this.' });
    }
    const seen = new Set<string>();
    const firsts = jobs.filter((job) => !seen.has(job.key) && seen.add(job.key) !== undefined);
    // Tracked first: kept (the tracker enqueues them again once Redis answers), and a job that
    // completes before add() returns must still be seen settling.
    for (const job of firsts) this.tracker.track(job);
    const consequence = `${firsts.length} job(s) kept, enqueued once it answers`;
    const run = this.serial.then(() => this.add(firsts, consequence));
    this.serial = run.catch(() => undefined);
    // An append must not wait long for Redis, even behind an earlier add whose commands were
    // in flight when the connection dropped (ioredis holds those until it reconnects).
    await this.outlastingNoOutage(run, consequence);
  }

  private async add(jobs: DeriveJob[], consequence: string): Promise<void> {
    await this.awaitRedis(consequence);
    try {
      const presences = await presenceOfMany(this.strataClient, this.queues, jobs);
      const fresh = jobs.filter((_, i) => presences[i]?.derive !== 'live' && presences[i]?.apply !== 'live');
      // A key that failed for good starts over: its failed jobs would block the same id.
      await Promise.all(
        jobs.map(async (job, i) => {
          const id = jobIdOf(job.key);
          if (presences[i]?.derive === 'failed') await this.queues.derive[job.type].remove(id);
          if (presences[i]?.apply === 'failed') await this.queues.apply.remove(id);
        }),
      );
      const tokens = await this.index.add(fresh.map(refOf));
      await Promise.all(
        DERIVE_QUEUES.map((type) => {
          const bulk = fresh.flatMap((job, i) =>
            job.type === type ? [{ name: type, data: { job, token: tokens[i] as number }, opts: jobOptions(job.key, this.settings.attempts, this.settings.backoffMs) }] : [],
          );
          return bulk.length ? this.queues.derive[type].addBulk(bulk) : Promise.resolve([]);
        }),
      );
    } catch (error) {
      throw toStrataError(error, this.settings.redis.where);
    }
  }

  /** @throws StrataError BACKEND_UNAVAILABLE when Redis is reconnecting for longer than `reconnectWaitMs`. */
  async pending(sessionId?: string): Promise<PendingJob[]> {
    const consequence = 'pending jobs unknown';
    await this.awaitRedis(consequence);
    try {
      return await this.outlastingNoOutage(readPending(this.strataClient, this.queues, this.index, sessionId), consequence);
    } catch (error) {
      throw toStrataError(error, this.settings.redis.where);
    }
  }

  /** Resolves when every job this queue enqueued is applied or failed for good; at once after close(). */
  drain(): Promise<void> {
    return this.tracker.drain();
  }

  /** Depth per queue, latency, counters: the whole prefix, every process. */
  async stats(): Promise<QueueStats> {
    try {
      const stats = collectStats(this.strataClient, this.queues, strataKeys(this.settings.redis.prefix), this.settings.redis.prefix);
      return await this.outlastingNoOutage(stats, 'no stats');
    } catch (error) {
      throw toStrataError(error, this.settings.redis.where);
    }
  }

  /** Stops taking jobs, waits for running ones, closes the connections. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /** Waits for running jobs, unless Redis is gone: then nothing could complete, and waiting would hang. */
  private async shutdown(): Promise<void> {
    this.tracker.close();
    this.client.off('ready', this.onReconnect);
    // An add stuck on a lost connection would hold close() until Redis came back.
    await this.outlastingNoOutage(this.serial, 'closing without it').catch(this.reportError);
    const isForced = isReconnecting(this.client);
    await Promise.allSettled(this.workers.map((worker) => worker.close(isForced)));
    await this.queues.close().catch(this.reportError);
    await Promise.all([this.events.close().catch(this.reportError), closeRedis(this.client), closeRedis(this.strataClient)]);
  }

  /** `work`, unless the connection is lost for `reconnectWaitMs` first (see {@link failAfterOutage}). */
  private outlastingNoOutage<T>(work: Promise<T>, consequence: string): Promise<T> {
    return failAfterOutage(this.client, work, this.settings.reconnectWaitMs, `Redis at ${this.settings.redis.where}`, consequence);
  }

  private awaitRedis(consequence: string): Promise<void> {
    return awaitConnection(this.client, this.settings.reconnectWaitMs, `Redis at ${this.settings.redis.where}`, consequence);
  }

  private assertOpen(): void {
    if (this.closing !== null) {
      throw new StrataError('CLOSED', `This BullMQ job queue (prefix "${this.settings.redis.prefix}") is closed.`, {
        hint: 'Create a new one with createBullMqJobQueue(); close() is final.',
      });
    }
  }
}

/**
 * Creates a {@link BullMqJobQueue} after checking that Redis answers.
 * @throws StrataError CONFIG_INVALID for bad options; BACKEND_UNAVAILABLE naming the server
 * when Redis does not answer within `connectTimeoutMs`.
 * @example
 * const queue = await createBullMqJobQueue({ url: 'redis://127.0.0.1:6379', prefix: 'myapp', deriveConcurrency: 0 });
 * const memory = await createMemory({ store, knowledge, queue }); // derivation runs in `strata worker` processes
 * await memory.flush(); // waits for the workers' results to be applied here
 */
export async function createBullMqJobQueue(options: BullMqJobQueueOptions = {}): Promise<BullMqJobQueue> {
  const settings = parseQueueOptions(options);
  await probeRedis(settings.redis);
  const reportError = errorReporter(settings.redis.where, settings.onError, 'strata BullMqJobQueue');
  const client = openRedis(settings.redis, false, reportError);
  const strataClient = openRedis(settings.redis, false, reportError, true);
  const queues = openQueues(client, settings.redis.prefix, reportError);
  try {
    const events = await openSettleEvents(settings.redis, strataClient, queues, reportError);
    return new BullMqJobQueue(settings, client, strataClient, queues, reportError, events);
  } catch (error) {
    await queues.close().catch(reportError);
    await Promise.all([closeRedis(client), closeRedis(strataClient)]);
    throw toStrataError(error, settings.redis.where);
  }
}

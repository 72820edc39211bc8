import type { PolicyInput } from '../../config/policy.js';
import type { DeriveJob } from '../../domain/jobs.js';
import type { PendingJob } from '../../domain/retrieval.js';
import type { JobQueue, JobRuntime } from '../../ports/job-queue.js';
import { DeriveThread } from './derive-thread.js';
import { InProcessJobQueue, type InProcessJobQueueOptions } from './in-process-job-queue.js';

/**
 * Options of {@link WorkerThreadJobQueue}: those of the in-process queue, plus the policy and the
 * models module the worker thread derives with.
 */
export interface WorkerThreadJobQueueOptions extends InProcessJobQueueOptions {
  /**
   * The policy given to `createMemory`: the thread's offline models summarize within its
   * working-tier token limits. @defaultValue the default policy
   */
  policy?: PolicyInput;
  /**
   * Path or URL of a module exporting `createDeriveModels(): DeriveModels | Promise<DeriveModels>`
   * (summarizer, extractor, embeddings, policy), to derive with other models than the offline
   * ones. It is loaded inside the thread, so it builds its own instances.
   */
  modelsModule?: string;
}

/**
 * {@link JobQueue} of the embedded default with the models run on a worker thread: the
 * in-process queue's order, dedupe, retries and slices, but each job's derivation (parsing,
 * summarizing, embedding) runs off the app's event loop. Applying a result stays on the
 * caller's thread, where the store lives (one writer). Nothing survives a restart: the job
 * ledger re-plans lost work, as with {@link InProcessJobQueue}.
 */
export class WorkerThreadJobQueue implements JobQueue {
  readonly derivesInline = false;
  readonly keepsJobs = false;
  private readonly inner: InProcessJobQueue;
  private readonly thread: DeriveThread;

  constructor(options: WorkerThreadJobQueueOptions = {}) {
    const { policy, modelsModule, ...queueOptions } = options;
    this.inner = new InProcessJobQueue(queueOptions);
    this.thread = new DeriveThread({ policy: policy ?? {}, ...(modelsModule === undefined ? {} : { modelsModule }) });
  }

  /** Binds the runtime: `derive` runs on the thread (the runtime's own derive is not called), `apply` here. */
  start(runtime: JobRuntime): Promise<void> {
    return this.inner.start({
      derive: (job, attempt) => this.thread.derive(job, attempt),
      apply: (result) => runtime.apply(result),
      ...(runtime.failed ? { failed: runtime.failed.bind(runtime) } : {}),
    });
  }

  enqueue(jobs: DeriveJob[]): Promise<void> {
    return this.inner.enqueue(jobs);
  }

  pending(sessionId?: string): Promise<PendingJob[]> {
    return this.inner.pending(sessionId);
  }

  drain(): Promise<void> {
    return this.inner.drain();
  }

  /** Waits for running jobs, then ends the thread. Idempotent. */
  async close(): Promise<void> {
    await this.inner.close();
    await this.thread.close();
  }
}

/**
 * Creates a {@link WorkerThreadJobQueue}: derivation off the app's event loop, no servers.
 * @example
 * const policy = { working: { summaryMaxTokens: 200 } };
 * const memory = await createMemory({ policy, queue: createWorkerThreadJobQueue({ policy }) });
 */
export function createWorkerThreadJobQueue(options: WorkerThreadJobQueueOptions = {}): JobQueue {
  return new WorkerThreadJobQueue(options);
}

import { Worker } from 'node:worker_threads';
import type { DeriveJob, DeriveResult } from '../../domain/jobs.js';
import { StrataError } from '../../errors/strata-error.js';
import type { DeriveAttempt } from '../../ports/job-queue.js';
import type { DeriveReply, DeriveRequest, DeriveThreadData } from './derive-thread-protocol.js';

interface Waiter {
  resolve: (result: DeriveResult) => void;
  reject: (error: unknown) => void;
}

// Run from TypeScript sources (tests, benches under tsx), the thread registers tsx's loader
// before it loads its entry: a worker does not inherit the loader hooks of `--import tsx`.
const IS_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = new URL(IS_SOURCE ? './derive-thread-entry.ts' : './derive-thread-entry.js', import.meta.url);
const SOURCE_BOOTSTRAP = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(ENTRY.href)}); })`;

function startWorker(data: DeriveThreadData): Worker {
  return IS_SOURCE ? new Worker(SOURCE_BOOTSTRAP, { eval: true, workerData: data }) : new Worker(ENTRY, { workerData: data });
}

/**
 * One worker thread that runs `deriveJob` off the caller's event loop. Requests are answered
 * in any order, matched by id. The thread does not keep the process alive while idle. If it
 * dies, every request in flight fails with a retryable BACKEND_UNAVAILABLE and the next
 * request starts a new thread.
 */
export class DeriveThread {
  private worker: Worker | null = null;
  private readonly waiters = new Map<number, Waiter>();
  private nextId = 1;
  private isClosed = false;

  constructor(private readonly data: DeriveThreadData) {}

  derive(job: DeriveJob, attempt: DeriveAttempt): Promise<DeriveResult> {
    if (this.isClosed) return Promise.reject(new StrataError('CLOSED', 'This derive thread is closed.', { hint: 'Create a new queue; close() is final.' }));
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const request: DeriveRequest = { id, job, attempt };
    return new Promise((resolve, reject) => {
      this.waiters.set(id, { resolve, reject });
      if (this.waiters.size === 1) worker.ref();
      worker.postMessage(request);
    });
  }

  /** Ends the thread; requests in flight fail with CLOSED. Idempotent. */
  async close(): Promise<void> {
    this.isClosed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll(new StrataError('CLOSED', 'The derive thread was closed with this job in flight.', { hint: 'Jobs in flight at close are planned again from the job ledger.' }));
    if (worker !== null) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = startWorker(this.data);
    worker.unref();
    worker.on('message', (reply: DeriveReply) => this.settle(reply));
    worker.on('error', (error) => this.onExit(worker, error));
    worker.on('exit', (code) => this.onExit(worker, new Error(`derive thread exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private settle(reply: DeriveReply): void {
    const waiter = this.waiters.get(reply.id);
    if (waiter === undefined) return;
    this.waiters.delete(reply.id);
    if (this.waiters.size === 0) this.worker?.unref();
    if ('result' in reply) waiter.resolve(reply.result);
    else
      waiter.reject(
        new StrataError(reply.error.code, reply.error.message, {
          hint: reply.error.hint,
          retryable: reply.error.retryable,
          ...(reply.error.endpoint === undefined ? {} : { endpoint: reply.error.endpoint }),
        }),
      );
  }

  private onExit(worker: Worker, cause: unknown): void {
    if (this.worker !== worker) return;
    this.worker = null;
    const reason = cause instanceof Error ? cause.message : String(cause);
    this.failAll(new StrataError('BACKEND_UNAVAILABLE', `The derive thread stopped with this job in flight (${reason}).`, { hint: 'The job is retried on a new thread.', cause }));
  }

  private failAll(error: StrataError): void {
    const waiters = [...this.waiters.values()];
    this.waiters.clear();
    for (const waiter of waiters) waiter.reject(error);
  }
}

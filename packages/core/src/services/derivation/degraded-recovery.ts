import type { DeriveResult, ModelUsage } from '../../domain/jobs.js';
import { DerivationCounter, type MemoryStats } from './derivation-stats.js';
import type { MemoryDeps } from '../deps.js';
import { countDegradedMarkers, enqueueRederive } from './rederive.js';

/**
 * Follows the results one memory applies: counts them (with token usage), remembers the
 * sessions that received degraded results, and re-derives those sessions once a model
 * answers again. Re-derivation never fails an apply: errors go to `onError`.
 * @example
 * const recovery = new DegradedRecovery(deps, (error) => log(error));
 * if (await applyResult(deps, result)) await recovery.applied(result);
 * recovery.stats().derivation.inputTokens;
 */
export class DegradedRecovery {
  private readonly counter = new DerivationCounter();
  /** Sessions with degraded results applied by this memory and not yet re-derived. */
  private readonly sessions = new Set<string>();

  constructor(
    private readonly deps: MemoryDeps,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Call after a result was written to the store. */
  async applied(result: DeriveResult): Promise<void> {
    this.counter.record(result);
    if (result.job.rederive) return;
    if (result.degraded) this.sessions.add(result.job.sessionId);
    // A model answered (it reported usage): re-derive what was derived offline while it was down.
    else if (result.usage && this.sessions.size) await this.enqueue([...this.sessions]);
  }

  /** Counts a model call of the thread selector (attaching a namespace's ingested turns). */
  countThreadSelection(namespace: string, usage: ModelUsage): void {
    this.counter.recordThreadSelection(namespace, usage);
  }

  /** Counts a try of a job that failed (reported through `onError`, kind `derive`). */
  countFailedTry(): void {
    this.counter.recordFailedTry();
  }

  /** Re-derives every degraded artefact of the store; `flush` waits for the queue. */
  async rederiveAll(flush: () => Promise<void>): Promise<{ jobs: number; remaining: number }> {
    const ids = (await this.deps.store.sessions({})).map((s) => s.id);
    const jobs = await this.enqueue(ids);
    await flush();
    const markers = await countDegradedMarkers(this.deps, ids);
    for (const id of markers.keys()) this.sessions.add(id);
    return { jobs, remaining: [...markers.values()].reduce((a, b) => a + b, 0) };
  }

  stats(): MemoryStats {
    return { derivation: this.counter.snapshot() };
  }

  private async enqueue(sessionIds: string[]): Promise<number> {
    try {
      const { jobs, settled } = await enqueueRederive(this.deps, sessionIds);
      for (const id of settled) this.sessions.delete(id);
      return jobs;
    } catch (error) {
      this.onError(error);
      return 0;
    }
  }
}

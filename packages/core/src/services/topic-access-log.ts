import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { MemoryDeps } from './deps.js';
import type { Mutex } from './mutex.js';
import { touchTopicsOf } from './topic-decay.js';

/**
 * Accesses to topics (the turns a read returned), recorded off the read path: `getContext`
 * and `search` note the turn ids and return; on the next macrotask the topics are touched
 * (access count, half-life, a cold topic restored) under the apply lock, once for every read
 * in between. A read thus never waits behind derivation being applied, nor pays for a write.
 * Whatever reads or changes topics settles the log first, so it sees every earlier access.
 */
export class TopicAccessLog {
  private readonly pending = new Set<string>();
  private running: Promise<void> | undefined;
  /** Why recording accesses last failed, if it did (a read is never failed for it). */
  lastError: unknown = undefined;

  constructor(
    private readonly deps: MemoryDeps,
    private readonly lock: Mutex,
  ) {}

  record(messageIds: readonly string[]): void {
    if (messageIds.length === 0) return;
    for (const id of messageIds) this.pending.add(id);
    this.running ??= this.writeAll();
  }

  /** Resolves once every access recorded so far is written. */
  async settle(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  private async writeAll(): Promise<void> {
    try {
      await nextMacrotask();
      while (this.pending.size > 0) {
        const ids = [...this.pending];
        this.pending.clear();
        try {
          await this.lock.run(() => touchTopicsOf(this.deps, ids));
        } catch (error) {
          this.lastError = error;
        }
      }
    } finally {
      this.running = undefined;
    }
  }
}

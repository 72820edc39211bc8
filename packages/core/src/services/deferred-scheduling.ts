import { setImmediate as nextMacrotask } from 'node:timers/promises';

/**
 * Planning derivation after an append, off the caller's path: `append` stores the turns and
 * returns, and the planning (reading the session's tiers, enqueueing jobs) runs on the next
 * macrotask, once per session however many appends arrived in between. Readers that report
 * pending work (`getContext`, `flush`, `close`) call `settle` first, so what they see is as if
 * `append` had planned before returning.
 */
export class DeferredScheduling {
  private readonly requested = new Set<string>();
  private current: string | undefined;
  private running: Promise<void> | undefined;

  /** `schedule` must not throw: it records its own failures. */
  constructor(private readonly schedule: (sessionId: string) => Promise<void>) {}

  request(sessionId: string): void {
    this.requested.add(sessionId);
    this.running ??= this.runAll();
  }

  /** Whether the session's planning is requested or running. */
  has(sessionId: string): boolean {
    return this.requested.has(sessionId) || this.current === sessionId;
  }

  /** Resolves once every planning requested so far has run. */
  async settle(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  private async runAll(): Promise<void> {
    try {
      await nextMacrotask();
      for (let next = first(this.requested); next !== undefined; next = first(this.requested)) {
        this.requested.delete(next);
        this.current = next;
        await this.schedule(next);
      }
    } finally {
      this.current = undefined;
      this.running = undefined;
    }
  }
}

function first(set: ReadonlySet<string>): string | undefined {
  for (const value of set) return value;
  return undefined;
}

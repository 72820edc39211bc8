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
  private current: { sessionId: string; run: Promise<void> } | undefined;
  private running: Promise<void> | undefined;

  /** `schedule` must not throw: it records its own failures. */
  constructor(private readonly schedule: (sessionId: string) => Promise<void>) {}

  request(sessionId: string): void {
    this.requested.add(sessionId);
    this.running ??= this.runAll();
  }

  /**
   * Runs the session's requested planning now (or waits for it if running): a reader of one
   * session does not wait for the next macrotask, where queued derivation would run first.
   */
  async settleSession(sessionId: string): Promise<void> {
    if (this.current?.sessionId === sessionId) await this.current.run;
    if (!this.requested.delete(sessionId)) return;
    await this.schedule(sessionId);
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
        this.current = { sessionId: next, run: this.schedule(next) };
        await this.current.run;
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

import { setImmediate as nextMacrotask } from 'node:timers/promises';

/**
 * Work taken off a caller's path: `add` notes items and returns; on the next macrotask `run`
 * gets every item noted since, in one batch (items noted while it runs make the next batch).
 * Readers that must see the work done call `settle` (everything) or `settleOne` (one item, at
 * once, without waiting for the macrotask where other queued work would run first).
 * `run` must not throw: it records its own failures.
 */
export class MacrotaskBatch<T> {
  private readonly pending = new Set<T>();
  private inFlight: { items: ReadonlySet<T>; done: Promise<void> } | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly run: (items: T[]) => Promise<void>) {}

  add(items: Iterable<T>): void {
    for (const item of items) this.pending.add(item);
    if (this.pending.size > 0) this.running ??= this.runAll();
  }

  /** Resolves once every item noted so far has been run. */
  async settle(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  /** Runs `item` now if it is waiting, or waits for the batch that holds it. */
  async settleOne(item: T): Promise<void> {
    if (this.inFlight?.items.has(item)) await this.inFlight.done;
    if (this.pending.delete(item)) await this.run([item]);
  }

  private async runAll(): Promise<void> {
    try {
      await nextMacrotask();
      while (this.pending.size > 0) {
        const items = new Set(this.pending);
        this.pending.clear();
        this.inFlight = { items, done: this.run([...items]) };
        await this.inFlight.done;
      }
    } finally {
      this.inFlight = undefined;
      this.running = undefined;
    }
  }
}

/**
 * Like MacrotaskBatch, for work done item by item: `run` gets one item at a time, in the order
 * noted, from the next macrotask on. `settleOne` waits for its own item only: if it is running,
 * until it is done; if it is still waiting, it runs at once. A reader of one session after an
 * import of thousands therefore waits for that session's planning, not for the import's (over
 * PostgreSQL, planning 1,800 sessions at a few round trips each held a getContext for 5 s).
 * `run` must not throw: it records its own failures.
 */
export class MacrotaskQueue<T> {
  private readonly pending = new Set<T>();
  private current: { item: T; done: Promise<void> } | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly run: (item: T) => Promise<void>) {}

  add(items: Iterable<T>): void {
    for (const item of items) this.pending.add(item);
    if (this.pending.size > 0) this.running ??= this.runAll();
  }

  /** Resolves once every item noted so far has been run. */
  async settle(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  /** Forgets the items still waiting; resolves once the running one is done. */
  async drop(): Promise<void> {
    this.pending.clear();
    await this.settle();
  }

  /** Runs `item` now if it is waiting, or waits for it if it is running. */
  async settleOne(item: T): Promise<void> {
    if (this.current?.item === item) await this.current.done;
    if (this.pending.delete(item)) await this.run(item);
  }

  private async runAll(): Promise<void> {
    try {
      await nextMacrotask();
      for (let next = first(this.pending); next.found; next = first(this.pending)) {
        this.pending.delete(next.item);
        this.current = { item: next.item, done: this.run(next.item) };
        await this.current.done;
      }
    } finally {
      this.current = undefined;
      this.running = undefined;
    }
  }
}

/** The first item of a set, in insertion order. */
function first<T>(items: Set<T>): { found: true; item: T } | { found: false } {
  for (const item of items) return { found: true, item };
  return { found: false };
}

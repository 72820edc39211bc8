/**
 * Remembers how to revert each mutation made inside `run`, so that a batch that throws
 * half-way leaves the tables exactly as they were (the all-or-nothing rule of `write`).
 */
export class UndoLog {
  private steps: (() => void)[] | null = null;

  run<T>(apply: () => T): T {
    const steps: (() => void)[] = [];
    this.steps = steps;
    try {
      return apply();
    } catch (error) {
      for (let i = steps.length - 1; i >= 0; i -= 1) steps[i]?.();
      throw error;
    } finally {
      this.steps = null;
    }
  }

  push(step: () => void): void {
    this.steps?.push(step);
  }
}

interface TableHooks<T> {
  /** Called whenever a row enters the table, to maintain secondary indexes. */
  attach?: (row: T) => void;
  /** Called whenever a row leaves the table (deleted or replaced). */
  detach?: (row: T) => void;
}

/**
 * A keyed table whose rows are never mutated in place: every change is a `put` or a
 * `delete`, each logged for undo and mirrored into secondary indexes by the hooks.
 */
export class Table<T> {
  private readonly rows = new Map<string, T>();

  constructor(
    private readonly keyOf: (row: T) => string,
    private readonly undo: UndoLog,
    private readonly hooks: TableHooks<T> = {},
  ) {}

  get(key: string): T | undefined {
    return this.rows.get(key);
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  values(): IterableIterator<T> {
    return this.rows.values();
  }

  /** Inserts or replaces the row with the same key. */
  put(row: T): void {
    const previous = this.rows.get(this.keyOf(row));
    if (previous !== undefined) this.detach(previous);
    this.attach(row);
    this.undo.push(() => {
      this.detach(row);
      if (previous !== undefined) this.attach(previous);
    });
  }

  /** Deletes by key; returns the removed row, or undefined when there was none. */
  delete(key: string): T | undefined {
    const previous = this.rows.get(key);
    if (previous === undefined) return undefined;
    this.detach(previous);
    this.undo.push(() => this.attach(previous));
    return previous;
  }

  private attach(row: T): void {
    this.rows.set(this.keyOf(row), row);
    this.hooks.attach?.(row);
  }

  private detach(row: T): void {
    this.rows.delete(this.keyOf(row));
    this.hooks.detach?.(row);
  }
}

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A module loaded on first use, which can also be loaded ahead without holding the event loop. */
export interface LoadOnFirstUse<T> {
  (): T;
  /**
   * Loads the module with `import()`, whose reads and compiles are spread over several turns of
   * the event loop (the date parser: about 100 ms at most in one turn, against 700 ms for a
   * `require` in one): for callers about to do much work with it (a lexical load, a derivation).
   * Later calls return the module so loaded. Never rejects: a failed preload leaves the first
   * call to `require` it, and to report why.
   */
  preload(): Promise<void>;
}

/**
 * A module loaded on the first call instead of at import: the tokenizer's tables, the date
 * parser and the tagger's model take about 600 ms to load, which an app (or a CLI printing
 * its help) that never counts, parses or tags should not pay when it imports strata. Each
 * loads its CommonJS build synchronously, because the callers (token counts, date resolution,
 * sentence parsing) are synchronous; `pick` takes the same exports out of the module's
 * `import()` namespace for {@link LoadOnFirstUse.preload}.
 */
export function loadOnFirstUse<T>(id: string, pick: (namespace: Record<string, unknown>) => unknown = (namespace) => namespace.default): LoadOnFirstUse<T> {
  let loaded: T | undefined;
  const load = (() => (loaded ??= require(id) as T)) as LoadOnFirstUse<T>;
  load.preload = async () => {
    if (loaded !== undefined) return;
    try {
      const namespace = (await import(id)) as Record<string, unknown>;
      loaded ??= pick(namespace) as T;
    } catch {
      // the first call requires it, and throws what went wrong
    }
  };
  return load;
}

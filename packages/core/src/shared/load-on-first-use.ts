import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A module loaded on the first call instead of at import: the tokenizer's tables, the date
 * parser and the tagger's model take about 600 ms to load, which an app (or a CLI printing
 * its help) that never counts, parses or tags should not pay when it imports strata. Each
 * loads its CommonJS build synchronously, because the callers (token counts, date resolution,
 * sentence parsing) are synchronous.
 */
export function loadOnFirstUse<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}

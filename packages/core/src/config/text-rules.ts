/**
 * What strata accepts as names (namespaces, ids) and as text, the same for every store: a
 * store must never be the one to decide (SQLite turned a lone surrogate into U+FFFD, memory
 * kept it), and nothing is normalised silently (two tenants differing by a trailing
 * no-break space once became one).
 */

/** Latest time a JavaScript Date can hold, in epoch milliseconds (and its negation the earliest). */
export const MAX_EPOCH_MS = 8.64e15;

/** A UTF-16 surrogate without its pair: not text, and no store keeps it the same way. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Control, format (zero-width, bidi), line/paragraph separators and private-use characters, and every space but U+0020. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}]|(?! )\s/u;

/** Why `text` is not well-formed UTF-16, or undefined when it is. */
export function textProblem(text: string): string | undefined {
  const lone = LONE_SURROGATE.exec(text);
  return lone ? `holds a lone surrogate (U+${(lone[0].codePointAt(0) ?? 0).toString(16).toUpperCase()}) at index ${lone.index}` : undefined;
}

/**
 * Why `name` cannot name a namespace or a record, or undefined when it can: names are
 * compared exactly, so they must look like what they are.
 */
export function nameProblem(name: string): string | undefined {
  const broken = textProblem(name);
  if (broken) return broken;
  if (/^\s|\s$/u.test(name)) return 'starts or ends with whitespace';
  const hidden = INVISIBLE.exec(name);
  if (hidden) return `holds an invisible or control character (U+${(hidden[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}) at index ${hidden.index}`;
  if (name !== name.normalize('NFC')) return "is not in Unicode NFC (pass name.normalize('NFC'))";
  return undefined;
}

/**
 * Why `value` is not plain JSON (what JSON.stringify keeps and JSON.parse gives back the
 * same), or undefined when it is: null, booleans, finite numbers, well-formed strings,
 * arrays and plain objects, no cycles, at most `maxDepth` deep. A property set to undefined
 * is allowed (JSON leaves it out, as every store then does). The path names the culprit.
 */
export function plainJsonProblem(value: unknown, maxDepth = 32): string | undefined {
  const open = new Set<object>();
  const visit = (v: unknown, path: string, depth: number): string | undefined => {
    if (v === null || typeof v === 'boolean') return undefined;
    if (typeof v === 'number') return Number.isFinite(v) ? undefined : `${path} is ${String(v)} (not a finite number)`;
    if (typeof v === 'string') {
      const broken = textProblem(v);
      return broken ? `${path} ${broken}` : undefined;
    }
    if (typeof v !== 'object') return `${path} is a ${typeof v} (not JSON)`;
    if (depth > maxDepth) return `${path} is nested more than ${maxDepth} levels deep`;
    if (open.has(v)) return `${path} refers back to itself (a cycle)`;
    const isArray = Array.isArray(v);
    const proto = Object.getPrototypeOf(v) as unknown;
    if (!isArray && proto !== Object.prototype && proto !== null) return `${path} is a ${(v as { constructor?: { name?: string } }).constructor?.name ?? 'non-plain object'} (not a plain object)`;
    open.add(v);
    try {
      if (isArray) {
        for (let i = 0; i < v.length; i++) {
          const problem = visit(v[i], `${path}[${i}]`, depth + 1);
          if (problem) return problem;
        }
        return undefined;
      }
      for (const key of Object.keys(v)) {
        const broken = textProblem(key);
        if (broken) return `${path} has a key that ${broken}`;
        // copying by assignment (and zod) drops this key or changes the prototype instead: refused, never silently lost
        if (key === '__proto__') return `${path} has the key "__proto__", which cannot be stored as data`;
        const item = (v as Record<string, unknown>)[key];
        if (item === undefined) continue;
        const problem = visit(item, `${path}.${key}`, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    } finally {
      open.delete(v);
    }
  };
  return visit(value, '$', 0);
}

import { StrataError } from '@strata/core';

const JSON_HINT =
  'A remote memory sends its input as JSON: pass plain objects and arrays, strings, finite numbers, booleans and null (turn Dates, Maps, BigInts and class instances into those first).';

/**
 * Why `value` would not arrive as itself after JSON.stringify and JSON.parse, or undefined when
 * it would. Strings are left to the server, whose checks (lone surrogates, names) are the
 * in-process ones: JSON carries every string unchanged.
 */
function jsonProblem(value: unknown, path: string, open: Set<object>): string | undefined {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is ${String(value)} (not a finite number)`;
  if (value === undefined) return `${path} is undefined`;
  if (typeof value !== 'object') return `${path} is a ${typeof value} (not JSON)`;
  if (open.has(value)) return `${path} refers back to itself (a cycle)`;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) {
    return `${path} is a ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'non-plain object'} (not a plain object)`;
  }
  open.add(value);
  try {
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, i) => [`[${i}]`, item]) : Object.entries(value).map(([key, item]) => [`.${key}`, item]);
    for (const [step, item] of entries) {
      // JSON leaves an undefined property out, as the in-process memory does; in an array it would become null
      if (item === undefined && !Array.isArray(value)) continue;
      // a copy by assignment (and the server's parser) turns this key into a prototype: refused, as in process
      if (step === '.__proto__') return `${path} has the key "__proto__", which cannot be stored as data`;
      const problem = jsonProblem(item, `${path}${step}`, open);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    open.delete(value);
  }
}

/**
 * `value` when JSON carries it unchanged to the server; otherwise an INVALID_INPUT StrataError
 * naming the culprit by its path from `what` (`message[1].metadata.when is a Date ...`).
 * @throws StrataError INVALID_INPUT for NaN, Infinity, BigInt, functions, Dates, Maps, class instances, cycles.
 */
export function jsonBody<T>(value: T, what: string): T {
  const problem = jsonProblem(value, what, new Set());
  if (problem) throw new StrataError('INVALID_INPUT', `${what} is invalid: ${problem}`, { hint: JSON_HINT });
  return value;
}

import { StrataError } from '@strata/core';

const SESSION_HINT = 'Pass the id returned by memory.sessions.create().';

/** A lone UTF-16 surrogate: a URL cannot carry it (encodeURIComponent throws), and no stored name holds one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a URL's query can carry `value` as itself. */
export function canBeInUrl(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/** Whether a URL path segment can carry `value` as itself: `.` and `..` are resolved away. */
function isAddressable(value: string): boolean {
  return canBeInUrl(value) && value !== '.' && value !== '..';
}

/**
 * `value` as an id to put in a URL path, checked as the in-process memory checks a looked-up id.
 * @throws StrataError INVALID_INPUT when it is not a non-empty string; NOT_FOUND when no URL can
 *   name it (no record can have such an id, so the in-process answer is NOT_FOUND too).
 */
export function pathId(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 1024) {
    throw new StrataError('INVALID_INPUT', `${what} is invalid: ${what} must be a non-empty string of at most 1024 characters (got ${JSON.stringify(value) ?? String(value)})`, {
      hint: SESSION_HINT,
    });
  }
  if (!isAddressable(value)) throw new StrataError('NOT_FOUND', `no session with id ${JSON.stringify(value)}`, { hint: `${SESSION_HINT} List sessions with memory.sessions.list().` });
  return value;
}

/**
 * The options the server takes no parameter for, checked as the in-process memory checks
 * them, so a bad one fails the same way instead of being dropped on the way.
 * @throws StrataError INVALID_INPUT naming the option.
 */
export function checkOptions(options: unknown, what: string, rules: Record<string, 'positive' | 'integer' | 'boolean' | 'string'>, hint: string): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new StrataError('INVALID_INPUT', `${what} is invalid: expected an object (got ${String(options)})`, { hint });
  }
  for (const [key, rule] of Object.entries(rules)) {
    const value = (options as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const ok =
      rule === 'boolean'
        ? typeof value === 'boolean'
        : rule === 'string'
          ? typeof value === 'string' && value.length > 0
          : Number.isSafeInteger(value) && (rule === 'integer' || (value as number) > 0);
    if (!ok) throw new StrataError('INVALID_INPUT', `${what} is invalid: ${key} must be ${describe(rule)} (got ${JSON.stringify(value) ?? String(value)})`, { hint });
  }
}

function describe(rule: 'positive' | 'integer' | 'boolean' | 'string'): string {
  return { positive: 'a positive integer', integer: 'an integer', boolean: 'a boolean', string: 'a non-empty string' }[rule];
}

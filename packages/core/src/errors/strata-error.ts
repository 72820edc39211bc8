/** Every failure strata reports has one of these codes. */
export type StrataErrorCode =
  | 'INVALID_INPUT'
  | 'CONFIG_INVALID'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'BACKEND_UNAVAILABLE'
  | 'CLOSED'
  | 'INTERNAL'
  /** A remote memory's request carried no valid API key. */
  | 'UNAUTHORIZED'
  /** A remote memory's API key lacks the scope the operation needs. */
  | 'FORBIDDEN'
  /** A remote memory's API key sent more requests than its rate allows; retry later. */
  | 'RATE_LIMITED';

const BRAND = Symbol.for('strata.error');

/**
 * What a {@link StrataError} carries besides its code and message: the fix, the cause, and
 * whether to retry (by default true only for BACKEND_UNAVAILABLE).
 */
export interface StrataErrorOptions {
  /** How to fix it, addressed to the developer. */
  hint: string;
  cause?: unknown;
  /** True when trying again later can succeed (busy database, server down). */
  retryable?: boolean;
  /** The host (`host:port`) of the model endpoint or backend that failed; never a key or a path. */
  endpoint?: string;
}

/**
 * The one error family of strata. `code` says what kind of failure, `hint` how to fix it,
 * `cause` keeps the underlying error. Use `StrataError.is(e)` rather than `instanceof`:
 * it survives duplicate installs of the package.
 */
export class StrataError extends Error {
  readonly code: StrataErrorCode;
  readonly hint: string;
  readonly retryable: boolean;
  /** The host (`host:port`) of the model endpoint or backend that failed, when known; never a key or a path. */
  readonly endpoint?: string;
  readonly [BRAND] = true;

  constructor(code: StrataErrorCode, message: string, options: StrataErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StrataError';
    this.code = code;
    this.hint = options.hint;
    this.retryable = options.retryable ?? (code === 'BACKEND_UNAVAILABLE' || code === 'RATE_LIMITED');
    if (options.endpoint !== undefined) this.endpoint = options.endpoint;
  }

  /**
   * Whether `value` is a StrataError (of `code`, when given), by a brand rather than
   * `instanceof`, so it holds across duplicate copies of the package.
   */
  static is(value: unknown, code?: StrataErrorCode): value is StrataError {
    if (typeof value !== 'object' || value === null) return false;
    if ((value as Record<symbol, unknown>)[BRAND] !== true) return false;
    return code === undefined || (value as StrataError).code === code;
  }

  override toString(): string {
    return `StrataError [${this.code}]: ${this.message}\n  hint: ${this.hint}`;
  }
}

/**
 * Whether trying a failed job again can help. Bad input and bad configuration fail the same
 * way every time, so they are not retried; everything else (a model or backend down) is.
 */
export function isWorthRetrying(error: unknown): boolean {
  return !(StrataError.is(error, 'INVALID_INPUT') || StrataError.is(error, 'CONFIG_INVALID'));
}

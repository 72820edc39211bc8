import { StrataError } from '@strata/core';

export const START_HINT = 'Start Redis with `bash scripts/services.sh up` (from the strata repository) or ' + '`redis-server --port 6379`, or point url / STRATA_REDIS_URL at a running Redis.';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);
const UNREACHABLE = /connection is closed|fetch failed|stream isn't writeable|reached the max retries|connect etimedout|socket hang up|timed out/i;
const UNREACHABLE_NAMES = new Set(['MaxRetriesPerRequestError', 'APIConnectionError', 'APIConnectionTimeoutError', 'AbortError', 'TimeoutError', 'ConnectionClosedError']);
const AUTH = /NOAUTH|WRONGPASS|invalid password|invalid username-password/i;

const detailOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The error and its causes, outermost first (a fetch failure hides ECONNREFUSED in `cause`). */
function chainOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 6; ) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

/** A refused, reset or timed-out connection anywhere in the cause chain. */
export function isUnreachable(error: unknown): boolean {
  return chainOf(error).some((e) => {
    if (!(e instanceof Error)) return false;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    return UNREACHABLE_NAMES.has(e.name) || UNREACHABLE.test(e.message);
  });
}

/**
 * The one place where ioredis and BullMQ errors become strata's. `where` names the Redis
 * server (no password). Unreachable Redis is BACKEND_UNAVAILABLE (retryable), refused
 * credentials CONFIG_INVALID, anything else INTERNAL.
 */
export function toStrataError(error: unknown, where: string): StrataError {
  if (StrataError.is(error)) return error;
  const detail = detailOf(error);
  if (AUTH.test(detail)) {
    return new StrataError('CONFIG_INVALID', `Redis at ${where} refused the credentials (${detail})`, {
      hint: 'Put the password (and user) in the url (redis://user:password@host:port) or in connection.password.',
      cause: error,
    });
  }
  if (isUnreachable(error)) {
    return new StrataError('BACKEND_UNAVAILABLE', `Redis at ${where} is unreachable (${detail})`, { hint: START_HINT, cause: error });
  }
  return new StrataError('INTERNAL', `Redis at ${where} failed a queue operation (${detail})`, {
    hint: 'This is unexpected; check the Redis log and version (BullMQ needs Redis >= 6.2), and report it with the message above.',
    cause: error,
  });
}

/**
 * Classifies what a derive (a model call) threw, for the retry decision: strata errors keep
 * their code; an unreachable model endpoint or backend becomes BACKEND_UNAVAILABLE (retried
 * with backoff); anything else is kept as is (also retried: it may be transient).
 */
export function toDeriveError(error: unknown, key: string): unknown {
  if (StrataError.is(error) || !isUnreachable(error)) return error;
  return new StrataError('BACKEND_UNAVAILABLE', `a model endpoint or backend was unreachable while deriving ${key} (${detailOf(error)})`, {
    hint: 'Check that the model server (or other backend) is up; the job is retried with backoff.',
    cause: error,
  });
}

/** The failure text BullMQ keeps (`failedReason`), with the strata code in front when there is one. */
export function failureText(error: unknown): string {
  return StrataError.is(error) ? `${error.code}: ${error.message}` : detailOf(error);
}

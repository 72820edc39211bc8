import { StrataError } from '@strata/core';

interface PgLikeError {
  code?: unknown;
  message?: unknown;
}

/** Node's socket errors: the server cannot be reached (down, restarting, wrong address). */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * The one place where PostgreSQL's and the driver's errors become strata's, by SQLSTATE
 * class (https://www.postgresql.org/docs/15/errcodes-appendix.html). `where` names the server
 * and schema in every message.
 */
export function toStrataError(error: unknown, where: string): StrataError {
  if (StrataError.is(error)) return error;
  const code = typeof (error as PgLikeError)?.code === 'string' ? ((error as PgLikeError).code as string) : '';
  const detail = error instanceof Error ? error.message : String(error);
  if (code === '23505' || code === '23503') {
    return new StrataError('CONFLICT', `${where}: ${detail}`, { hint: 'An id or seq is already taken (or a record it names is gone); re-read and retry with fresh ids.', cause: error });
  }
  // serialization failure, deadlock: another transaction won; the whole write can be tried again
  if (code === '40001' || code === '40P01') {
    return new StrataError('CONFLICT', `${where}: a concurrent write won (${detail})`, {
      hint: 'Another process wrote the same records at the same time; retry the write (the job queue does).',
      cause: error,
      retryable: true,
    });
  }
  // connection exceptions, operator intervention (shutdown, restart), insufficient resources
  if (SOCKET_ERRORS.has(code) || code.startsWith('08') || code.startsWith('57P') || code.startsWith('53') || isDriverConnectionError(detail)) {
    return new StrataError('BACKEND_UNAVAILABLE', `${where} cannot be reached (${detail})`, {
      hint: 'Check that PostgreSQL runs and accepts connections at this URL (scripts/services.sh up starts one for development); the write was not applied, retry it.',
      cause: error,
      retryable: true,
    });
  }
  if (code === '28P01' || code === '28000' || code === '3D000') {
    return new StrataError('CONFIG_INVALID', `${where}: ${detail}`, { hint: 'Check the user, password and database in the connection URL.', cause: error });
  }
  return new StrataError('INTERNAL', `${where}: ${detail}`, { hint: 'This is unexpected; please report it with the message above.', cause: error });
}

/** node-postgres reports a lost or unusable connection with messages, not codes. */
function isDriverConnectionError(message: string): boolean {
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(message);
}

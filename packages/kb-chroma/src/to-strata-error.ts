import { REINDEX_HINT, StrataError } from '@strata/core';

/** Where a failure happened: every message names the server, and the collection when there is one. */
export interface ChromaPlace {
  url: string;
  collection: string;
}

export const START_HINT =
  'Start Chroma with `bash scripts/services.sh up` (from the strata repository) or ' + '`npx chroma run --path DIR --host 127.0.0.1 --port PORT`, or point url at a running server.';

const DIMENSION_ERROR = /expecting embedding with dimension of (\d+), got (\d+)/i;

const errorName = (error: unknown): string => (error instanceof Error ? error.name : '');
const detailOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The one place where the Chroma client's errors become strata's. The client names its error
 * classes (ChromaConnectionError, ChromaClientError, ...); they are matched by `name` rather
 * than `instanceof`, which a second copy of the client would defeat.
 */
export function toStrataError(error: unknown, place: ChromaPlace): StrataError {
  if (StrataError.is(error)) return error;
  const name = errorName(error);
  const detail = detailOf(error);
  const where = `Chroma at ${place.url} (collection "${place.collection}")`;
  if (isUnreachable(error)) {
    return new StrataError('BACKEND_UNAVAILABLE', `Chroma at ${place.url} is unreachable (${detail})`, { hint: START_HINT, cause: error });
  }
  const dimensions = DIMENSION_ERROR.exec(detail);
  if (dimensions !== null) {
    const message = `${where} holds ${dimensions[1]}-dimensional vectors; got a ${dimensions[2]}-dimensional one.`;
    return new StrataError('CONFIG_INVALID', message, { hint: REINDEX_HINT, cause: error });
  }
  switch (name) {
    case 'ChromaNotFoundError':
      return new StrataError('NOT_FOUND', `${where}: the collection, tenant or database does not exist (${detail})`, {
        hint: 'The collection may have been deleted while in use: create the knowledge base again and run memory.reindex(). Check tenant and database.',
        cause: error,
      });
    case 'ChromaUnauthorizedError':
    case 'ChromaForbiddenError':
      return new StrataError('CONFIG_INVALID', `${where} refused the credentials (${detail})`, {
        hint: 'Pass the auth header the server expects in options.headers, and a tenant and database it grants.',
        cause: error,
      });
    case 'ChromaServerError':
    case 'ChromaRateLimitError':
      return new StrataError('BACKEND_UNAVAILABLE', `${where} failed to answer (${detail})`, {
        hint: 'The server is overloaded or failing; retry later, and check its log.',
        cause: error,
      });
    default:
      // ChromaClientError, ChromaValueError, ...: a request strata built and Chroma refused.
      return new StrataError('INTERNAL', `${where} refused a request (${name || 'error'}: ${detail})`, {
        hint: 'This is unexpected; please report it with the message above and the Chroma server version.',
        cause: error,
      });
  }
}

/** The client turns every failed fetch (refused, DNS, reset, timeout) into ChromaConnectionError. */
function isUnreachable(error: unknown): boolean {
  const name = errorName(error);
  if (name === 'ChromaConnectionError' || name === 'AbortError' || name === 'TimeoutError') return true;
  return error instanceof TypeError && /fetch failed/i.test(error.message);
}

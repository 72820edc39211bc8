import { StrataError, type StrataErrorCode } from '@strata/core';

/** The codes a strata server sends in a problem document (`code`), as core's StrataError has them. */
const CODES: ReadonlySet<string> = new Set<StrataErrorCode>([
  'INVALID_INPUT',
  'CONFIG_INVALID',
  'NOT_FOUND',
  'CONFLICT',
  'BACKEND_UNAVAILABLE',
  'CLOSED',
  'INTERNAL',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'RATE_LIMITED',
]);

/** What an answer that is not a strata problem (a proxy's error page, an older server) most likely means, by status. */
function codeOfStatus(status: number): StrataErrorCode {
  if (status === 400 || status === 413 || status === 422) return 'INVALID_INPUT';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404 || status === 410) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 502 || status === 503 || status === 504) return 'BACKEND_UNAVAILABLE';
  return 'INTERNAL';
}

const FALLBACK_HINTS: Partial<Record<StrataErrorCode, string>> = {
  UNAUTHORIZED: 'Pass a valid API key as createRemoteMemory({ url, apiKey }); create one with `strata keys create`.',
  FORBIDDEN: 'Use an API key with the scope this call needs (read, write, forget or admin).',
  RATE_LIMITED: 'Send fewer requests per second, or retry after the time the server named.',
  BACKEND_UNAVAILABLE: 'Retry later; check that the strata server and its store are running.',
};

const asText = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * The StrataError a failed answer of a strata server stands for. A problem document
 * (`application/problem+json`, RFC 9457) keeps its `code` and `hint`, and its `detail` becomes
 * the message, so a caller sees what the in-process memory would have thrown; the document
 * itself, with the status and `Retry-After`, is the error's `cause`. Any other answer is mapped
 * by its status, its text kept in the message.
 * @example
 * const { error, response } = await client.GET('/v1/sessions/{id}', { params: { path: { id } } });
 * if (error !== undefined) throw problemToError(error, response);
 */
export function problemToError(body: unknown, response: Response): StrataError {
  const problem = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const sent = asText(problem.code);
  const code = sent !== undefined && CODES.has(sent) ? (sent as StrataErrorCode) : codeOfStatus(response.status);
  const retryAfter = response.headers.get('retry-after');
  const cause = { status: response.status, ...(retryAfter === null ? {} : { retryAfter }), problem: body };
  const message =
    asText(problem.detail) ??
    asText(problem.title) ??
    `the strata server answered ${response.status} ${response.statusText}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`.trim();
  const hint = asText(problem.hint) ?? FALLBACK_HINTS[code] ?? `The server at ${response.url || 'the given url'} answered ${response.status}; check its logs.`;
  return new StrataError(code, message, { hint, cause });
}

import { StrataError } from '../errors/strata-error.js';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/** HTTP status of an OpenAI-style client error, if it has one. */
function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Whether the error (or a cause up the chain) says the endpoint could not be reached in time. */
function isNetworkFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { name, code, message } = e as { name?: unknown; code?: unknown; message?: unknown };
    const ctor = (e as { constructor?: { name?: string } }).constructor?.name ?? '';
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (/Connection|Timeout|Abort/.test(`${ctor} ${String(name)}`)) return true;
    if (typeof message === 'string' && /fetch failed|socket hang up|network|timed out/i.test(message)) return true;
  }
  return false;
}

/**
 * Maps a chat model failure to a StrataError, so that derivation can decide whether to retry
 * (BACKEND_UNAVAILABLE: connection refused, timeout, HTTP 408/429/5xx) or fall back at once
 * (CONFIG_INVALID: bad key, unknown model or URL; INVALID_INPUT: request refused). Errors it
 * cannot classify count as the endpoint failing (retryable). `endpoint` (the host, never a key)
 * is named in the message and kept on the error.
 */
export function toModelError(error: unknown, model: string, endpoint?: string): StrataError {
  if (StrataError.is(error)) return error;
  const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const status = statusOf(error);
  const what = `model ${model}${endpoint ? ` at ${endpoint}` : ''} failed: ${detail}`;
  const at = endpoint === undefined ? {} : { endpoint };
  if (status === 401 || status === 403) {
    return new StrataError('CONFIG_INVALID', what, { hint: 'Check the API key (OPENAI_API_KEY) for this endpoint.', cause: error, ...at });
  }
  if (status === 404) {
    return new StrataError('CONFIG_INVALID', what, { hint: 'Check the base URL (it usually ends in /v1) and that the endpoint serves this model name.', cause: error, ...at });
  }
  if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return new StrataError('INVALID_INPUT', what, {
      hint: 'The endpoint refused the request; check that the model supports tool calling and the prompt fits its context window.',
      cause: error,
      ...at,
    });
  }
  const unreachable = status !== undefined || isNetworkFailure(error);
  return new StrataError('BACKEND_UNAVAILABLE', what, {
    hint: unreachable
      ? 'The model endpoint is down, overloaded or too slow; the job is retried with backoff, then derived offline (degraded).'
      : 'The model call failed; the job is retried, then derived offline (degraded).',
    cause: error,
    retryable: true,
    ...at,
  });
}

/** The model's answer did not have the requested shape: retrying the same prompt rarely helps. */
export function invalidModelOutput(model: string, detail: string, cause?: unknown, endpoint?: string): StrataError {
  return new StrataError('INTERNAL', `model ${model}${endpoint ? ` at ${endpoint}` : ''} returned unusable structured output: ${detail}`, {
    hint: "Use a model that supports tool calling, or pass method: 'jsonSchema' / 'jsonMode' if the endpoint supports that instead.",
    ...(cause === undefined ? {} : { cause }),
    ...(endpoint === undefined ? {} : { endpoint }),
    retryable: false,
  });
}

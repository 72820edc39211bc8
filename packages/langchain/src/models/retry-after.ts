/** The longest `Retry-After` a model call waits for; a longer one is left to the job queue's backoff. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * How long a 429 or 503 answer asked the client to wait (its `Retry-After` header, in seconds
 * or as an HTTP date), from the error or a cause up its chain (OpenAI-style clients keep the
 * response headers on the error). Undefined without one, or for another status.
 */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { status, headers } = e as { status?: unknown; headers?: unknown };
    if (status !== 429 && status !== 503) continue;
    const value = headerOf(headers, 'retry-after');
    if (value === undefined) continue;
    const seconds = Number(value);
    if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return undefined;
}

function headerOf(headers: unknown, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const found = Object.entries(headers as Record<string, unknown>).find(([key]) => key.toLowerCase() === name)?.[1];
  return typeof found === 'string' ? found : undefined;
}

import createClient, { type Client } from 'openapi-fetch';
import { StrataError } from '@strata/core';
import type { paths } from './openapi.js';
import { problemToError } from './problem-to-error.js';

/** What an openapi-fetch call resolves to: the data of a 2xx answer, or the parsed body of any other. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** fetch threw: the request may or may not have reached the server (refused, reset, DNS, TLS). */
class ConnectionFailure extends Error {
  override readonly name = 'ConnectionFailure';
}

/** How a remote memory talks to its server: one typed client, the closed flag, and the mapping of every failure to a StrataError. */
export interface RemoteTransport {
  /** The typed client of the server's routes (`paths` from its OpenAPI document). */
  readonly client: Client<paths>;
  /**
   * Runs `call` (one request of `client`) and returns the data of its 2xx answer. A problem
   * answer throws its StrataError; a connection failure BACKEND_UNAVAILABLE, after trying once
   * more when `retry` (the call must be safe to repeat, e.g. it carries an Idempotency-Key).
   * @throws StrataError CLOSED once `close()` was called.
   */
  send<T>(call: () => Promise<Answer<T>>, options?: { retry?: boolean }): Promise<T>;
  /** Makes every later `send` throw CLOSED. */
  close(): void;
}

/** The URL without credentials, query or fragment: safe to show in an error. */
function shownUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;
}

/**
 * The transport of `createRemoteMemory`: openapi-fetch over `fetch`, with the Bearer key set
 * once (never shown in an error).
 */
export function createRemoteTransport(options: { url: URL; apiKey?: string; fetch?: typeof fetch }): RemoteTransport {
  const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const where = shownUrl(options.url);
  const client = createClient<paths>({
    baseUrl: options.url.href.replace(/\/$/, ''),
    headers: options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` },
    fetch: async (request: Request) => {
      try {
        return await base(request);
      } catch (error) {
        throw new ConnectionFailure(error instanceof Error ? error.message : String(error), { cause: error });
      }
    },
  });
  let closed = false;

  const unreachable = (failure: ConnectionFailure) => {
    const reason = (failure.cause as { cause?: { code?: string } } | undefined)?.cause?.code ?? failure.message;
    return new StrataError('BACKEND_UNAVAILABLE', `cannot reach the strata server at ${where} (${reason})`, {
      hint: `Check that the strata server at ${where} is running and reachable (strata serve), or pass the right url to createRemoteMemory().`,
      cause: failure.cause,
    });
  };

  const attempt = async <T>(call: () => Promise<Answer<T>>): Promise<T> => {
    if (closed) throw new StrataError('CLOSED', 'this remote memory is closed', { hint: 'Create a new one with createRemoteMemory().' });
    let answer: Answer<T>;
    try {
      answer = await call();
    } catch (error) {
      if (error instanceof ConnectionFailure || StrataError.is(error)) throw error;
      // a 2xx answer whose body is not the JSON its route promises: not a strata server, or a proxy in between
      throw new StrataError('BACKEND_UNAVAILABLE', `the server at ${where} sent an answer that is not strata's: ${error instanceof Error ? error.message : String(error)}`, {
        hint: `Check that ${where} is the url of a strata server (including any path it is mounted under).`,
        cause: error,
      });
    }
    if (answer.response.ok) return answer.data as T;
    throw problemToError(answer.error, answer.response);
  };

  return {
    client,
    async send(call, { retry = false } = {}) {
      try {
        return await attempt(call);
      } catch (error) {
        if (!(error instanceof ConnectionFailure)) throw error;
        if (!retry) throw unreachable(error);
      }
      try {
        return await attempt(call);
      } catch (error) {
        throw error instanceof ConnectionFailure ? unreachable(error) : error;
      }
    },
    close() {
      closed = true;
    },
  };
}

import { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** Whether the request came in through Node's HTTP server (the Node adapter passes it as `c.env.incoming`). */
function fromNodeServer(c: Context): boolean {
  const env = c.env as { incoming?: unknown } | undefined;
  return typeof env === 'object' && env !== null && env.incoming instanceof IncomingMessage;
}

/**
 * Refuses a body larger than `maxSize` bytes with `refuse`. On Node's HTTP server, a request
 * that states its length is judged by its Content-Length header alone, and one with neither
 * Content-Length nor Transfer-Encoding has no body (HTTP/1.1 framing, which Node's parser
 * enforces): neither touches the body, so the routes read it straight from the socket.
 * Hono's bodyLimit asks for `Request.body`, which makes the Node adapter build a full fetch
 * Request, its stream and an AbortSignal for every request. A chunked body, or a request
 * from elsewhere (`app.request`, another runtime), is counted as it streams in, by Hono's
 * bodyLimit.
 */
export function limitBody(maxSize: number, refuse: (c: Context) => Response): MiddlewareHandler {
  const streamed = bodyLimit({ maxSize, onError: refuse });
  return async (c, next) => {
    if (!fromNodeServer(c)) return streamed(c, next);
    const chunked = c.req.header('transfer-encoding') !== undefined;
    const length = c.req.header('content-length');
    if (!chunked && length === undefined) return next();
    if (!chunked) return Number.parseInt(length as string, 10) > maxSize ? refuse(c) : next();
    return streamed(c, next);
  };
}

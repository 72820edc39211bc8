import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import { problem, problemResponse } from './http/problem.js';

/** Options of `startStrataServer`. */
export interface StartStrataServerOptions {
  /** The app to serve, e.g. from `createStrataServer` (anything with a fetch handler). */
  app: {
    /** Answers one request, as Hono's `app.fetch` does. */
    fetch: (request: Request) => Response | Promise<Response>;
  };
  /** @defaultValue '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * Time a client has to send the request headers (Node's `headersTimeout`).
   * @defaultValue 30_000
   */
  headersTimeoutMs?: number;
  /**
   * Time a client has to send the whole request (Node's `requestTimeout`); the time to answer
   * is `limits.requestTimeoutMs` of `createStrataServer`.
   * @defaultValue 120_000
   */
  requestTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection stays open.
   * @defaultValue 5_000
   */
  keepAliveTimeoutMs?: number;
  /**
   * How long `close()` waits for requests in flight before cutting their connections.
   * @defaultValue 30_000
   */
  shutdownTimeoutMs?: number;
  /** Runs once the server has stopped, e.g. `() => memory.close()`. */
  onClose?: () => void | Promise<void>;
}

/** A listening server. */
export interface RunningServer {
  /** `http://host:port`. */
  url: string;
  port: number;
  /** Stops accepting connections, waits for requests in flight to finish, then runs `onClose`. Calling it again returns the same promise. */
  close(): Promise<void>;
}

/**
 * A request Node parses but the adapter refuses before the app sees it (a backslash in the path,
 * a bad Host) is a 400 problem too; anything else the adapter throws, a generic 500.
 */
function adapterError(error: unknown): Response {
  if (error instanceof RequestError) {
    return problemResponse({ problem: problem('INVALID_INPUT', 'the request line or headers are malformed', 'Send a path of URL characters (no backslash) and a valid Host header.'), headers: {} });
  }
  return problemResponse({ problem: problem('INTERNAL', 'internal error', 'The server logged the cause; retry later, or report it to its operator.'), headers: {} });
}

function listen(options: StartStrataServerOptions, host: string): Promise<Server> {
  const serverOptions = { headersTimeout: options.headersTimeoutMs ?? 30_000, requestTimeout: options.requestTimeoutMs ?? 120_000, keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000 };
  const server = createServer(serverOptions, getRequestListener(options.app.fetch, { hostname: host, errorHandler: adapterError }));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Stops accepting, closes idle connections now and busy ones as their answer finishes, and cuts what is left after `timeoutMs`. */
function stop(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const cut = setTimeout(() => server.closeAllConnections(), timeoutMs);
    cut.unref();
    server.close((error) => {
      clearTimeout(cut);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Serves `app` with @hono/node-server's request listener on `host:port`, with Node's header,
 * request and keep-alive timeouts set.
 * @example
 * const app = createStrataServer({ memory });
 * const server = await startStrataServer({ app, host: '127.0.0.1', port: 8787, onClose: () => memory.close() });
 * process.once('SIGTERM', () => void server.close());
 */
export async function startStrataServer(options: StartStrataServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const server = await listen(options, host);
  let closing: Promise<void> | undefined;
  // a keep-alive connection busy when close() began is idle once its answer is written
  server.on('request', (_req, res) => res.once('finish', () => closing && setImmediate(() => server.closeIdleConnections())));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () => {
      closing ??= (async () => {
        await stop(server, options.shutdownTimeoutMs ?? 30_000);
        await options.onClose?.();
      })();
      return closing;
    },
  };
}

import { serve } from '@hono/node-server';
import { StrataError } from '@strata/core/errors';
import { createUiApp, type UiDeps } from './ui-app.js';

export interface RunningUi {
  /** The URL to open, access token included. */
  url: string;
  close(): Promise<void>;
}

/** Serves the web app on `host:port` (port 0: one the OS picks). */
export function startUi(deps: UiDeps, { host, port }: { host: string; port: number }): Promise<RunningUi> {
  const app = createUiApp(deps);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${info.port}/chat?token=${deps.token}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new StrataError('BACKEND_UNAVAILABLE', `cannot serve the web app on ${host}:${port} (${error.code ?? error.message})`, {
          hint: error.code === 'EADDRINUSE' ? 'Pass another --port, or 0 for a free one.' : 'Check --host: an address of this machine, e.g. 127.0.0.1.',
          cause: error,
        }),
      );
    });
  });
}

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createStrataServer, type StrataServerOptions } from '../../src/index.js';

/** A strata server listening on 127.0.0.1 on a port of its own. */
export interface TestServer {
  port: number;
  url: string;
  /** Stops listening and drops open connections (keep-alive sockets included). */
  close(): Promise<void>;
}

/** Starts `createStrataServer(options)` with @hono/node-server on 127.0.0.1, port 0. */
export async function startTestServer(options: StrataServerOptions): Promise<TestServer> {
  const app = createStrataServer(options);
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(listening as Server));
    listening.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

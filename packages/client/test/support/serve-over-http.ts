import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { MemoryApi } from '@strata/core';
import { createStrataServer, type StrataServerOptions } from '@strata/server';

/** A strata server on a real socket (127.0.0.1, a free port): its URL, and how to stop it. */
export interface ServedMemory {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `memory` with createStrataServer on 127.0.0.1, port 0. The body limit is well above
 * any contract's `messageBytes`, so that the memory's own INVALID_INPUT checks answer oversize
 * input, and the rate limit is off (a suite sends hundreds of requests a second).
 */
export async function serveOverHttp(memory: MemoryApi, options: Omit<StrataServerOptions, 'memory'> = {}): Promise<ServedMemory> {
  const app = createStrataServer({ memory, ...options, limits: { bodyBytes: 8 * 1024 * 1024, rateLimit: false, ...options.limits } });
  let server: Server | undefined;
  const address = await new Promise<AddressInfo>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, resolve) as Server;
  });
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server?.close((error) => (error ? reject(error) : resolve()));
        // the client's keep-alive connections would hold close() for seconds
        server?.closeAllConnections();
      }),
  };
}

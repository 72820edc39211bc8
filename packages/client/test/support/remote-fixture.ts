import { createMemory, type Memory, type MemoryApi, type MemoryOptions } from '@strata/core';
import type { StrataServerOptions } from '@strata/server';
import { createRemoteMemory } from '../../src/index.js';
import { type ServedMemory, serveOverHttp } from './serve-over-http.js';

/** A request the remote memory sent: method and path with query. */
export interface SentRequest {
  method: string;
  path: string;
  headers: Headers;
}

/** An in-process memory, a server over it on a socket, and a remote memory recording every request it sends. */
export interface RemoteFixture {
  local: Memory;
  remote: MemoryApi;
  served: ServedMemory;
  sent: SentRequest[];
  /** The requests sent whose path (without query) is `path`. */
  sentTo(method: string, path: string): SentRequest[];
  close(): Promise<void>;
}

/** A fixture over `createMemory(memoryOptions)`; `apiKey` and server options as given. */
export async function openRemoteFixture(options: { memory?: MemoryOptions; server?: Omit<StrataServerOptions, 'memory'>; apiKey?: string } = {}): Promise<RemoteFixture> {
  const local = await createMemory(options.memory);
  const served = await serveOverHttp(local, options.server);
  const sent: SentRequest[] = [];
  const remote = createRemoteMemory({
    url: served.url,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    fetch: (input) => {
      const request = input as Request;
      const url = new URL(request.url);
      sent.push({ method: request.method, path: `${url.pathname}${url.search}`, headers: request.headers });
      return fetch(request);
    },
  });
  return {
    local,
    remote,
    served,
    sent,
    sentTo: (method, path) => sent.filter((r) => r.method === method && r.path.split('?')[0] === path),
    close: async () => {
      await remote.close();
      await served.close();
      await local.close();
    },
  };
}

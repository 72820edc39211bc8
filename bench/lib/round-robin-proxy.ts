/**
 * A TCP proxy that hands each new connection to the next backend in turn (node:net): two
 * `strata serve` processes behind one URL for wrk, as a layer-4 load balancer would put them.
 * A keep-alive connection stays on the backend it was given.
 */
import { createServer, type Socket, connect } from 'node:net';

/** A listening proxy. */
export interface RoundRobinProxy {
  url: string;
  /** Connections handed to each backend so far, in the order of `backends`. */
  handed: () => number[];
  close: () => Promise<void>;
}

/** Listens on 127.0.0.1 (a free port) and forwards to `backends` (`host:port`), round robin by connection. */
export async function startRoundRobinProxy(backends: { host: string; port: number }[]): Promise<RoundRobinProxy> {
  if (backends.length === 0) throw new Error('startRoundRobinProxy needs at least one backend');
  const handed = backends.map(() => 0);
  const open = new Set<Socket>();
  let next = 0;
  const server = createServer((client) => {
    const index = next;
    next = (next + 1) % backends.length;
    handed[index] = (handed[index] ?? 0) + 1;
    const backend = backends[index] as { host: string; port: number };
    const upstream = connect({ host: backend.host, port: backend.port, noDelay: true });
    client.setNoDelay(true);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    // a reset on one side ends the other: the client sees the failure as a socket error
    client.once('error', () => upstream.destroy());
    upstream.once('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    handed: () => [...handed],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

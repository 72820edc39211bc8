import { createServer, type Server, type Socket, connect } from 'node:net';

/** A TCP proxy on 127.0.0.1 to a server, which a test can cut (the server seems gone) and restore. */
export interface TcpProxy {
  port: number;
  /** Drops every connection and stops accepting new ones (connecting is refused). */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to `target` on a free port of 127.0.0.1. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const forward = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    // either side going away takes the other with it, as a network cut does
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server: Server = createServer(forward);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  const port = await listen(0);
  return {
    port,
    cut: stop,
    restore: async () => {
      server = createServer(forward);
      await listen(port);
    },
    close: stop,
  };
}

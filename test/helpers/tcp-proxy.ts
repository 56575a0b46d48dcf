import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real service (PostgreSQL, Redis), so a test can take the
 * service away from the app without touching the service itself, which other tests share.
 */
export interface TcpProxy {
  port: number;
  /** Closes every open connection and refuses new ones (ECONNREFUSED) until `resume`. */
  refuse(): Promise<void>;
  /** Accepts and forwards again, on the same port. */
  resume(): Promise<void>;
  /** Delay added to every chunk in each direction (0: none). */
  setLatency(ms: number): void;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

/** Starts a proxy to `target` on a free port. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let latency = 0;
  let accepted = 0;
  const delayed = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (latency === 0) {
        to.write(chunk);
        return;
      }
      from.pause();
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
        from.resume();
      }, latency);
    });
    from.on('end', () => to.end());
  };
  const onConnection = (client: net.Socket) => {
    accepted++;
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    delayed(client, upstream);
    delayed(upstream, client);
  };
  let server = net.createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  let refusing = false;

  return {
    port,
    get accepted() {
      return accepted;
    },
    async refuse() {
      if (refusing) return;
      refusing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    async resume() {
      if (!refusing) return;
      server = net.createServer(onConnection);
      await listen(port);
      refusing = false;
    },
    setLatency(ms: number) {
      latency = ms;
    },
    async close() {
      for (const s of sockets) s.destroy();
      if (!refusing) await new Promise<void>((resolve) => server.close(() => resolve()));
      refusing = true;
    },
  };
}

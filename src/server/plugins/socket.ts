import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { ClientToServerEvents, ServerToClientEvents } from '../../shared/events';
import { clientKey } from '../lib/network';
import { clientAddressResolver } from '../lib/client-address';

export type SocketServer = Server<ClientToServerEvents, ServerToClientEvents>;

export interface SocketOptions {
  /** What starts this deployment's Redis channel names. */
  redisPrefix?: string;
  redisUrl: string | undefined;
  /** The app's TRUST_PROXY, so a client behind the reverse proxy is counted by its own address. */
  trustProxy: boolean | number | string;
  /** Open sockets one client (IPv4 address, IPv6 /64) may hold; a page needs one. */
  maxConnectionsPerClient?: number;
}

export const MAX_SOCKETS_PER_CLIENT = 20;
/** The app only pushes a number to clients; nothing a client sends needs more than this. */
export const MAX_SOCKET_MESSAGE_BYTES = 1024;
/** A handshake allowed but never completed gives its place back after this long. */
const HANDSHAKE_GRACE_MS = 10_000;

/**
 * socket.io on the app's own HTTP server at `/socket.io`. With REDIS_URL the Redis adapter carries
 * every emit to the clients of all instances. Each client may hold a few sockets only, and a
 * message larger than the app ever needs closes its socket.
 */
export function attachSocket(app: FastifyInstance, options: SocketOptions): SocketServer {
  const cap = options.maxConnectionsPerClient ?? MAX_SOCKETS_PER_CLIENT;
  const addressOf = clientAddressResolver(options.trustProxy);
  const open = new Map<string, number>();
  const pending = new WeakMap<IncomingMessage, { key: string; timer: NodeJS.Timeout }>();
  const release = (key: string) => {
    const left = (open.get(key) ?? 1) - 1;
    if (left <= 0) open.delete(key);
    else open.set(key, left);
  };

  const io: SocketServer = new Server(app.server, {
    serveClient: false,
    cors: { origin: false },
    maxHttpBufferSize: MAX_SOCKET_MESSAGE_BYTES,
    // A place is taken when the handshake is allowed, so a burst of parallel handshakes cannot overshoot.
    allowRequest: (req, done) => {
      const key = clientKey(addressOf(req));
      const count = open.get(key) ?? 0;
      if (count >= cap) {
        done('Too many connections from this address', false);
        return;
      }
      open.set(key, count + 1);
      pending.set(req, { key, timer: setTimeout(() => (pending.delete(req), release(key)), HANDSHAKE_GRACE_MS).unref() });
      done(null, true);
    },
  });
  io.engine.on('connection', (socket: { request: IncomingMessage; once(event: 'close', listener: () => void): void }) => {
    const reserved = pending.get(socket.request);
    if (!reserved) return;
    clearTimeout(reserved.timer);
    pending.delete(socket.request);
    socket.once('close', () => release(reserved.key));
  });

  let clients: Redis[] = [];
  if (options.redisUrl) {
    const pub = new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    for (const c of [pub, sub]) c.on('error', (err) => app.log.warn({ err }, 'socket redis adapter error'));
    // The deployment's prefix: another deployment on the same Redis hears none of these broadcasts.
    io.adapter(createAdapter(pub, sub, { key: `${options.redisPrefix ?? ''}socket.io` }));
    clients = [pub, sub];
  }
  // Disconnect sockets before Fastify closes the HTTP server, so open sockets do not hold it open.
  app.addHook('preClose', async () => {
    io.local.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => undefined)));
  });
  return io;
}

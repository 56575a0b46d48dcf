import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { ClientToServerEvents, ServerToClientEvents } from '../../shared/events';

export type SocketServer = Server<ClientToServerEvents, ServerToClientEvents>;

/**
 * socket.io on the app's own HTTP server at `/socket.io` (decisions §1). With REDIS_URL the
 * Redis adapter carries every emit to the clients of all instances.
 */
export function attachSocket(app: FastifyInstance, redisUrl: string | undefined): SocketServer {
  const io: SocketServer = new Server(app.server, { serveClient: false, cors: { origin: false } });
  let clients: Redis[] = [];
  if (redisUrl) {
    const pub = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    for (const c of [pub, sub]) c.on('error', (err) => app.log.warn({ err }, 'socket redis adapter error'));
    io.adapter(createAdapter(pub, sub));
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

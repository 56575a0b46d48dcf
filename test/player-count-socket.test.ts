import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '../src/shared/events';
import type { DatabaseHandle } from '../src/server/db/database';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { openTestDatabase } from './helpers/test-db';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

async function client(url: string): Promise<{ socket: Client; counts: number[] }> {
  const socket: Client = connect(url, { transports: ['websocket'], reconnection: false });
  const counts: number[] = [];
  socket.on('playerCountUpdated', (n) => counts.push(n));
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => resolve());
    socket.on('connect_error', reject);
  });
  return { socket, counts };
}

const waitUntil = async (check: () => boolean, timeoutMs = 5000) => {
  const until = Date.now() + timeoutMs;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
};

describe('live player count', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t);
  });
  afterAll(() => t.close());

  it('serves the sum of listed servers and pushes playerCountUpdated when it changes, throttled to one a second', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const a = await createServer(t.app, owner.row.id, { currentPlayers: 10 });
    const hidden = await createServer(t.app, owner.row.id, { currentPlayers: 500 });
    await t.app.ctx.db.updateTable('servers').set({ hidden: true }).where('id', '=', hidden.id).execute();
    const known = t.app.ctx.playerCount.count;
    const { socket, counts } = await client(url);
    try {
      // A new socket hears the count the server holds right away.
      await waitUntil(() => counts.length >= 1);
      expect(counts).toEqual([known]);
      counts.length = 0;
      await t.app.ctx.playerCount.refresh();
      await waitUntil(() => counts.length >= 1);
      expect(counts).toEqual([10]);
      expect((await t.app.inject({ url: '/api/player-count' })).json()).toEqual({ count: 10 });

      // Three changes in quick succession reach clients as one event with the newest value.
      const started = Date.now();
      for (const players of [11, 12, 25]) {
        await t.app.ctx.db.updateTable('servers').set({ currentPlayers: players }).where('id', '=', a.id).execute();
        await t.app.ctx.playerCount.refresh();
      }
      await waitUntil(() => counts.length >= 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(counts).toEqual([10, 25]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(800);

      // No change, no event.
      await t.app.ctx.playerCount.refresh();
      await new Promise((r) => setTimeout(r, 1200));
      expect(counts).toEqual([10, 25]);
    } finally {
      socket.disconnect();
    }
  });
});

describe('across instances through the Redis adapter', () => {
  let database: DatabaseHandle;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase();
    const env = { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };
    a = await createTestApp({ env, build: { database } });
    b = await createTestApp({ env, build: { database } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.close();
  });

  it('a count change seen by one instance reaches a client connected to the other', async () => {
    await listen(a);
    const urlB = await listen(b);
    const { socket, counts } = await client(urlB);
    try {
      const owner = await createUser(a.app, { role: 'server_owner' });
      await createServer(a.app, owner.row.id, { currentPlayers: 42 });
      await a.app.ctx.playerCount.refresh();
      await waitUntil(() => counts.includes(42));
      expect(counts).toContain(42);
    } finally {
      socket.disconnect();
    }
  });
});

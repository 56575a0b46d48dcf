import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createServer, createUser } from '../helpers/factories';
import { MAX_SOCKETS_PER_CLIENT, MAX_SOCKET_MESSAGE_BYTES } from '../../src/server/plugins/socket';
import { report, scale } from './report';

type Client = Socket;

/** Opens one socket; resolves with it once connected, or with the refusal. */
function open(url: string): Promise<{ socket: Client; ok: boolean; counts: number[] }> {
  const socket = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true, timeout: 5000 });
  const counts: number[] = [];
  socket.on('playerCountUpdated', (n: number) => counts.push(n));
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket, ok: true, counts }));
    socket.once('connect_error', () => resolve({ socket, ok: false, counts }));
  });
}

const waitUntil = async (check: () => boolean, timeoutMs = 5000) => {
  const until = Date.now() + timeoutMs;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
};

describe('socket.io under abuse', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  it('caps the sockets one address may hold', async () => {
    const tried = scale(200, 2000);
    const sockets: Client[] = [];
    let connected = 0;
    try {
      // In waves, so the client side stays within its own limits; every socket stays open.
      for (let i = 0; i < tried; i += 100) {
        const wave = await Promise.all(Array.from({ length: Math.min(100, tried - i) }, () => open(url)));
        for (const r of wave) {
          sockets.push(r.socket);
          if (r.ok) connected++;
        }
      }
      const gotThrough = Math.max(0, connected - MAX_SOCKETS_PER_CLIENT);
      report({
        area: 'Resource exhaustion',
        check: 'socket connections from one address',
        tried,
        gotThrough,
        detail: `${connected} connected (cap ${MAX_SOCKETS_PER_CLIENT}), ${tried - connected} refused`,
      });
      expect(connected).toBe(MAX_SOCKETS_PER_CLIENT);
      expect(gotThrough).toBe(0);
    } finally {
      for (const s of sockets) s.disconnect();
    }
    // Places are given back when sockets close.
    await new Promise((r) => setTimeout(r, 300));
    const again = await open(url);
    expect(again.ok).toBe(true);
    again.socket.disconnect();
  });

  it('closes a socket that sends a message larger than the app ever needs, and never delivers it', async () => {
    const tried = scale(10, 50);
    let received = 0;
    t.app.ctx.io.on('connection', (s) => s.onAny(() => received++));
    let stillOpen = 0;
    for (let i = 0; i < tried; i++) {
      const { socket, ok } = await open(url);
      expect(ok).toBe(true);
      const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
      socket.emit('oversized', 'x'.repeat(MAX_SOCKET_MESSAGE_BYTES * (2 + i)));
      await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
      if (socket.connected) stillOpen++;
      socket.disconnect();
    }
    report({
      area: 'Resource exhaustion',
      check: 'oversized socket messages',
      tried,
      gotThrough: stillOpen + received,
      detail: `limit ${MAX_SOCKET_MESSAGE_BYTES} B; ${stillOpen} sockets left open, ${received} messages delivered`,
    });
    expect(stillOpen).toBe(0);
    expect(received).toBe(0);
  });

  it('tells every socket the current player count after a reconnect storm', async () => {
    const clients = 10;
    const rounds = scale(3, 20);
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id, { currentPlayers: 5 });
    let wrong = 0;
    let checks = 0;
    for (let round = 0; round < rounds; round++) {
      // The count changes while the clients are away.
      await t.app.ctx.db
        .updateTable('servers')
        .set({ currentPlayers: 5 + round * 7 })
        .where('id', '=', server.id)
        .execute();
      const current = await t.app.ctx.playerCount.refresh();
      const opened = await Promise.all(Array.from({ length: clients }, () => open(url)));
      await waitUntil(() => opened.every((o) => o.counts.length > 0), 3000);
      for (const o of opened) {
        checks++;
        if (!o.ok || o.counts.at(-1) !== current) wrong++;
        o.socket.disconnect();
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    report({
      area: 'Resource exhaustion',
      check: 'player count after a reconnect storm',
      tried: checks,
      gotThrough: wrong,
      detail: `${clients} clients × ${rounds} disconnect/reconnect rounds, count changed each round`,
    });
    expect(wrong).toBe(0);
  });
});

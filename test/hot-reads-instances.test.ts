import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/test-app';
import { createTwoInstances, type TwoInstances } from './helpers/two-instances';
import { createServer, createUser } from './helpers/factories';

describe('cached answers across instances (one database, one Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  let instances: TwoInstances;
  beforeAll(async () => {
    // Cached for a minute: only the invalidation through Redis can make instance B fresh.
    instances = await createTwoInstances({ listCacheTtlMs: 60_000 });
    ({ a, b } = instances);
  });
  afterAll(() => instances.close());

  const likesOn = async (t: TestApp, serverId: number) => {
    const page = (await t.app.inject({ method: 'GET', url: `/api/servers/${serverId}` })).json<{ likes: number }>().likes;
    const list = (await t.app.inject({ method: 'GET', url: '/api/servers?sort=likes&limit=50' })).json<
      Array<{ id: string; likes: number }>
    >();
    return { page, list: list.find((s) => s.id === String(serverId))?.likes };
  };

  it('a vote through one instance makes the other instance’s cached page and list fresh at once', async () => {
    const owner = await createUser(a.app, { role: 'server_owner' });
    // Registered through A, as owners do: B hears of the new server through Redis.
    const made = await a.app.inject({ method: 'POST', url: '/api/servers', headers: owner.headers, payload: { name: 'Two Instances' } });
    expect(made.statusCode).toBe(201);
    const server = { id: Number(made.json<{ id: string }>().id) };
    const voter = await createUser(a.app);
    const deadline0 = Date.now() + 2000;
    let before = await likesOn(b, server.id);
    while (before.list === undefined && Date.now() < deadline0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      before = await likesOn(b, server.id);
    }
    expect(before).toEqual({ page: 0, list: 0 });

    const res = await a.app.inject({ method: 'POST', url: `/api/servers/${server.id}/like`, headers: voter.headers });
    expect(res.statusCode).toBe(200);
    expect(await likesOn(a, server.id)).toEqual({ page: 1, list: 1 });

    // The message travels through Redis: B is fresh as soon as it arrives (well under the minute it would cache).
    const deadline = Date.now() + 2000;
    let seen = await likesOn(b, server.id);
    while ((seen.page !== 1 || seen.list !== 1) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await likesOn(b, server.id);
    }
    expect(seen).toEqual({ page: 1, list: 1 });
  });

  it('an edit through one instance drops the other instance’s cached lists', async () => {
    const owner = await createUser(a.app, { role: 'server_owner' });
    const server = await createServer(a.app, owner.row.id);
    expect((await b.app.inject({ method: 'GET', url: `/api/servers/${server.id}` })).statusCode).toBe(200);
    await a.app.ctx.db.updateTable('servers').set({ statusMessage: 'edited on A' }).where('id', '=', server.id).execute();
    // What every server edit, boost and moderation action tells.
    a.app.ctx.discovery.invalidate();
    const deadline = Date.now() + 2000;
    let message = '';
    while (message !== 'edited on A' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      message = (await b.app.inject({ method: 'GET', url: `/api/servers/${server.id}` })).json<{ statusMessage: string }>().statusMessage;
    }
    expect(message).toBe('edited on A');
  });

  it('player counts polled on one instance show on the other’s cached page and players list at once', async () => {
    const owner = await createUser(a.app, { role: 'server_owner' });
    const name = `Polled ${Date.now()}`;
    const made = await a.app.inject({ method: 'POST', url: '/api/servers', headers: owner.headers, payload: { name } });
    const server = { id: Number(made.json<{ id: string }>().id) };
    const byPlayers = `/api/servers?sort=players&q=${encodeURIComponent(name)}`;
    const playersOnB = async () => {
      const page = (await b.app.inject({ method: 'GET', url: `/api/servers/${server.id}` })).json<{ currentPlayers: number }>();
      const list = (await b.app.inject({ method: 'GET', url: byPlayers })).json<Array<{ id: string; currentPlayers: number }>>();
      return { page: page.currentPlayers, list: list.find((s) => s.id === String(server.id))?.currentPlayers };
    };
    // Until B knows the new server from the database, its list may not show it.
    const deadline0 = Date.now() + 2000;
    let before = await playersOnB();
    while (before.list === undefined && Date.now() < deadline0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      before = await playersOnB();
    }
    expect(before).toEqual({ page: 0, list: 0 });
    // What the game poller on A writes and tells after a round.
    await a.app.ctx.db.updateTable('servers').set({ currentPlayers: 17, online: true }).where('id', '=', server.id).execute();
    a.app.ctx.discovery.invalidate({ kind: 'counts', serverIds: [server.id], checkedIds: [server.id] });
    const deadline = Date.now() + 2000;
    let seen = await playersOnB();
    while ((seen.page !== 17 || seen.list !== 17) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await playersOnB();
    }
    expect(seen).toEqual({ page: 17, list: 17 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';

describe('GET /api/user/servers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("lists only the caller's own servers, in the API's server shape", async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const other = await createUser(t.app, { role: 'server_owner' });
    await createServer(t.app, owner.row.id, { name: 'Mine One' });
    await createServer(t.app, owner.row.id, { name: "Mine <b>Two</b>'; --" });
    await createServer(t.app, other.row.id, { name: 'Not Mine' });
    const res = await t.app.inject({ url: '/api/user/servers', headers: owner.headers });
    expect(res.statusCode).toBe(200);
    const servers = res.json() as Array<Record<string, unknown>>;
    expect(servers.map((s) => s.name)).toEqual(['Mine One', "Mine <b>Two</b>'; --"]);
    expect(servers[0]).toMatchObject({
      ownerId: String(owner.row.id),
      statusMessage: '',
      bio: '',
      backgroundColor: '#ffffff',
      textColor: '#000000',
      filters: [],
      galleryImages: [],
      likes: 0,
      dislikes: 0,
      boosts: 0,
      totalBoosts: 0,
      joins: 0,
      totalJoins: 0,
      views: 0,
      lastBoostedAt: null,
      currentPlayers: 0,
    });
  });

  it('answers [] for a player and an owner without servers, 401 without a token', async () => {
    const player = await createUser(t.app);
    const owner = await createUser(t.app, { role: 'server_owner' });
    expect((await t.app.inject({ url: '/api/user/servers', headers: player.headers })).json()).toEqual([]);
    expect((await t.app.inject({ url: '/api/user/servers', headers: owner.headers })).json()).toEqual([]);
    expect((await t.app.inject({ url: '/api/user/servers' })).statusCode).toBe(401);
  });
});

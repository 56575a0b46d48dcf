import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';

describe('following servers', () => {
  let t: TestApp;
  let owner: TestUser;
  let serverId: number;
  beforeAll(async () => {
    t = await createTestApp({
      build: {
        gamePoll: { allowTargets: ['127.0.0.1:30120'] },
        gameQuery: async () => ({ online: true, players: 12, maxPlayers: 64 }),
      },
    });
    owner = await createUser(t.app, { role: 'server_owner' });
    serverId = (await createServer(t.app, owner.row.id, { name: 'Followed Frontier' })).id;
  });
  afterAll(() => t?.close());

  const follow = (user: TestUser, method: 'POST' | 'DELETE' = 'POST', id = serverId) =>
    t.app.inject({ method, url: `/api/servers/${id}/follow`, headers: user.headers });
  const inbox = async (user: TestUser) =>
    (await t.app.inject({ url: '/api/notifications', headers: user.headers })).json<Array<{ title: string; link: string | null }>>();

  it('follows and unfollows, once however often, and lists followed servers with their live status', async () => {
    const player = await createUser(t.app);
    expect((await follow(player)).json()).toEqual({ following: true, followers: 1 });
    expect((await follow(player)).json()).toEqual({ following: true, followers: 1 });
    expect((await t.app.inject({ url: `/api/servers/${serverId}/follow`, headers: player.headers })).json().following).toBe(true);
    expect((await t.app.inject({ url: `/api/servers/${serverId}/follow` })).json()).toEqual({ following: false, followers: 1 });
    const listed = (await t.app.inject({ url: '/api/users/me/follows', headers: player.headers })).json();
    expect(listed).toEqual([expect.objectContaining({ id: String(serverId), name: 'Followed Frontier', online: null, nextEvent: null })]);
    expect((await follow(player, 'DELETE')).json()).toEqual({ following: false, followers: 0 });
    expect((await t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/follow` })).statusCode).toBe(401);
    expect((await follow(player, 'POST', 999_999)).statusCode).toBe(404);
  });

  it('tells every follower of an event the owner announces, at most three a day, only from the owner', async () => {
    const fans = [await createUser(t.app), await createUser(t.app)];
    for (const fan of fans) await follow(fan);
    const startsAt = new Date(Date.now() + 2 * 24 * 3600_000).toISOString();
    const announce = (user: TestUser, title: string, when = startsAt) =>
      t.app.inject({
        method: 'POST',
        url: `/api/servers/${serverId}/events`,
        headers: user.headers,
        payload: { title, details: 'Bring friends.', startsAt: when },
      });
    expect((await announce(fans[0]!, 'Not mine')).statusCode).toBe(403);
    expect((await announce(owner, 'Too late', new Date(Date.now() - 3 * 3600_000).toISOString())).statusCode).toBe(400);
    expect((await announce(owner, 'Heist night')).statusCode).toBe(201);
    for (const fan of fans) expect((await inbox(fan)).map((n) => n.title)).toContain('Followed Frontier: Heist night');
    expect((await t.app.inject({ url: '/api/users/me/follows', headers: fans[0]!.headers })).json()[0].nextEvent).toEqual({
      title: 'Heist night',
      startsAt,
    });
    expect((await t.app.inject({ url: `/api/servers/${serverId}/events` })).json()).toEqual([
      expect.objectContaining({ title: 'Heist night' }),
    ]);
    expect((await announce(owner, 'Two')).statusCode).toBe(201);
    expect((await announce(owner, 'Three')).statusCode).toBe(201);
    const fourth = await announce(owner, 'Four');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ error: 'A server can announce at most 3 events a day.' });
    // The first of the day's three leaves the window in about a day.
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(24 * 3600);
  });

  it('never passes three events a day when an owner sends many at once', async () => {
    const busy = (await createServer(t.app, owner.row.id, { name: 'Busy Bay' })).id;
    const startsAt = new Date(Date.now() + 24 * 3600_000).toISOString();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: `/api/servers/${busy}/events`,
          headers: owner.headers,
          payload: { title: `Night ${i}`, startsAt },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
    expect((await t.app.inject({ url: `/api/servers/${busy}/events` })).json()).toHaveLength(3);
  });

  it('tells followers when a server that was offline answers again', async () => {
    const fan = await createUser(t.app);
    await follow(fan);
    await t.app.ctx.db
      .updateTable('servers')
      .set({ game: 'fivem', gameHost: '127.0.0.1', gamePort: 30120, online: false, nextPollAt: null })
      .where('id', '=', serverId)
      .execute();
    expect(await t.app.ctx.gameStatus.pollDue()).toBe(1);
    const deadline = Date.now() + 5000;
    let titles: string[] = [];
    while (Date.now() < deadline && !titles.includes('Followed Frontier is back online')) {
      titles = (await inbox(fan)).map((n) => n.title);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(titles).toContain('Followed Frontier is back online');
    // Online already: polling again tells nobody twice.
    await t.app.ctx.db.updateTable('servers').set({ nextPollAt: null }).where('id', '=', serverId).execute();
    await t.app.ctx.gameStatus.pollDue();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await inbox(fan)).filter((n) => n.title === 'Followed Frontier is back online')).toHaveLength(1);
  });
});

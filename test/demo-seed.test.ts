import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/server/db/seed/demo';
import { tickDemoServers } from '../src/server/db/seed/demo-live';

describe('demo seed (SEED_DEMO=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO: '1' } });
  });
  afterAll(() => t.close());

  it('fills about 40 believable servers across the four main games, each with filters and images', async () => {
    const { db } = t.app.ctx;
    const servers = await db.selectFrom('servers').selectAll().execute();
    expect(servers.length).toBeGreaterThanOrEqual(38);
    const games = await db
      .selectFrom('serverFilters')
      .innerJoin('filters', 'filters.id', 'serverFilters.filterId')
      .select('filters.name')
      .distinct()
      .where('filters.name', 'in', ['FiveM (GTA V)', 'RedM (RDR2)', 'Minecraft Java', "Garry's Mod"])
      .execute();
    expect(games).toHaveLength(4);
    for (const server of servers) {
      expect(server.banner).toMatch(/^\/uploads\/banners\/[0-9a-f]{24}\.webp$/);
      expect(server.profilePicture).toMatch(/^\/uploads\/profiles\/[0-9a-f]{24}\.webp$/);
    }
    const banner = path.join(t.dataDir, 'uploads', servers[0]!.banner!.replace('/uploads/', ''));
    const meta = await sharp(fs.readFileSync(banner)).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1200, height: 400 });
    const served = await t.app.inject({ url: servers[0]!.banner! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  it('shows player counts only for servers whose game answered: live ones with a month of history, some not connected', async () => {
    const { db } = t.app.ctx;
    const servers = await db.selectFrom('servers').selectAll().execute();
    const live = servers.filter((s) => s.game !== null);
    const unconnected = servers.filter((s) => s.game === null);
    expect(live.length).toBeGreaterThanOrEqual(25);
    expect(unconnected.length).toBeGreaterThanOrEqual(5);
    for (const s of unconnected) expect(s).toMatchObject({ currentPlayers: 0, online: null, lastPolledAt: null });
    for (const s of live) {
      expect(s.online).toBe(true);
      expect(s.lastPolledAt).not.toBeNull();
      expect(s.gameHost).toMatch(/\.demo\.invalid$/);
    }
    // Their feed is ours: each demo address is a verified claim, so a real listing would have to prove it.
    const claims = await db.selectFrom('gameClaims').select(['serverId', 'status', 'host']).execute();
    expect(claims.map((c) => c.serverId).sort((a, b) => a - b)).toEqual(live.map((s) => s.id).sort((a, b) => a - b));
    expect(claims.every((c) => c.status === 'verified' && c.host.endsWith('.demo.invalid'))).toBe(true);
    const page = (await t.app.inject({ url: `/api/servers/${live[0]!.id}` })).json();
    expect(page.live).toMatchObject({ map: expect.any(String), version: expect.any(String) });
    expect(page.connect.address).toContain('.demo.invalid');
    const history = (await t.app.inject({ url: `/api/servers/${live[0]!.id}/history?range=30d` })).json();
    expect(history.points.length).toBeGreaterThanOrEqual(28);
    const none = (await t.app.inject({ url: `/api/servers/${unconnected[0]!.id}` })).json();
    expect(none).toMatchObject({ live: null, connect: null, online: null, currentPlayers: 0 });
    // Sorting by players puts every not-connected server after every live one with players.
    const byPlayers = (await t.app.inject({ url: '/api/servers?sort=players&limit=100' })).json() as Array<{ online: boolean | null }>;
    const firstUnconnected = byPlayers.findIndex((s) => s.online === null);
    expect(byPlayers.slice(firstUnconnected).every((s) => s.online === null)).toBe(true);
    // The demo feed answers for the demo addresses each minute; the real poller never claims them.
    const later = Date.now() + 5 * 60_000;
    expect(await tickDemoServers(db, later)).toBe(live.length);
    const after = await db.selectFrom('servers').select(['lastPolledAt']).where('id', '=', live[0]!.id).executeTakeFirstOrThrow();
    expect(after.lastPolledAt!.getTime()).toBe(later);
    const due = await db
      .selectFrom('servers')
      .select('id')
      .where('gameHost', 'like', '%.demo.invalid')
      .where('nextPollAt', '<', new Date('9000-01-01'))
      .execute();
    expect(due).toEqual([]);
  });

  it('keeps every counter equal to the rows it counts', async () => {
    const { db } = t.app.ctx;
    const mismatches = await db
      .selectFrom('servers')
      .select(['servers.id', 'servers.likes', 'servers.dislikes', 'servers.totalJoins', 'servers.totalBoosts'])
      .select((eb) => [
        eb
          .selectFrom('votes')
          .select((v) => v.fn.countAll<number>().as('n'))
          .whereRef('votes.serverId', '=', 'servers.id')
          .where('type', '=', 'like')
          .as('likeRows'),
        eb
          .selectFrom('votes')
          .select((v) => v.fn.countAll<number>().as('n'))
          .whereRef('votes.serverId', '=', 'servers.id')
          .where('type', '=', 'dislike')
          .as('dislikeRows'),
        eb
          .selectFrom('joins')
          .select((j) => j.fn.countAll<number>().as('n'))
          .whereRef('joins.serverId', '=', 'servers.id')
          .as('joinRows'),
        eb
          .selectFrom('boosts')
          .select((b) => b.fn.coalesce(b.fn.sum<number>('amount'), b.lit(0)).as('n'))
          .whereRef('boosts.serverId', '=', 'servers.id')
          .as('boostRows'),
      ])
      .execute();
    let likes = 0;
    for (const s of mismatches) {
      expect(s.likes).toBe(Number(s.likeRows));
      expect(s.dislikes).toBe(Number(s.dislikeRows));
      expect(s.totalJoins).toBe(Number(s.joinRows));
      expect(s.totalBoosts).toBe(Number(s.boostRows));
      likes += s.likes;
    }
    expect(likes).toBeGreaterThan(200);
    const reviews = await db.selectFrom('votes').select('id').where('review', 'is not', null).execute();
    expect(reviews.length).toBeGreaterThan(50);
  });

  it('backs every view counter with its view rows', async () => {
    const { db } = t.app.ctx;
    const servers = await db
      .selectFrom('servers')
      .select((eb) => [
        'views',
        eb
          .selectFrom('serverViews')
          .select((v) => v.fn.countAll<number>().as('n'))
          .whereRef('serverViews.serverId', '=', 'servers.id')
          .as('viewRows'),
      ])
      .execute();
    expect(servers.length).toBeGreaterThan(30);
    for (const s of servers) expect(s.views).toBe(Number(s.viewRows));
    expect(servers.some((s) => s.views > 0)).toBe(true);
  });

  it('has servers that joined within the last day, and a live total', async () => {
    const recent = await t.app.ctx.db
      .selectFrom('servers')
      .select('id')
      .where('createdAt', '>', new Date(Date.now() - 24 * 3600_000))
      .execute();
    expect(recent.length).toBeGreaterThanOrEqual(3);
    const count = (await t.app.inject({ url: '/api/player-count' })).json().count as number;
    expect(count).toBeGreaterThan(100);
  });

  it('lets the demo accounts log in, the owner seeing the three servers it owns', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: DEMO_ACCOUNTS.owner, password: DEMO_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ role: 'server_owner', subscriptionPlan: 'Premium' });
    const mine = await t.app.inject({ url: '/api/user/servers', headers: { authorization: `Bearer ${login.json().token}` } });
    expect(mine.json()).toHaveLength(3);
    const player = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: DEMO_ACCOUNTS.player, password: DEMO_PASSWORD },
    });
    expect(player.json().user.role).toBe('player');
  });

  it('runs once: a second start on the same database adds nothing', async () => {
    const before = await t.app.ctx.db
      .selectFrom('servers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const { seedDemo } = await import('../src/server/db/seed/demo');
    await seedDemo(t.app.ctx.db, t.app.ctx.storage, t.app.log);
    const after = await t.app.ctx.db
      .selectFrom('servers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

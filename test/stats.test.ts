import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';

let t: TestApp;
const NOW = new Date('2026-11-22T12:00:00Z');
beforeAll(async () => {
  t = await createTestApp({ build: { now: () => NOW } });
});
afterAll(() => t.close());

describe('owner stats per day (/stats)', () => {
  it('counts views, counted joins, likes, dislikes and boosts per UTC day, held and voided apart, every day present, with totals', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const players = await Promise.all(Array.from({ length: 7 }, () => createUser(t.app)));
    const db = t.app.ctx.db;
    const day = (offset: number, hour = 10) => new Date(Date.UTC(2026, 10, 22 - offset, hour));
    await db
      .insertInto('joins')
      .values([
        { userId: players[0]!.row.id, serverId: server.id, createdAt: day(0) },
        { userId: players[1]!.row.id, serverId: server.id, createdAt: day(2, 23) },
        { userId: players[2]!.row.id, serverId: server.id, createdAt: day(10) },
      ])
      .execute();
    await db
      .insertInto('votes')
      .values([
        { userId: players[0]!.row.id, serverId: server.id, type: 'like', createdAt: day(0) },
        { userId: players[1]!.row.id, serverId: server.id, type: 'dislike', createdAt: day(6) },
        { userId: players[3]!.row.id, serverId: server.id, type: 'like', createdAt: day(40) },
        // Held and voided votes count in no like or dislike: they show apart, on their day.
        { userId: players[4]!.row.id, serverId: server.id, type: 'like', createdAt: day(0), status: 'held' },
        { userId: players[5]!.row.id, serverId: server.id, type: 'like', createdAt: day(0), status: 'voided' },
      ])
      .execute();
    await db
      .insertInto('joins')
      .values({ userId: players[6]!.row.id, serverId: server.id, createdAt: day(1), status: 'voided' })
      .execute();
    await db
      .insertInto('dailyVotes')
      .values({ userId: players[6]!.row.id, serverId: server.id, createdAt: day(1), status: 'held' })
      .execute();
    await db
      .insertInto('boosts')
      .values([
        { serverId: server.id, userId: players[0]!.row.id, source: 'player', amount: 1, createdAt: day(1) },
        { serverId: server.id, userId: null, source: 'owner', amount: 25, createdAt: day(1) },
        { serverId: server.id, userId: null, source: 'owner', amount: 10, createdAt: day(1), revokedAt: day(0) },
      ])
      .execute();
    await db
      .insertInto('serverViews')
      .values([
        { serverId: server.id, viewer: 'a', day: '2026-11-22' },
        { serverId: server.id, viewer: 'b', day: '2026-11-22' },
        { serverId: server.id, viewer: 'a', day: '2026-11-16' },
      ])
      .execute();

    const week = await t.app.inject({ url: `/api/stats/servers/${server.id}?days=7`, headers: owner.headers });
    expect(week.statusCode).toBe(200);
    const body = week.json();
    expect(body.days).toHaveLength(7);
    expect(body.days[0].day).toBe('2026-11-16');
    expect(body.days[6]).toEqual({ day: '2026-11-22', views: 2, joins: 1, likes: 1, dislikes: 0, boosts: 0, held: 1, voided: 1 });
    expect(body.days[5]).toEqual({ day: '2026-11-21', views: 0, joins: 0, likes: 0, dislikes: 0, boosts: 26, held: 1, voided: 1 });
    expect(body.days[4].joins).toBe(1);
    expect(body.days[0]).toMatchObject({ views: 1, dislikes: 1 });
    expect(body.totals).toEqual({ views: 3, joins: 2, likes: 1, dislikes: 1, boosts: 26, held: 2, voided: 2 });

    const month = (await t.app.inject({ url: `/api/stats/servers/${server.id}?days=30`, headers: owner.headers })).json();
    expect(month.days).toHaveLength(30);
    expect(month.totals).toMatchObject({ joins: 3, likes: 1 });
  });

  it('is for the owner only, and for 7 or 30 days', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const other = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    expect((await t.app.inject({ url: `/api/stats/servers/${server.id}`, headers: other.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/stats/servers/${server.id}`, headers: (await createUser(t.app)).headers })).statusCode).toBe(
      403,
    );
    expect((await t.app.inject({ url: `/api/stats/servers/${server.id}` })).statusCode).toBe(401);
    const bad = await t.app.inject({ url: `/api/stats/servers/${server.id}?days=9`, headers: owner.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'days must be 7 or 30' });
    expect((await t.app.inject({ url: `/api/stats/servers/999999`, headers: owner.headers })).statusCode).toBe(404);
  });
});

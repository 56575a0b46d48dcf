import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { monthRange } from '../src/server/modules/daily-votes/daily-votes.service';

describe('daily votes', () => {
  let t: TestApp;
  let clock: Date | undefined;
  let owner: TestUser;
  let serverId: number;
  beforeAll(async () => {
    t = await createTestApp({ build: { now: () => clock ?? new Date() } });
    owner = await createUser(t.app, { role: 'server_owner' });
    serverId = (await createServer(t.app, owner.row.id, { name: 'Daily Vote Harbour' })).id;
  });
  afterAll(() => t?.close());

  const vote = (user: TestUser, id = serverId, payload: unknown = {}) =>
    t.app.inject({ method: 'POST', url: `/api/servers/${id}/vote`, headers: user.headers, payload: payload as object });

  it('counts one vote per player and server every 24 hours, and says when the next one is possible', async () => {
    clock = new Date('2026-11-10T12:00:00Z');
    const player = await createUser(t.app);
    const first = await vote(player, serverId, { playerName: 'Steve_01' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      month: '2026-11',
      monthVotes: 1,
      votedAt: '2026-11-10T12:00:00.000Z',
      nextVoteAt: '2026-11-11T12:00:00.000Z',
      status: 'counted',
    });
    clock = new Date('2026-11-11T06:48:00Z');
    const again = await vote(player);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('You already voted for this server today. You can vote again in 5 h 12 min.');
    expect(again.headers['retry-after']).toBe(String(5 * 3600 + 12 * 60));
    expect((await t.app.inject({ url: `/api/servers/${serverId}/vote`, headers: player.headers })).json()).toMatchObject({
      monthVotes: 1,
      nextVoteAt: '2026-11-11T12:00:00.000Z',
    });
    clock = new Date('2026-11-11T12:00:00Z');
    expect((await vote(player)).json()).toMatchObject({ monthVotes: 2, status: 'counted' });
    const row = await t.app.ctx.db
      .selectFrom('dailyVotes')
      .select(['playerName', 'network'])
      .where('userId', '=', player.row.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(row.playerName).toBe('Steve_01');
    expect(row.network).toBeTruthy();
    expect((await t.app.inject({ url: `/api/servers/${serverId}` })).json().monthVotes).toBe(2);
  });

  it('counts a burst of the same vote once', async () => {
    clock = new Date('2026-11-12T09:00:00Z');
    const player = await createUser(t.app);
    const answers = await Promise.all(Array.from({ length: 20 }, () => vote(player)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(19);
    const rows = await t.app.ctx.db.selectFrom('dailyVotes').select('id').where('userId', '=', player.row.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses the owner, hidden and missing servers, strangers and bad names', async () => {
    clock = new Date('2026-11-12T10:00:00Z');
    const player = await createUser(t.app);
    expect((await vote(owner)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/vote`, payload: {} })).statusCode).toBe(401);
    expect((await vote(player, 999_999)).statusCode).toBe(404);
    for (const playerName of ['<script>', 'x'.repeat(33), 'a;b']) {
      const res = await vote(player, serverId, { playerName });
      expect(res.statusCode, playerName).toBe(400);
    }
    const hidden = await createServer(t.app, owner.row.id, { name: 'Hidden Daily' });
    await t.app.ctx.db.updateTable('servers').set({ hidden: true }).where('id', '=', hidden.id).execute();
    expect((await vote(player, hidden.id)).statusCode).toBe(404);
  });

  it('ranks the month by votes, starts again on the 1st and keeps past months', async () => {
    clock = new Date('2026-11-20T10:00:00Z');
    const other = await createServer(t.app, owner.row.id, { name: 'Daily Vote Rival' });
    for (let i = 0; i < 4; i++) expect((await vote(await createUser(t.app), other.id)).statusCode).toBe(200);
    const november = (await t.app.inject({ url: '/api/rankings/votes?month=2026-11' })).json();
    expect(november.servers.slice(0, 2).map((s: { id: string; votes: number }) => [Number(s.id), s.votes])).toEqual([
      [other.id, 4],
      [serverId, 3],
    ]);
    const sorted = (await t.app.inject({ url: '/api/servers?sort=votes&limit=2' })).json();
    expect(sorted.map((s: { id: string }) => Number(s.id))).toEqual([other.id, serverId]);

    // December: every counter starts again; November stays as it was, counted from its votes.
    clock = new Date('2026-12-01T00:30:00Z');
    await t.app.ctx.dailyVotes.ranking(undefined, 10);
    expect((await vote(await createUser(t.app))).json()).toMatchObject({ month: '2026-12', monthVotes: 1 });
    const december = (await t.app.inject({ url: '/api/rankings/votes' })).json();
    expect(december).toEqual({ month: '2026-12', servers: [expect.objectContaining({ id: String(serverId), votes: 1, position: 1 })] });
    expect((await t.app.inject({ url: '/api/rankings/votes?month=2026-11' })).json()).toEqual(november);
    expect((await t.app.inject({ url: '/api/rankings/votes?month=2026-13' })).statusCode).toBe(400);
    // The year 0000 is ISO (1 BC) but no date the database holds: a 400, never a 500.
    for (const month of ['0000-01', '0000-12'])
      expect((await t.app.inject({ url: `/api/rankings/votes?month=${month}` })).json()).toMatchObject({
        error: 'month must look like 2026-11',
      });
    expect((await t.app.inject({ url: '/api/rankings/votes?month=0001-01' })).json()).toEqual({ month: '0001-01', servers: [] });
    // A month of the years 0001–0099 is that month, not one of the 1900s.
    expect(monthRange('0050-12')).toEqual({ from: new Date('0050-12-01T00:00:00Z'), to: new Date('0051-01-01T00:00:00Z') });
    expect(monthRange('2026-12')).toEqual({ from: new Date('2026-12-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') });
  });

  it('shows the owner votes per day, and only the owner', async () => {
    const res = await t.app.inject({ url: `/api/servers/${serverId}/votes/daily`, headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(expect.arrayContaining([{ day: '2026-11-10', counted: 1, held: 0, voided: 0 }]));
    expect(
      (await t.app.inject({ url: `/api/servers/${serverId}/votes/daily`, headers: (await createUser(t.app)).headers })).statusCode,
    ).toBe(403);
  });
});

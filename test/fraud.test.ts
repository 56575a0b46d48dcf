import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { startSmtpServer } from './helpers/smtp';
import { registerAndConfirm } from './helpers/confirmed-accounts';
import { checkCounters } from './hardening/helpers/counters';

describe('fraud review', () => {
  let t: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let botted: number;
  let honest: number;
  const bots: Array<{ id: string; headers: Record<string, string> }> = [];
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    admin = await createUser(t.app, { role: 'admin' });
    owner = await createUser(t.app, { role: 'server_owner' });
    botted = (await createServer(t.app, owner.row.id, { name: 'Botted Bay' })).id;
    honest = (await createServer(t.app, owner.row.id, { name: 'Honest Harbor' })).id;
    // A burst of fresh accounts registered (and confirmed, each with a mailbox of its own) from
    // one network, each liking the same server.
    for (let i = 0; i < 12; i++) {
      const { id, headers } = await registerAndConfirm(t.app, smtp);
      bots.push({ id, headers });
      expect((await t.app.inject({ method: 'POST', url: `/api/servers/${botted}/like`, headers })).statusCode).toBe(200);
    }
    // Real players: accounts months old, each from its own network.
    for (let i = 0; i < 6; i++) {
      const player = await createUser(t.app);
      await t.app.ctx.db
        .updateTable('users')
        .set({ createdAt: new Date(Date.now() - 90 * 24 * 3600_000) })
        .where('id', '=', player.row.id)
        .execute();
      await t.app.ctx.db
        .insertInto('votes')
        .values({ userId: player.row.id, serverId: honest, type: 'like', network: `198.51.${i}.0/24` })
        .execute();
    }
    await t.app.ctx.db.updateTable('servers').set({ likes: 6 }).where('id', '=', honest).execute();
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const counters = async (id: number) =>
    t.app.ctx.db.selectFrom('servers').select(['likes', 'dislikes', 'totalJoins']).where('id', '=', id).executeTakeFirstOrThrow();

  it('ranks servers whose last day looks made, with the evidence, for admins only', async () => {
    expect((await counters(botted)).likes).toBe(12);
    const res = await t.app.inject({ url: '/api/admin/fraud', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const suspects = res.json();
    expect(suspects[0]).toMatchObject({ server: { id: String(botted), name: 'Botted Bay' }, rows: 12, burstAccounts: 12, youngShare: 1 });
    expect(suspects[0].topNetwork).toEqual({ network: '127.0.0.0/24', rows: 12 });
    expect(suspects[0].score).toBeGreaterThanOrEqual(80);
    expect(suspects.map((s: { server: { id: string } }) => s.server.id)).not.toContain(String(honest));

    const evidence = (await t.app.inject({ url: `/api/admin/fraud/servers/${botted}`, headers: admin.headers })).json();
    expect(evidence).toHaveLength(12);
    expect(evidence[0]).toMatchObject({
      kind: 'vote',
      type: 'like',
      network: '127.0.0.0/24',
      status: 'counted',
      account: { registeredNetwork: '127.0.0.0/24' },
    });

    for (const user of [owner, await createUser(t.app)]) {
      expect((await t.app.inject({ url: '/api/admin/fraud', headers: user.headers })).statusCode).toBe(403);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/admin/fraud/actions',
            headers: user.headers,
            payload: { action: 'void', accountIds: [bots[0]!.id] },
          })
        ).statusCode,
      ).toBe(403);
    }
    expect((await t.app.inject({ url: '/api/admin/fraud' })).statusCode).toBe(401);
  });

  it('voids a cluster of accounts in one action: counters follow, rows stay as a trace, the owner is told', async () => {
    const before = (await t.app.inject({ url: '/api/servers?sort=likes&limit=50' })).json().map((s: { id: string }) => s.id);
    expect(before.indexOf(String(botted))).toBeLessThan(before.indexOf(String(honest)));

    const act = (payload: object) => t.app.inject({ method: 'POST', url: '/api/admin/fraud/actions', headers: admin.headers, payload });
    const res = await act({ action: 'void', accountIds: bots.map((b) => b.id), reason: 'registration burst' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ votes: 12, joins: 0, dailyVotes: 0, servers: [String(botted)] });
    expect(await counters(botted)).toMatchObject({ likes: 0 });
    const rows = await t.app.ctx.db.selectFrom('votes').select(['status']).where('serverId', '=', botted).execute();
    expect(rows).toHaveLength(12);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['voided']));
    const audit = await t.app.ctx.db.selectFrom('fraudActions').selectAll().executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ adminId: admin.row.id, action: 'void', reason: 'registration burst' });
    expect(audit.voteIds.map(Number)).toHaveLength(12);
    const inbox = (await t.app.inject({ url: '/api/notifications', headers: owner.headers })).json();
    expect(inbox.map((n: { title: string }) => n.title)).toContain('Votes removed from Botted Bay');

    const after = (await t.app.inject({ url: '/api/servers?sort=likes&limit=50' })).json().map((s: { id: string }) => s.id);
    expect(after.indexOf(String(honest))).toBeLessThan(after.indexOf(String(botted)));
    // Again: nothing left to void, nothing changes.
    expect((await act({ action: 'void', accountIds: bots.map((b) => b.id) })).json()).toEqual({
      votes: 0,
      joins: 0,
      dailyVotes: 0,
      servers: [],
    });
    expect((await act({ action: 'void' })).statusCode).toBe(400);
  });

  it('releases held votes into the counters, and only held ones', async () => {
    const player = await createUser(t.app);
    const held = await t.app.ctx.db
      .insertInto('votes')
      .values({ userId: player.row.id, serverId: honest, type: 'dislike', status: 'held', network: '203.0.113.0/24' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/fraud/actions',
      headers: admin.headers,
      payload: { action: 'release', voteIds: [String(held.id)] },
    });
    expect(res.json()).toEqual({ votes: 1, joins: 0, dailyVotes: 0, servers: [String(honest)] });
    expect(await counters(honest)).toMatchObject({ likes: 6, dislikes: 1 });
    // Voided votes are never released.
    const voided = await t.app.ctx.db.selectFrom('votes').select('id').where('serverId', '=', botted).limit(1).executeTakeFirstOrThrow();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/fraud/actions',
          headers: admin.headers,
          payload: { action: 'release', voteIds: [String(voided.id)] },
        })
      ).json().votes,
    ).toBe(0);
    const mismatch = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM servers s WHERE s.likes <> (SELECT count(*) FROM votes v WHERE v.server_id = s.id AND v.type = 'like' AND v.status = 'counted')`.execute(
      t.app.ctx.db,
    );
    expect(mismatch.rows[0]!.n).toBe(0);
  });

  it('reviews daily votes too: held ones listed as evidence, released into the month’s votes and rewarded, voided out of them', async () => {
    const server = (await createServer(t.app, owner.row.id, { name: 'Daily Dunes' })).id;
    await t.app.ctx.db
      .insertInto('rewardTargets')
      .values({ serverId: server, webhookUrl: 'https://rewards.example.invalid/hook', webhookSecret: 'whsec_test', updatedAt: new Date() })
      .execute();
    const monthVotes = async () =>
      (await t.app.ctx.db.selectFrom('servers').select('monthVotes').where('id', '=', server).executeTakeFirstOrThrow()).monthVotes;
    const rewardsFor = async (ids: number[]) =>
      t.app.ctx.db.selectFrom('rewardDeliveries').select('dailyVoteId').where('dailyVoteId', 'in', ids).execute();

    // Fresh accounts of one registration burst vote from one network: two count, two are held
    // (as the hold rules store them; the rules themselves are tested with the vote bot).
    const voters: TestUser[] = [];
    for (let i = 0; i < 4; i++) {
      const voter = await createUser(t.app);
      await t.app.ctx.db
        .updateTable('users')
        .set({ createdAt: new Date(Date.now() - 3 * 60_000), registeredNetwork: '192.0.2.0/24' })
        .where('id', '=', voter.row.id)
        .execute();
      voters.push(voter);
      if (i < 2) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/servers/${server}/vote`,
          headers: voter.headers,
          remoteAddress: `192.0.2.${10 + i}`,
          payload: { playerName: `Miner${i}` },
        });
        expect(res.statusCode, res.body).toBe(200);
      } else {
        await t.app.ctx.db
          .insertInto('dailyVotes')
          .values({ userId: voter.row.id, serverId: server, playerName: `Miner${i}`, network: '192.0.2.0/24', status: 'held' })
          .execute();
      }
    }
    const rows = await t.app.ctx.db
      .selectFrom('dailyVotes')
      .select(['id', 'status'])
      .where('serverId', '=', server)
      .orderBy('id')
      .execute();
    const held = rows.filter((r) => r.status === 'held').map((r) => Number(r.id));
    const counted = rows.filter((r) => r.status === 'counted').map((r) => Number(r.id));
    expect([held.length, counted.length]).toEqual([2, 2]);
    expect(await monthVotes()).toBe(2);
    await expect.poll(async () => (await rewardsFor(counted)).length).toBe(2);
    expect(await rewardsFor(held)).toEqual([]);

    const evidence = (await t.app.inject({ url: `/api/admin/fraud/servers/${server}`, headers: admin.headers })).json();
    expect(evidence.filter((e: { kind: string }) => e.kind === 'dailyVote')).toHaveLength(4);
    expect(evidence.find((e: { id: string }) => e.id === String(held[0]))).toMatchObject({ kind: 'dailyVote', status: 'held', type: null });

    const act = (payload: object) => t.app.inject({ method: 'POST', url: '/api/admin/fraud/actions', headers: admin.headers, payload });
    const released = await act({ action: 'release', dailyVoteIds: held.map(String) });
    expect(released.json()).toEqual({ votes: 0, joins: 0, dailyVotes: held.length, servers: [String(server)] });
    expect(await monthVotes()).toBe(4);
    // A released vote earns its in-game reward as any counted vote does.
    await expect.poll(async () => (await rewardsFor(held)).map((r) => Number(r.dailyVoteId)).sort((a, b) => a - b)).toEqual(held);
    // Released twice: nothing moves, no second reward.
    expect((await act({ action: 'release', dailyVoteIds: held.map(String) })).json().dailyVotes).toBe(0);

    // Voiding the cluster's accounts takes every one of their daily votes out of the month.
    const voided = await act({ action: 'void', accountIds: voters.map((v) => String(v.row.id)), reason: 'vote ring' });
    expect(voided.json()).toMatchObject({ dailyVotes: 4, servers: [String(server)] });
    expect(await monthVotes()).toBe(0);
    const audit = await t.app.ctx.db.selectFrom('fraudActions').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.dailyVoteIds.map(Number).sort((a, b) => a - b)).toEqual(rows.map((r) => Number(r.id)));
    const page = (await t.app.inject({ url: `/api/servers/${server}` })).json();
    expect(page.monthVotes).toBe(0);
    expect((await rewardsFor(held)).length).toBe(held.length);
    expect(await checkCounters(t.app.ctx.db)).toEqual([]);
  });
});

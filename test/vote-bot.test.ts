import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HOLD_RULES } from '../src/server/modules/servers';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD, uniqueName, type TestUser } from './helpers/factories';
import { startSmtpServer } from './helpers/smtp';
import { registerAndConfirm } from './helpers/confirmed-accounts';

type Headers = { authorization: string };

/**
 * A scripted vote-bot against the real rules: accounts that never confirmed an address, a burst of
 * confirmed accounts registered minutes ago from one network, old accounts all voting from one
 * network, a hundred repeats in a minute, reviews without a join, views with rotating User-Agents.
 * Every attempt is refused or held, nothing the bot did is counted, and no ranking moves.
 */
describe('a vote-bot', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let target: number;
  const tally = { attempts: 0, refused: 0, held: 0, counted: 0 };
  /** Every account the bot used, to read at the end what became of its rows. */
  const botIds: number[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      env: { SMTP_URL: smtp.url },
      build: { holdRules: DEFAULT_HOLD_RULES, counting: { viewsPerNetworkHour: 120, searchesPerNetworkHour: 60, flushMs: 0 } },
    });
    const owner = await createUser(t.app, { role: 'server_owner' });
    // An honest field: ten servers with likes from real players over time.
    for (let i = 0; i < 10; i++) {
      const s = await createServer(t.app, owner.row.id, { name: `Honest ${i}` });
      await t.app.ctx.db
        .updateTable('servers')
        .set({ likes: 50 - i, totalJoins: 20 })
        .where('id', '=', s.id)
        .execute();
    }
    target = (await createServer(t.app, (await createUser(t.app, { role: 'server_owner' })).row.id, { name: 'Bot Target' })).id;
  });
  afterAll(async () => {
    console.log(`\nvote-bot: ${tally.attempts} attempts, ${tally.refused} refused, ${tally.held} held, ${tally.counted} counted\n`);
    await t?.close();
    await smtp?.close();
  });

  const rankings = async () => ({
    top10: (await t.app.inject({ url: '/api/servers?sort=likes&limit=10' })).json().map((s: { id: string }) => s.id),
    popular: (await t.app.inject({ url: '/api/servers?sort=popular&limit=10' })).json().map((s: { id: string }) => s.id),
    hot: (await t.app.inject({ url: '/api/servers?sort=hot&limit=10' })).json().map((s: { id: string }) => s.id),
    votes: (await t.app.inject({ url: '/api/rankings/votes' })).json().servers.map((s: { id: string }) => s.id),
  });
  const counters = () =>
    t.app.ctx.db
      .selectFrom('servers')
      .select(['likes', 'dislikes', 'totalJoins', 'monthVotes', 'views'])
      .where('id', '=', target)
      .executeTakeFirstOrThrow();

  /** One bot action: refused ones are tallied now; stored ones at the end, by what their rows became. */
  const attempt = async (headers: Headers, action: 'like' | 'join' | 'vote', review?: string) => {
    tally.attempts++;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/servers/${target}/${action}`,
      headers,
      payload: action === 'vote' ? { playerName: 'bot' } : review ? { review } : {},
    });
    if (res.statusCode >= 400) tally.refused++;
    return res;
  };

  it('refuses accounts without a confirmed address, disposable addresses and a second account per mailbox', async () => {
    const before = await counters();
    for (let i = 0; i < 5; i++) {
      const email = i % 2 ? `bot${i}.${process.pid}@mail.example.com` : undefined;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: uniqueName('bot'), password: TEST_PASSWORD, role: 'player', email },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().user.emailConfirmed).toBe(false);
      botIds.push(Number(res.json().user.id));
      for (const action of ['like', 'join', 'vote'] as const) {
        const refused = await attempt({ authorization: `Bearer ${res.json().token}` }, action);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error).toBe(
          'Confirm your e-mail address to join, vote or review: open the link we sent you, or send it again.',
        );
      }
    }
    for (const email of ['bot@mailinator.com', 'bot@guerrillamail.com', 'bot@10minutemail.com']) {
      tally.attempts++;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: uniqueName('bot'), password: TEST_PASSWORD, role: 'player', email },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Disposable e-mail addresses are not accepted. Please use your own address.');
      tally.refused++;
    }
    const first = await registerAndConfirm(t.app, smtp, { email: `jo.bot.${process.pid}@gmail.com` });
    botIds.push(Number(first.id));
    for (const spelling of [
      `JO.BOT.${process.pid}@gmail.com`,
      `jobot${process.pid}+2@googlemail.com`,
      `j.o.bot.${process.pid}@GMAIL.com`,
    ]) {
      tally.attempts++;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: uniqueName('bot'), password: TEST_PASSWORD, role: 'player', email: spelling },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('This e-mail address is already used by another account.');
      tally.refused++;
    }
    expect(await counters()).toEqual(before);
  });

  it('holds a burst of confirmed accounts made minutes ago on one network, and what its first accounts gave', async () => {
    const before = await rankings();
    for (let i = 0; i < 15; i++) {
      const bot = await registerAndConfirm(t.app, smtp);
      botIds.push(Number(bot.id));
      await attempt(bot.headers, 'like', i % 3 === 0 ? 'Best server ever, join now!!!' : undefined);
      await attempt(bot.headers, 'join');
      await attempt(bot.headers, 'vote');
    }
    const after = await counters();
    expect({ likes: after.likes, totalJoins: after.totalJoins, monthVotes: after.monthVotes }).toEqual({
      likes: 0,
      totalJoins: 0,
      monthVotes: 0,
    });
    expect(await rankings()).toEqual(before);
  });

  it('refuses a hundred repeats in a minute', async () => {
    const bot = await registerAndConfirm(t.app, smtp);
    botIds.push(Number(bot.id));
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await attempt(bot.headers, i % 2 ? 'like' : 'join')).statusCode);
    // The first like and join are stored (and held: the account is part of the burst); the rest are refused.
    expect(statuses.filter((s) => s < 400)).toHaveLength(2);
    expect(statuses.filter((s) => s === 409 || s === 429)).toHaveLength(98);
  });

  it('holds old accounts voting from a network that already gave its share today', async () => {
    const before = await counters();
    for (let i = 0; i < 8; i++) {
      const user: TestUser = await createUser(t.app);
      botIds.push(user.row.id);
      await t.app.ctx.db
        .updateTable('users')
        .set({ createdAt: new Date(Date.now() - 400 * 24 * 3600_000) })
        .where('id', '=', user.row.id)
        .execute();
      await attempt(user.headers, 'like');
    }
    expect((await counters()).likes).toBe(before.likes);
  });

  it('counts only a network’s daily share when its old accounts all vote at the same moment', async () => {
    const crowdTarget = (await createServer(t.app, (await createUser(t.app, { role: 'server_owner' })).row.id, { name: 'Crowd Target' }))
      .id;
    const crowd: TestUser[] = [];
    for (let i = 0; i < 8; i++) {
      const user = await createUser(t.app);
      await t.app.ctx.db
        .updateTable('users')
        .set({ createdAt: new Date(Date.now() - 400 * 24 * 3600_000) })
        .where('id', '=', user.row.id)
        .execute();
      crowd.push(user);
    }
    // Sent together, they arrive in one turn: votes are written in batches, and a batch's rows
    // cannot see each other, so one network's votes on one server must still go one at a time.
    const answers = await Promise.all(
      crowd.map((user) => t.app.inject({ method: 'POST', url: `/api/servers/${crowdTarget}/like`, headers: user.headers })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(crowd.map(() => 200));
    const rows = await t.app.ctx.db.selectFrom('votes').select('status').where('serverId', '=', crowdTarget).execute();
    expect(rows.filter((r) => r.status === 'counted')).toHaveLength(DEFAULT_HOLD_RULES.sameNetworkPerDay);
    expect(rows.filter((r) => r.status === 'held')).toHaveLength(8 - DEFAULT_HOLD_RULES.sameNetworkPerDay);
    const server = await t.app.ctx.db.selectFrom('servers').select('likes').where('id', '=', crowdTarget).executeTakeFirstOrThrow();
    expect(server.likes).toBe(DEFAULT_HOLD_RULES.sameNetworkPerDay);
  });

  it('counts one view a day for one network, whatever User-Agent it sends; crawlers none', async () => {
    const before = (await counters()).views;
    for (let i = 0; i < 30; i++) {
      const ua =
        i % 3 === 0 ? 'Googlebot/2.1 (+http://www.google.com/bot.html)' : `Mozilla/5.0 (X11; Linux x86_64) Chrome/${100 + i}.0.${i}`;
      expect(
        (await t.app.inject({ url: `/api/servers/${target}`, headers: { 'user-agent': ua }, remoteAddress: '203.0.113.7' })).statusCode,
      ).toBe(200);
    }
    await t.app.ctx.discovery.flushCounts();
    // The first view from this network counts (a person may look); the 29 others nowhere.
    expect((await counters()).views).toBe(before + 1);
  });

  it('left nothing counted from any vote, join or daily vote of the bot', async () => {
    const rows = async (table: 'votes' | 'joins' | 'dailyVotes') =>
      t.app.ctx.db.selectFrom(table).select('status').where('userId', 'in', botIds).where('serverId', '=', target).execute();
    const all = [...(await rows('votes')), ...(await rows('joins')), ...(await rows('dailyVotes'))];
    const counted = all.filter((r) => r.status === 'counted').length;
    tally.held += all.filter((r) => r.status === 'held').length;
    tally.counted += counted;
    expect(counted).toBe(0);
    const now = await counters();
    expect({ likes: now.likes, totalJoins: now.totalJoins, monthVotes: now.monthVotes }).toEqual({
      likes: 0,
      totalJoins: 0,
      monthVotes: 0,
    });
  });

  it('never holds a player from a network of their own', async () => {
    const player = await createUser(t.app);
    const other = await createServer(t.app, (await createUser(t.app, { role: 'server_owner' })).row.id, { name: 'Quiet Server' });
    const res = await t.app.inject({ method: 'POST', url: `/api/servers/${other.id}/like`, headers: player.headers });
    expect(res.json().likes).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HOLD_RULES } from '../src/server/modules/servers';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD, uniqueName, type TestUser } from './helpers/factories';

/**
 * A scripted vote-bot against the real hold rules: fresh accounts registered in a burst from one
 * network, and old accounts all voting from one network. Past each network's small daily share,
 * every attempt is held, and the rankings do not move.
 */
describe('a vote-bot', () => {
  let t: TestApp;
  let target: number;
  const tally = { attempts: 0, refused: 0, held: 0, counted: 0 };

  beforeAll(async () => {
    t = await createTestApp({ build: { holdRules: DEFAULT_HOLD_RULES } });
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
  afterAll(() => {
    console.log(`\nvote-bot: ${tally.attempts} attempts, ${tally.refused} refused, ${tally.held} held, ${tally.counted} counted\n`);
    return t?.close();
  });

  const rankings = async () => ({
    top10: (await t.app.inject({ url: '/api/servers?sort=likes&limit=10' })).json().map((s: { id: string }) => s.id),
    popular: (await t.app.inject({ url: '/api/servers?sort=popular&limit=10' })).json().map((s: { id: string }) => s.id),
    votes: (await t.app.inject({ url: '/api/rankings/votes' })).json().servers.map((s: { id: string }) => s.id),
  });
  const counters = () =>
    t.app.ctx.db
      .selectFrom('servers')
      .select(['likes', 'dislikes', 'totalJoins', 'monthVotes'])
      .where('id', '=', target)
      .executeTakeFirstOrThrow();

  /** One bot action; counts what happened to it. */
  const attempt = async (user: TestUser, action: 'like' | 'join' | 'vote') => {
    tally.attempts++;
    const before = await counters();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/servers/${target}/${action}`,
      headers: user.headers,
      payload: action === 'vote' ? { playerName: 'bot' } : {},
    });
    if (res.statusCode >= 400) return void tally.refused++;
    const after = await counters();
    const moved = after.likes !== before.likes || after.totalJoins !== before.totalJoins || after.monthVotes !== before.monthVotes;
    if (moved) tally.counted++;
    else tally.held++;
  };

  it('holds a burst of fresh accounts from one network: likes, joins and daily votes', async () => {
    const before = await rankings();
    for (let i = 0; i < 15; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: uniqueName('bot'), password: TEST_PASSWORD, role: 'player' },
      });
      const user = { headers: { authorization: `Bearer ${res.json().token}` } } as TestUser;
      for (const action of ['like', 'join', 'vote'] as const) await attempt(user, action);
    }
    // Until a burst is three accounts old nothing tells it from two friends: at most the network's
    // daily share of each kind counts, everything after is held.
    const cap = DEFAULT_HOLD_RULES.sameNetworkPerDay;
    const after = await counters();
    expect(after.likes).toBeLessThanOrEqual(cap);
    expect(after.totalJoins).toBeLessThanOrEqual(cap);
    expect(after.monthVotes).toBeLessThanOrEqual(cap);
    expect(tally.held).toBeGreaterThanOrEqual(tally.attempts - 3 * cap);
    expect(await rankings()).toMatchObject({ top10: before.top10, popular: before.popular });
    const statuses = await t.app.ctx.db.selectFrom('votes').select('status').where('serverId', '=', target).execute();
    expect(statuses.filter((v) => v.status === 'held')).toHaveLength(15 - after.likes);
  });

  it('holds old accounts voting from a network that already gave its share today', async () => {
    const before = await counters();
    for (let i = 0; i < 8; i++) {
      const user = await createUser(t.app);
      await t.app.ctx.db
        .updateTable('users')
        .set({ createdAt: new Date(Date.now() - 400 * 24 * 3600_000) })
        .where('id', '=', user.row.id)
        .execute();
      await attempt(user, 'like');
    }
    expect((await counters()).likes).toBe(before.likes);
    const held = await t.app.ctx.db
      .selectFrom('votes')
      .select('status')
      .where('serverId', '=', target)
      .where('status', '=', 'held')
      .execute();
    expect(held).toHaveLength(15 + 8 - before.likes);
  });

  it('never holds a player from a network of their own', async () => {
    const player = await createUser(t.app);
    const other = await createServer(t.app, (await createUser(t.app, { role: 'server_owner' })).row.id, { name: 'Quiet Server' });
    const res = await t.app.inject({ method: 'POST', url: `/api/servers/${other.id}/like`, headers: player.headers });
    expect(res.json().likes).toBe(1);
  });
});

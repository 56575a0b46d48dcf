import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTalliedApp } from './helpers/tallied-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { until } from './helpers/until';

/**
 * What a counted daily vote asks of the database besides its own transaction. During a month-start
 * campaign votes come by the thousand a second, and most servers reward nothing: their votes must
 * not each cost a statement to find that out.
 */
describe('a daily vote’s statements', () => {
  // Caches on, as in production: a held card is what a vote updates.
  const setup = useTalliedApp({ listCacheTtlMs: 60_000 });

  const vote = (user: TestUser, id: number) =>
    setup.t.app.inject({ method: 'POST', url: `/api/servers/${id}/vote`, headers: user.headers, payload: { playerName: 'Steve_01' } });
  const targetReads = () =>
    setup.tally.statements.filter((s) => /reward_?targets/i.test(s) && !/prepared:cast_daily_votes|CREATE FUNCTION/.test(s));

  it('reads no reward targets for a server without any, and still reads them for one with a webhook', async () => {
    const plain = await createServer(setup.t.app, setup.owner.row.id, { name: 'Plain Plains' });
    const rewarding = await createServer(setup.t.app, setup.owner.row.id, { name: 'Rewarding Ridge' });
    await sql`INSERT INTO reward_targets (server_id, webhook_url, webhook_secret, updated_at)
      VALUES (${rewarding.id}, 'https://hooks.example/vote', 'whsec_test', now())`.execute(setup.handle.db);
    const player = await createUser(setup.t.app);

    setup.tally.statements.length = 0;
    expect((await vote(player, plain.id)).json()).toMatchObject({ status: 'counted', monthVotes: 1 });
    // Rewards are looked at after the answer, in vote order: once the second vote's delivery is
    // stored, the first one's lookup would have been seen too.
    expect((await vote(player, rewarding.id)).json()).toMatchObject({ status: 'counted', monthVotes: 1 });
    const delivered = await until(async () => {
      const { rows } = await sql<{ serverId: number }>`SELECT server_id AS "serverId" FROM reward_deliveries`.execute(setup.handle.db);
      return rows.length > 0 && rows;
    });

    expect(delivered.map((r) => Number(r.serverId))).toEqual([rewarding.id]);
    expect(setup.tally.statements.filter((s) => s.includes('prepared:cast_daily_votes'))).toHaveLength(2);
    expect(targetReads(), setup.tally.statements.join(' | ')).toEqual(['SelectQueryNode reward_targets']);
  });

  it('gives the server’s held card the month’s count the vote counted, instead of reading the card again', async () => {
    const server = await createServer(setup.t.app, setup.owner.row.id, { name: 'Counted Coast' });
    // Written past the app: the search index and the cards read it afresh.
    setup.t.app.ctx.discovery.invalidate();
    expect(await setup.t.app.ctx.discovery.whenListsLoaded(10_000)).toBe(true);
    const card = async () => (await setup.t.app.inject({ url: `/api/servers?q=${encodeURIComponent('Counted Coast')}` })).json()[0];
    expect((await card()).monthVotes).toBe(0);
    const player = await createUser(setup.t.app);

    setup.tally.statements.length = 0;
    expect((await vote(player, server.id)).json()).toMatchObject({ status: 'counted', monthVotes: 1 });
    expect((await card()).monthVotes).toBe(1);
    expect(
      setup.tally.statements.filter((s) => s.includes('prepared:cards-by-ids')),
      setup.tally.statements.join(' | '),
    ).toEqual([]);
  });
});

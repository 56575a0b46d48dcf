import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/server/db/database';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { openTestDatabase } from './helpers/test-db';
import { tallied, type Tally } from './helpers/statement-tally';
import { until } from './helpers/until';

/**
 * What a counted daily vote asks of the database besides its own transaction. During a month-start
 * campaign votes come by the thousand a second, and most servers reward nothing: their votes must
 * not each cost a statement to find that out.
 */
describe('a daily vote’s statements', () => {
  let handle: DatabaseHandle;
  const tally: Tally = { statements: [], transactions: 0 };
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    handle = await openTestDatabase();
    // Caches on, as in production: a held card is what a vote updates.
    t = await createTestApp({ build: { database: tallied(handle, tally), listCacheTtlMs: 60_000 } });
    owner = await createUser(t.app, { role: 'server_owner' });
  });
  afterAll(async () => {
    await t?.close();
    await handle?.close();
  });

  const vote = (user: TestUser, id: number) =>
    t.app.inject({ method: 'POST', url: `/api/servers/${id}/vote`, headers: user.headers, payload: { playerName: 'Steve_01' } });
  const targetReads = () =>
    tally.statements.filter((s) => /reward_?targets/i.test(s) && !/prepared:cast_daily_votes|CREATE FUNCTION/.test(s));

  it('reads no reward targets for a server without any, and still reads them for one with a webhook', async () => {
    const plain = await createServer(t.app, owner.row.id, { name: 'Plain Plains' });
    const rewarding = await createServer(t.app, owner.row.id, { name: 'Rewarding Ridge' });
    await sql`INSERT INTO reward_targets (server_id, webhook_url, webhook_secret, updated_at)
      VALUES (${rewarding.id}, 'https://hooks.example/vote', 'whsec_test', now())`.execute(handle.db);
    const player = await createUser(t.app);

    tally.statements.length = 0;
    expect((await vote(player, plain.id)).json()).toMatchObject({ status: 'counted', monthVotes: 1 });
    // Rewards are looked at after the answer, in vote order: once the second vote's delivery is
    // stored, the first one's lookup would have been seen too.
    expect((await vote(player, rewarding.id)).json()).toMatchObject({ status: 'counted', monthVotes: 1 });
    const delivered = await until(async () => {
      const { rows } = await sql<{ serverId: number }>`SELECT server_id AS "serverId" FROM reward_deliveries`.execute(handle.db);
      return rows.length > 0 && rows;
    });

    expect(delivered.map((r) => Number(r.serverId))).toEqual([rewarding.id]);
    expect(tally.statements.filter((s) => s.includes('prepared:cast_daily_votes'))).toHaveLength(2);
    expect(targetReads(), tally.statements.join(' | ')).toEqual(['SelectQueryNode reward_targets']);
  });

  it('gives the server’s held card the month’s count the vote counted, instead of reading the card again', async () => {
    const server = await createServer(t.app, owner.row.id, { name: 'Counted Coast' });
    // Written past the app: the search index and the cards read it afresh.
    t.app.ctx.discovery.invalidate();
    expect(await t.app.ctx.discovery.whenListsLoaded(10_000)).toBe(true);
    const card = async () => (await t.app.inject({ url: `/api/servers?q=${encodeURIComponent('Counted Coast')}` })).json()[0];
    expect((await card()).monthVotes).toBe(0);
    const player = await createUser(t.app);

    tally.statements.length = 0;
    expect((await vote(player, server.id)).json()).toMatchObject({ status: 'counted', monthVotes: 1 });
    expect((await card()).monthVotes).toBe(1);
    expect(
      tally.statements.filter((s) => s.includes('prepared:cards-by-ids')),
      tally.statements.join(' | '),
    ).toEqual([]);
  });
});

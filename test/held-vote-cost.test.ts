import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HOLD_RULES } from '../src/server/modules/servers';
import { useTalliedApp } from './helpers/tallied-app';
import { createServer, createUser, type TestUser } from './helpers/factories';

/**
 * What a held like asks of the database besides its own statement. In a vote campaign a network's
 * third like on a server is held, as often as the likes that count: one held for its network has
 * no registration burst whose earlier votes are to be held with it, and must not cost a statement
 * to find that out, nor a read of the server's card (nothing it shows changed).
 */
describe('a held like’s statements', () => {
  // Caches on, as in production: a held card is what a vote would update.
  const setup = useTalliedApp({ listCacheTtlMs: 60_000, holdRules: DEFAULT_HOLD_RULES });

  /** A player whose account is a year old, as most campaign voters are. */
  const oldPlayer = async (registeredNetwork: string | null = null) => {
    const player = await createUser(setup.t.app);
    await sql`UPDATE users SET created_at = now() - interval '365 days', registered_network = ${registeredNetwork}
      WHERE id = ${player.row.id}`.execute(setup.handle.db);
    return player;
  };
  const like = (player: TestUser, id: number, address: string) =>
    setup.t.app.inject({ method: 'POST', url: `/api/servers/${id}/like`, headers: player.headers, payload: {}, remoteAddress: address });
  const statuses = async (id: number) =>
    (await sql<{ status: string }>`SELECT status FROM votes WHERE server_id = ${id} ORDER BY id`.execute(setup.handle.db)).rows.map(
      (r) => r.status,
    );
  const peerHolds = () => setup.tally.statements.filter((s) => s.startsWith('WITH burst AS'));
  const cardReads = () => setup.tally.statements.filter((s) => s.includes('prepared:cards-by-ids'));

  it('holds a network’s third like with its own statement alone, and reads no card again', async () => {
    const server = await createServer(setup.t.app, setup.owner.row.id, { name: 'Campaign Cove' });
    const players = [await oldPlayer(), await oldPlayer(), await oldPlayer()];
    // Written past the app: the search index and the cards read it afresh.
    setup.t.app.ctx.discovery.invalidate();
    expect(await setup.t.app.ctx.discovery.whenListsLoaded(10_000)).toBe(true);
    for (const player of players.slice(0, 2)) expect((await like(player, server.id, '198.51.100.7')).statusCode).toBeLessThan(300);
    // Its card is held with the two likes that counted.
    const card = async () => (await setup.t.app.inject({ url: `/api/servers?q=${encodeURIComponent('Campaign Cove')}` })).json()[0];
    expect((await card()).likes).toBe(2);

    setup.tally.statements.length = 0;
    expect((await like(players[2]!, server.id, '198.51.100.8')).statusCode).toBeLessThan(300);
    expect(await card()).toMatchObject({ likes: 2 });
    expect(await statuses(server.id)).toEqual(['counted', 'counted', 'held']);
    expect(setup.tally.statements.filter((s) => s.includes('prepared:cast-votes'))).toHaveLength(1);
    expect(peerHolds(), setup.tally.statements.join(' | ')).toEqual([]);
    expect(cardReads(), setup.tally.statements.join(' | ')).toEqual([]);
  });

  it('holds a network’s third join and daily vote without a statement for a burst', async () => {
    const server = await createServer(setup.t.app, setup.owner.row.id, { name: 'Daily Dunes' });
    const players = [await oldPlayer(), await oldPlayer(), await oldPlayer()];
    const act = (player: TestUser, what: 'join' | 'vote', address: string) =>
      setup.t.app.inject({
        method: 'POST',
        url: `/api/servers/${server.id}/${what}`,
        headers: player.headers,
        payload: what === 'vote' ? { playerName: 'Steve_01' } : {},
        remoteAddress: address,
      });
    for (const player of players.slice(0, 2)) {
      expect((await act(player, 'join', '198.51.100.20')).statusCode).toBeLessThan(300);
      expect((await act(player, 'vote', '198.51.100.20')).statusCode).toBeLessThan(300);
    }

    setup.tally.statements.length = 0;
    expect((await act(players[2]!, 'join', '198.51.100.21')).statusCode).toBeLessThan(300);
    expect((await act(players[2]!, 'vote', '198.51.100.21')).json()).toMatchObject({ status: 'held', monthVotes: 2 });
    const held = await sql<{ kind: string }>`SELECT 'join' AS kind FROM joins WHERE server_id = ${server.id} AND status = 'held'
      UNION ALL SELECT 'vote' FROM daily_votes WHERE server_id = ${server.id} AND status = 'held'`.execute(setup.handle.db);
    expect(held.rows.map((r) => r.kind).sort()).toEqual(['join', 'vote']);
    expect(peerHolds(), setup.tally.statements.join(' | ')).toEqual([]);
  });

  it('still holds the earlier likes of a registration burst once its third account’s like is held', async () => {
    const server = await createServer(setup.t.app, setup.owner.row.id, { name: 'Burst Bay' });
    // Accounts registered from one network minutes ago, each liking from a network of its own (only
    // the burst rule can hold them): the first two count; the third makes a burst.
    setup.tally.statements.length = 0;
    for (let i = 0; i < 3; i++) {
      const player = await createUser(setup.t.app);
      await sql`UPDATE users SET created_at = now() - interval '5 minutes', registered_network = '203.0.113.0/24'
        WHERE id = ${player.row.id}`.execute(setup.handle.db);
      expect((await like(player, server.id, `192.0.2.${10 + i}`)).statusCode).toBeLessThan(300);
    }
    expect(await statuses(server.id)).toEqual(['held', 'held', 'held']);
    expect(peerHolds()).toHaveLength(1);
    const { likes } = await setup.t.app.ctx.db.selectFrom('servers').select('likes').where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(likes).toBe(0);
  });
});

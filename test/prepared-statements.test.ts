import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedMarker, type DatabaseHandle } from '../src/server/db/database';
import { dailyVotesRepository } from '../src/server/modules/daily-votes/daily-votes.repository';
import { DEFAULT_HOLD_RULES } from '../src/server/modules/servers';
import { serversRepository } from '../src/server/modules/servers/servers.repository';
import { votesRepository } from '../src/server/modules/servers/votes.repository';
import { usersRepository } from '../src/server/modules/users/users.repository';
import { openOneConnection, openTestDatabase, testDatabaseKind } from './helpers/test-db';

/**
 * The hottest uncached query (a list page's cards) and the batched vote writes run as named
 * prepared statements on PostgreSQL, planned once per connection; the same text works unchanged
 * on the embedded database.
 */
describe('prepared hot queries', () => {
  let test: DatabaseHandle;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(() => test?.close());

  it('answers the cards query the same, on either database', async () => {
    const owner = await test.db
      .insertInto('users')
      .values({ username: `prep${Date.now()}`, passwordHash: 'x', role: 'server_owner' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids = [];
    for (const name of ['Prepared One', 'Prepared Two']) {
      ids.push((await test.db.insertInto('servers').values({ ownerId: owner.id, name }).returning('id').executeTakeFirstOrThrow()).id);
    }
    const repo = serversRepository(test.db);
    for (let i = 0; i < 7; i++) {
      const cards = await repo.cardsByIds(ids, new Date());
      expect(cards.map((c) => c.name).sort()).toEqual(['Prepared One', 'Prepared Two']);
    }
  });

  it.runIf(testDatabaseKind === 'postgres')('is prepared once on its connection, and other queries are not', async () => {
    // One connection, so the statements seen are this test's.
    const one = await openOneConnection(test);
    try {
      const repo = serversRepository(one.db);
      await repo.cardsByIds([1, 2], new Date());
      await repo.cardsByIds([3], new Date());
      const prepared = await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(one.db);
      expect(prepared.rows.map((r) => r.name)).toEqual(['cards-by-ids']);
      expect(prepared.rows[0]!.statement.startsWith(preparedMarker('cards-by-ids'))).toBe(true);
    } finally {
      await one.close();
    }
  });

  it.runIf(testDatabaseKind === 'postgres')('prepares the vote, join and daily vote writes once each', async () => {
    const one = await openOneConnection(test);
    try {
      const owner = await one.db
        .insertInto('users')
        .values({ username: `prepowner${Date.now()}`, passwordHash: 'x', role: 'server_owner' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const server = await one.db
        .insertInto('servers')
        .values({ ownerId: owner.id, name: 'Prepared Votes' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const votes = votesRepository(one.db, DEFAULT_HOLD_RULES);
      const daily = dailyVotesRepository(one.db, DEFAULT_HOLD_RULES);
      for (let i = 0; i < 2; i++) {
        const player = await one.db
          .insertInto('users')
          .values({
            username: `prepvoter${Date.now()}${i}`,
            passwordHash: 'x',
            role: 'player',
            email: `prepvoter${Date.now()}${i}@example.test`,
            emailConfirmedAt: new Date(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const network = `198.51.100.${i}/32`;
        const token = { version: 0, sessionId: null };
        const [cast] = await votes.castVotes(
          [{ userId: player.id, token, serverId: server.id, type: 'like', review: null, network }],
          new Date(),
        );
        expect(typeof cast === 'object' && cast.added).toBe(true);
        const join = await votes.castJoin({ userId: player.id, token, serverId: server.id, network, now: new Date() });
        expect(typeof join === 'object' && join.status).toBe('counted');
        const [dailyVote] = await daily.castDailyVotes(
          [{ userId: player.id, token, serverId: server.id, playerName: null, network }],
          new Date(),
          new Date(Date.now() - 86_400_000),
        );
        expect(typeof dailyVote === 'object' && dailyVote.vote?.status).toBe('counted');
      }
      const counters = await one.db
        .selectFrom('servers')
        .select(['likes', 'totalJoins', 'monthVotes'])
        .where('id', '=', server.id)
        .executeTakeFirstOrThrow();
      expect(counters).toEqual({ likes: 2, totalJoins: 2, monthVotes: 2 });
      const prepared = await sql<{ name: string }>`SELECT name FROM pg_prepared_statements ORDER BY name`.execute(one.db);
      // Daily votes call their function (named by a digest of its text) as a prepared statement.
      expect(prepared.rows.map((r) => r.name.replace(/_[0-9a-f]{12}$/, '_…'))).toEqual(['cast-join', 'cast-votes', 'cast_daily_votes_…']);
    } finally {
      await one.close();
    }
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'prepares the sign-in check with the users’ columns spelled out, so it still answers after a migration adds one',
    async () => {
      const one = await openOneConnection(test);
      try {
        const user = await one.db
          .insertInto('users')
          .values({ username: `prepsignin${Date.now()}`, passwordHash: 'x', role: 'player' })
          .returning('id')
          .executeTakeFirstOrThrow();
        const users = usersRepository(one.db);
        const [found] = await users.findActiveMany([{ id: user.id, sessionId: undefined }]);
        expect(found?.id).toBe(user.id);
        const prepared = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE name = 'active-users'`.execute(
          one.db,
        );
        expect(prepared.rows).toHaveLength(1);
        expect(prepared.rows[0]!.statement).not.toContain('u.*');

        // Another instance's migration, while this one keeps its prepared statement.
        await sql`ALTER TABLE users ADD COLUMN probe_added_later integer`.execute(test.db);
        try {
          const [again] = await users.findActiveMany([{ id: user.id, sessionId: undefined }]);
          expect(again?.id).toBe(user.id);
          expect(again?.username).toBe(found?.username);
        } finally {
          await sql`ALTER TABLE users DROP COLUMN probe_added_later`.execute(test.db);
        }
      } finally {
        await one.close();
      }
    },
  );
});

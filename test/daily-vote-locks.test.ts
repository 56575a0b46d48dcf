import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/server/db/database';
import { dailyVotesRepository } from '../src/server/modules/daily-votes/daily-votes.repository';
import { NO_HOLDS } from '../src/server/modules/servers';
import { openOneConnection, openTestDatabase, testDatabaseKind } from './helpers/test-db';

const DAY_MS = 86_400_000;
const PLAYERS = 40;

/**
 * A daily vote's check ("no vote by this player here in 24 hours") and its write are one call to
 * the database, under the player's and server's lock: two instances given the same vote at the
 * same moment store it once. On PostgreSQL each instance is its own connection here, so the two
 * calls really run at once.
 */
describe('daily votes cast at once by two instances', () => {
  let test: DatabaseHandle;
  let other: DatabaseHandle;
  beforeAll(async () => {
    test = await openTestDatabase();
    other = testDatabaseKind === 'postgres' ? await openOneConnection(test) : test;
  }, 60_000);
  afterAll(async () => {
    if (other !== test) await other?.close();
    await test?.close();
  });

  /** An account whose address is confirmed (the statement stores no vote of any other). */
  const confirmed = (username: string) => ({
    username,
    passwordHash: 'x',
    email: `${username}@example.test`,
    emailConfirmedAt: new Date(),
  });
  /** What the accounts' tokens would say: the first version, no login session. */
  const token = { version: 0, sessionId: null };
  /** A cast answer that is a vote's (not an account's refusal). */
  const castOf = <T>(answer: T | string | undefined): T | undefined => {
    expect(typeof answer, 'the account was accepted').not.toBe('string');
    return answer as T | undefined;
  };

  /** A listed server of a new owner. */
  const insertServer = async (name: string) => {
    const owner = await test.db
      .insertInto('users')
      .values({ ...confirmed(`${name.replace(/\W/g, '').toLowerCase()}${Date.now()}`), role: 'server_owner' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return test.db.insertInto('servers').values({ ownerId: owner.id, name }).returning(['id', 'ownerId']).executeTakeFirstOrThrow();
  };
  const insertPlayers = (prefix: string, count: number) =>
    test.db
      .insertInto('users')
      .values(Array.from({ length: count }, (_, i) => ({ ...confirmed(`${prefix}${Date.now()}_${i}`), role: 'player' as const })))
      .returning('id')
      .execute();

  it('stores each player’s vote once, and answers the other call with that vote’s time', async () => {
    const server = await insertServer('Locked Lagoon');
    const players = await insertPlayers('lockvoter', PLAYERS);
    const instances = [dailyVotesRepository(test.db, NO_HOLDS), dailyVotesRepository(other.db, NO_HOLDS)];

    const answers = await Promise.all(
      players.flatMap(({ id }, i) => {
        const at = new Date();
        const vote = { userId: id, token, serverId: server.id, playerName: null, network: `203.0.${i}.0/24` };
        return instances.map((instance) =>
          instance.castDailyVotes([vote], at, new Date(at.getTime() - DAY_MS)).then(([cast]) => ({ id, cast: castOf(cast) })),
        );
      }),
    );

    for (const { id } of players) {
      const mine = answers.filter((a) => a.id === id).map((a) => a.cast);
      expect(
        mine.filter((c) => c?.vote?.status === 'counted'),
        `player ${id}`,
      ).toHaveLength(1);
      const refused = mine.find((c) => !c?.vote);
      expect(refused?.last, `player ${id}: the refused call knows the stored vote`).toBeInstanceOf(Date);
    }
    const stored = await sql<{ n: number }>`SELECT count(*)::int AS n FROM daily_votes WHERE server_id = ${server.id}`.execute(test.db);
    expect(stored.rows[0]!.n).toBe(PLAYERS);
    const counter = await test.db.selectFrom('servers').select('monthVotes').where('id', '=', server.id).executeTakeFirstOrThrow();
    expect(counter.monthVotes).toBe(PLAYERS);
  });

  it('makes its function again when it was dropped under it (a restore, a reset)', async () => {
    const server = await insertServer('Dropped Dunes');
    const [player] = await insertPlayers('dropvoter', 1);
    const repo = dailyVotesRepository(test.db, NO_HOLDS);
    const cast = (userId: number) =>
      repo
        .castDailyVotes(
          [{ userId, token, serverId: server.id, playerName: null, network: null }],
          new Date(),
          new Date(Date.now() - DAY_MS),
        )
        .then(([answer]) => castOf(answer));
    // The owner's own server: found, nothing stored.
    expect(await cast(server.ownerId)).toMatchObject({ vote: undefined, server: { id: server.id } });

    const { rows } = await sql<{ name: string }>`SELECT proname AS name FROM pg_proc WHERE proname LIKE 'cast_daily_votes_%'`.execute(
      test.db,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { name } of rows) await sql`DROP FUNCTION ${sql.id(name)}`.execute(test.db);

    expect((await cast(player!.id))?.vote?.status).toBe('counted');
  });
});

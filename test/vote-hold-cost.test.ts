import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/server/db/database';
import type { Database } from '../src/server/db/schema';
import { dailyVotesRepository } from '../src/server/modules/daily-votes/daily-votes.repository';
import { DEFAULT_HOLD_RULES } from '../src/server/modules/servers';
import { votesRepository } from '../src/server/modules/servers/votes.repository';
import { openTestDatabase, rowsReadSoFar, testDatabaseKind } from './helpers/test-db';

/**
 * What the hold rules cost a vote on a server that many players voted for today (a vote campaign,
 * a big server's link): counted as rows and index entries read, not timed. The rule counts the
 * server's votes from the voter's network in the last day; read through the server's votes of the
 * day, that count grew with every vote the server got, so the campaign's votes slowed one another.
 */

/** Votes of the day already on the busy server, each from another network. */
const EARLIER = 3000;
/** Servers the month's earlier votes went to. */
const QUIET = 300;
/** New voters per statement. */
const BATCH = 10;
/** Rows and index entries a vote may read: its own lookups, a handful each, never the server's day. */
const PER_VOTE = 40;

class RolledBack extends Error {}

/** Rows read by `cast` in a transaction that is then rolled back (every case starts from the same rows). */
async function rowsReadBy(db: Kysely<Database>, cast: (tx: Kysely<Database>) => Promise<unknown>): Promise<number> {
  let read = 0;
  await db
    .transaction()
    .execute(async (tx) => {
      const before = await rowsReadSoFar(tx);
      await cast(tx);
      read = (await rowsReadSoFar(tx)) - before;
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return read;
}

// PGlite's statistics views count nothing across statements; the plans are PostgreSQL's here.
describe.runIf(testDatabaseKind === 'postgres')('hold rules on a server with many votes today', () => {
  let handle: DatabaseHandle;
  let serverId: number;
  let fresh: number[];

  /** `count` players with confirmed addresses in one statement (no password hashing: they never sign in). */
  async function players(prefix: string, count: number): Promise<number[]> {
    const { rows } = await sql<{ id: number }>`
      INSERT INTO users (username, password_hash, role, created_at, email, email_confirmed_at)
      SELECT ${prefix} || g, 'not-a-hash', 'player', now() - interval '30 days', ${prefix} || g || '@example.test', now() - interval '30 days'
      FROM generate_series(1, ${count}::int) AS g
      RETURNING id`.execute(handle.db);
    return rows.map((r) => Number(r.id));
  }

  beforeAll(async () => {
    handle = await openTestDatabase();
    const [owner] = await players('owner_', 1);
    const busy = await sql<{ id: number }>`INSERT INTO servers (owner_id, name) VALUES (${owner!}, 'Busy City RP') RETURNING id`.execute(
      handle.db,
    );
    serverId = Number(busy.rows[0]!.id);
    const quiet = await sql<{ id: number }>`
      INSERT INTO servers (owner_id, name) SELECT ${owner!}, 'Quiet Valley ' || g FROM generate_series(1, ${QUIET}::int) AS g
      RETURNING id`.execute(handle.db);
    const quietIds = quiet.rows.map((r) => Number(r.id));
    const earlier = await players('earlier_', EARLIER);
    /** One row per earlier player in each table, each from its own network, a few seconds apart from `age` back, on `servers` in turn. */
    const cast = async (servers: number[], age: string) => {
      for (const table of ['votes', 'joins', 'daily_votes'] as const) {
        const type = table === 'votes' ? sql`, type` : sql``;
        const like = table === 'votes' ? sql`, 'like'` : sql``;
        await sql`
          INSERT INTO ${sql.table(table)} (user_id, server_id, network, created_at ${type})
          SELECT e.id, (${servers}::bigint[])[1 + e.n % ${servers.length}::int], '10.' || (e.n / 250) || '.' || (e.n % 250) || '.0/24',
            now() - ${age}::interval - e.n * interval '10 seconds' ${like}
          FROM unnest(${earlier}::bigint[]) WITH ORDINALITY AS e (id, n)`.execute(handle.db);
      }
    };
    // Last month's votes spread over many servers, known to the statistics; then the day's, all on
    // the busy server, not yet known to them.
    await cast(quietIds, '30 days');
    await sql`ANALYZE votes, joins, daily_votes, users, servers`.execute(handle.db);
    await cast([serverId], '0 seconds');
    fresh = await players('fresh_', BATCH);
  }, 60_000);
  afterAll(() => handle?.close());

  const networkOf = (i: number) => `192.0.${i}.0/24`;
  const cases = {
    votes: async (tx: Kysely<Database>) => {
      const token = { version: 0, sessionId: null };
      const cast = await votesRepository(tx, DEFAULT_HOLD_RULES).castVotes(
        fresh.map((userId, i) => ({ userId, token, serverId, type: 'like' as const, review: null, network: networkOf(i) })),
        new Date(),
      );
      // Each went in: the rows counted are an insert's, not a refused voter's.
      expect(cast.map((c) => typeof c === 'object' && c.added)).toEqual(fresh.map(() => true));
    },
    joins: async (tx: Kysely<Database>) => {
      const token = { version: 0, sessionId: null };
      const cast = await Promise.all(
        fresh.map((userId, i) =>
          votesRepository(tx, DEFAULT_HOLD_RULES).castJoin({ userId, token, serverId, network: networkOf(i), now: new Date() }),
        ),
      );
      expect(cast.map((c) => typeof c === 'object' && c.status !== undefined)).toEqual(fresh.map(() => true));
    },
    'daily votes': async (tx: Kysely<Database>) => {
      const cast = await dailyVotesRepository(tx, DEFAULT_HOLD_RULES).castDailyVotes(
        fresh.map((userId, i) => ({ userId, token: { version: 0, sessionId: null }, serverId, playerName: null, network: networkOf(i) })),
        new Date(),
        new Date(Date.now() - 86_400_000),
      );
      expect(cast.map((c) => typeof c === 'object' && c.vote !== undefined)).toEqual(fresh.map(() => true));
    },
  };

  // Before the database's statistics know of today's rows (a campaign outruns autovacuum), and after.
  for (const analysed of [false, true]) {
    for (const [what, cast] of Object.entries(cases)) {
      it(`reads a few rows per new ${what} ${analysed ? 'once the statistics know the day' : 'before the statistics know the day'}`, async () => {
        if (analysed) await sql`ANALYZE votes, joins, daily_votes, users, servers`.execute(handle.db);
        const read = await rowsReadBy(handle.db, cast);
        expect(read).toBeGreaterThan(0);
        expect(read, `${read} rows and index entries read for ${BATCH} new ${what}`).toBeLessThan(BATCH * PER_VOTE);
      });
    }
  }
});

import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import { heldExpression, holdBurstPeers, type HoldRules } from '../servers';

/** Daily votes: once per player and server every 24 hours, the month's counter, the monthly ranking. */
export function dailyVotesRepository(db: Kysely<Database>, rules: HoldRules) {
  return {
    /** The server a vote is for: listed, and its owner (no voting on your own). */
    findTarget(serverId: number, tx: Executor = db) {
      return tx
        .selectFrom('servers')
        .select(['id', 'ownerId', 'hidden', 'voteMonth', 'monthVotes'])
        .where('id', '=', serverId)
        .executeTakeFirst();
    },

    /**
     * Serialises votes of one player on one server (a transaction-scoped advisory lock), so two
     * requests at once cannot both find no vote in the last 24 hours.
     */
    async lockVoter(userId: number, serverId: number, tx: Executor): Promise<void> {
      await sql`SELECT pg_advisory_xact_lock(${userId}::integer, ${serverId}::integer)`.execute(tx);
    },

    /** The player's latest vote (not voided) on the server. */
    latest(userId: number, serverId: number, tx: Executor = db) {
      return tx
        .selectFrom('dailyVotes')
        .select(['createdAt', 'status'])
        .where('userId', '=', userId)
        .where('serverId', '=', serverId)
        .where('status', '<>', 'voided')
        .orderBy('createdAt', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** Holds what the voter's registration burst already gave the server this month; answers how many. */
    async holdBurstPeers(userId: number, serverId: number, now: Date, tx: Executor = db): Promise<number> {
      const result = await holdBurstPeers('daily_votes', { userId, serverId, now }, rules).execute(tx);
      return result.rows[0]?.moved ?? 0;
    },

    /** Stores a vote, counted or held by the hold rules. */
    insert(
      vote: { userId: number; serverId: number; playerName: string | null; network: string | null; createdAt: Date },
      tx: Executor = db,
    ) {
      const held = heldExpression('daily_votes', { ...vote, now: vote.createdAt }, rules);
      return tx
        .insertInto('dailyVotes')
        .values({ ...vote, status: sql<'counted' | 'held'>`CASE WHEN ${held} THEN 'held' ELSE 'counted' END` })
        .returning(['id', 'createdAt', 'status'])
        .executeTakeFirstOrThrow();
    },

    /** The server's counted votes of the month. */
    async monthCount(serverId: number, month: string, tx: Executor = db): Promise<number> {
      const row = await tx.selectFrom('servers').select(['voteMonth', 'monthVotes']).where('id', '=', serverId).executeTakeFirst();
      return row && row.voteMonth === month ? row.monthVotes : 0;
    },

    /** Adds a counted vote to the server's month (a vote in a new month starts the count at 1); answers the count. */
    async addToMonth(serverId: number, month: string, tx: Executor = db): Promise<number> {
      const row = await tx
        .updateTable('servers')
        .set((eb) => ({
          monthVotes: eb
            .case()
            .when('voteMonth', '=', month)
            .then(eb('monthVotes', '+', 1))
            .else(1)
            .end(),
          voteMonth: month,
        }))
        .where('id', '=', serverId)
        .returning('monthVotes')
        .executeTakeFirstOrThrow();
      return row.monthVotes;
    },

    /** On a new month, every server still counting an older one starts again at 0. */
    async resetOtherMonths(month: string, tx: Executor = db): Promise<number> {
      const result = await tx
        .updateTable('servers')
        .set({ monthVotes: 0, voteMonth: month })
        .where('monthVotes', '>', 0)
        .where('voteMonth', '<>', month)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** The month's most voted listed servers, from their counters (the current month). */
    currentTop(month: string, limit: number, tx: Executor = db) {
      return tx
        .selectFrom('servers')
        .select(['id', 'name', 'profilePicture', 'monthVotes as votes'])
        .where('hidden', '=', false)
        .where('voteMonth', '=', month)
        .where('monthVotes', '>', 0)
        .orderBy('monthVotes', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** A past month's most voted listed servers, counted from the votes of that month. */
    pastTop(from: Date, to: Date, limit: number, tx: Executor = db) {
      return tx
        .selectFrom('dailyVotes')
        .innerJoin('servers', 'servers.id', 'dailyVotes.serverId')
        .select((eb) => ['servers.id', 'servers.name', 'servers.profilePicture', eb.fn.countAll<number>().as('votes')])
        .where('dailyVotes.status', '=', 'counted')
        .where('dailyVotes.createdAt', '>=', from)
        .where('dailyVotes.createdAt', '<', to)
        .where('servers.hidden', '=', false)
        .groupBy(['servers.id', 'servers.name', 'servers.profilePicture'])
        .orderBy('votes', 'desc')
        .orderBy('servers.id')
        .limit(limit)
        .execute();
    },

    /** Votes per day on a server since `since`, by status. */
    perDay(serverId: number, since: Date, tx: Executor = db) {
      return sql<{ day: string; counted: number; held: number; voided: number }>`
        SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
          (count(*) FILTER (WHERE status = 'counted'))::int AS counted,
          (count(*) FILTER (WHERE status = 'held'))::int AS held,
          (count(*) FILTER (WHERE status = 'voided'))::int AS voided
        FROM daily_votes WHERE server_id = ${serverId} AND created_at >= ${since}
        GROUP BY 1 ORDER BY 1`
        .execute(tx)
        .then((r) => r.rows);
    },
  };
}

/** Daily votes' data, as the service receives it. */
export type DailyVotesRepository = ReturnType<typeof dailyVotesRepository>;

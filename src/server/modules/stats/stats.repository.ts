import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';

/** One count of a server's activity: what (`views`, `joins`, `likes`, …), which UTC day, how many. */
export interface ActivityCount {
  kind: string;
  day: string;
  n: number;
}

/** The owner's statistics: a server's counters and its activity per day. */
export function statsRepository(db: Kysely<Database>) {
  return {
    /** The server's owner and all-time counters. */
    findServerTotals(id: number, tx: Executor = db) {
      return tx
        .selectFrom('servers')
        .select(['id', 'ownerId', 'views', 'likes', 'dislikes', 'totalJoins', 'totalBoosts'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /**
     * Views, joins, likes, dislikes and boosts per UTC day since `from` (`fromDay` is its date),
     * from the rows themselves, in one query of indexed aggregates. Joins and votes are the counted
     * ones; held and voided rows (votes, joins, daily votes) are counted apart.
     */
    async activitySince(serverId: number, from: Date, fromDay: string, tx: Executor = db): Promise<ActivityCount[]> {
      const rows = await sql<ActivityCount>`
        SELECT 'views' AS kind, to_char(day, 'YYYY-MM-DD') AS day, count(*)::int AS n FROM server_views WHERE server_id = ${serverId} AND day >= ${fromDay}::date GROUP BY day
        UNION ALL
        SELECT 'joins', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*)::int FROM joins WHERE server_id = ${serverId} AND created_at >= ${from} AND status = 'counted' GROUP BY 2
        UNION ALL
        SELECT type || 's', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*)::int FROM votes WHERE server_id = ${serverId} AND created_at >= ${from} AND status = 'counted' GROUP BY 1, 2
        UNION ALL
        SELECT 'boosts', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), sum(amount)::int FROM boosts WHERE server_id = ${serverId} AND revoked_at IS NULL AND created_at >= ${from} GROUP BY 2
        UNION ALL
        SELECT status, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*)::int FROM (
          SELECT status, created_at FROM votes WHERE server_id = ${serverId} AND created_at >= ${from} AND status <> 'counted'
          UNION ALL SELECT status, created_at FROM joins WHERE server_id = ${serverId} AND created_at >= ${from} AND status <> 'counted'
          UNION ALL SELECT status, created_at FROM daily_votes WHERE server_id = ${serverId} AND created_at >= ${from} AND status <> 'counted'
        ) unsettled GROUP BY 1, 2
      `.execute(tx);
      return rows.rows;
    },
  };
}

/** The statistics queries. */
export type StatsRepository = ReturnType<typeof statsRepository>;

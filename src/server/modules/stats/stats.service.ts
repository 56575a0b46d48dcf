import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { ServerStats, StatsDay } from '../../../shared/schemas/stats';
import { MSG } from '../../../shared/messages';
import { notFound } from '../../errors';
import { parseId, toApiId } from '../../lib/ids';
import { serverPolicy } from '../servers/servers.policy';

const DAY_MS = 86400_000;

/**
 * Owner analytics (issue 5 `/stats`): views, joins, likes, dislikes and boosts per UTC day, from
 * the rows themselves, in one query of five indexed aggregates.
 */
export function statsService({ db, now }: { db: Kysely<Database>; now: () => Date }) {
  return {
    async forServer(actor: UserRow, rawId: string, days: 7 | 30): Promise<ServerStats> {
      const id = parseId(rawId);
      const server = id
        ? await db
            .selectFrom('servers')
            .select(['id', 'ownerId', 'views', 'likes', 'dislikes', 'totalJoins', 'totalBoosts'])
            .where('id', '=', id)
            .executeTakeFirst()
        : undefined;
      if (!server) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanManage(actor, server);
      const today = new Date(Math.floor(now().getTime() / DAY_MS) * DAY_MS);
      const from = new Date(today.getTime() - (days - 1) * DAY_MS);
      const fromDay = from.toISOString().slice(0, 10);
      const rows = await sql<{ kind: string; day: string; n: number }>`
        SELECT 'views' AS kind, to_char(day, 'YYYY-MM-DD') AS day, count(*)::int AS n FROM server_views WHERE server_id = ${server.id} AND day >= ${fromDay}::date GROUP BY day
        UNION ALL
        SELECT 'joins', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*)::int FROM joins WHERE server_id = ${server.id} AND created_at >= ${from} GROUP BY 2
        UNION ALL
        SELECT type || 's', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*)::int FROM votes WHERE server_id = ${server.id} AND created_at >= ${from} GROUP BY 1, 2
        UNION ALL
        SELECT 'boosts', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), sum(amount)::int FROM boosts WHERE server_id = ${server.id} AND revoked_at IS NULL AND created_at >= ${from} GROUP BY 2
      `.execute(db);
      const byDay = new Map<string, StatsDay>();
      for (let i = 0; i < days; i++) {
        const day = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
        byDay.set(day, { day, views: 0, joins: 0, likes: 0, dislikes: 0, boosts: 0 });
      }
      for (const row of rows.rows) {
        const entry = byDay.get(row.day);
        if (
          entry &&
          (row.kind === 'views' || row.kind === 'joins' || row.kind === 'likes' || row.kind === 'dislikes' || row.kind === 'boosts')
        )
          entry[row.kind] += Number(row.n);
      }
      const list = [...byDay.values()];
      const sum = (key: keyof Omit<StatsDay, 'day'>) => list.reduce((n, d) => n + d[key], 0);
      return {
        serverId: toApiId(server.id),
        days: list,
        totals: { views: sum('views'), joins: sum('joins'), likes: sum('likes'), dislikes: sum('dislikes'), boosts: sum('boosts') },
        allTime: {
          views: server.views,
          joins: server.totalJoins,
          likes: server.likes,
          dislikes: server.dislikes,
          boosts: server.totalBoosts,
        },
      };
    },
  };
}

export type StatsService = ReturnType<typeof statsService>;

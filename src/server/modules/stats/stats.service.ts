import type { UserRow } from '../../db/schema';
import type { ServerStats, StatsDay } from '../../../shared/schemas/stats';
import { MSG } from '../../../shared/messages';
import { notFound } from '../../errors';
import { toApiId } from '../../lib/ids';
import { statsPolicy } from '../../policies/stats.policy';
import type { StatsRepository } from './stats.repository';

const DAY_MS = 86400_000;
const KINDS = ['views', 'joins', 'likes', 'dislikes', 'boosts', 'held', 'voided'] as const;

/** Owner analytics (`/stats`): views, joins, likes, dislikes and boosts per UTC day. */
export function statsService({ repository, now }: { repository: StatsRepository; now: () => Date }) {
  return {
    /** The last 7 or 30 UTC days of a server's activity, every day present, with totals. */
    async forServer(actor: UserRow, id: number, days: 7 | 30): Promise<ServerStats> {
      const server = await repository.findServerTotals(id);
      if (!server) throw notFound(MSG.serverNotFound);
      statsPolicy.assertCanSeeStats(actor, server);
      const today = new Date(Math.floor(now().getTime() / DAY_MS) * DAY_MS);
      const from = new Date(today.getTime() - (days - 1) * DAY_MS);
      const fromDay = from.toISOString().slice(0, 10);
      const rows = await repository.activitySince(server.id, from, fromDay);
      const byDay = new Map<string, StatsDay>();
      for (let i = 0; i < days; i++) {
        const day = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
        byDay.set(day, { day, views: 0, joins: 0, likes: 0, dislikes: 0, boosts: 0, held: 0, voided: 0 });
      }
      for (const row of rows) {
        const entry = byDay.get(row.day);
        const kind = KINDS.find((k) => k === row.kind);
        if (entry && kind) entry[kind] += Number(row.n);
      }
      const list = [...byDay.values()];
      const sum = (key: keyof Omit<StatsDay, 'day'>) => list.reduce((n, d) => n + d[key], 0);
      return {
        serverId: toApiId(server.id),
        days: list,
        totals: {
          views: sum('views'),
          joins: sum('joins'),
          likes: sum('likes'),
          dislikes: sum('dislikes'),
          boosts: sum('boosts'),
          held: sum('held'),
          voided: sum('voided'),
        },
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

/** The owner's statistics. */
export type StatsService = ReturnType<typeof statsService>;

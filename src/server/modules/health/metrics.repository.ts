import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** How far behind the game poller is, for one kind of due row. */
export interface PollBacklog {
  /** Rows due by now. */
  due: number;
  /** When the most overdue of them was due; null when none is. */
  oldestDueAt: Date | null;
}

/** Rows waiting for an admin's review, by table. */
export type HeldCounts = Record<'votes' | 'joins' | 'daily_votes', number>;

/** The figures a metrics scrape reads from the database: each one query on a partial index. */
export function metricsRepository(db: Kysely<Database>) {
  return {
    /**
     * Servers due for a poll and pending claims due for a check, as the poller picks them
     * (`claimDue`): a row being polled was moved into the future and is not due.
     */
    async pollBacklog(now: Date): Promise<{ servers: PollBacklog; claims: PollBacklog }> {
      const { rows } = await sql<{ servers: number; serversAt: Date | null; claims: number; claimsAt: Date | null }>`
        SELECT s.due AS servers, s.oldest AS servers_at, c.due AS claims, c.oldest AS claims_at
        FROM (
          SELECT count(*) AS due, min(next_poll_at) AS oldest FROM servers
          WHERE game_host IS NOT NULL AND game IS NOT NULL AND NOT hidden AND next_poll_at <= ${now}
        ) s, (
          SELECT count(*) AS due, min(c.next_check_at) AS oldest FROM game_claims c JOIN servers v ON v.id = c.server_id
          WHERE c.status = 'pending' AND c.next_check_at <= ${now} AND NOT v.hidden
        ) c`.execute(db);
      const row = rows[0]!;
      return {
        servers: { due: Number(row.servers), oldestDueAt: row.serversAt ? new Date(row.serversAt) : null },
        claims: { due: Number(row.claims), oldestDueAt: row.claimsAt ? new Date(row.claimsAt) : null },
      };
    },

    /** Votes, joins and daily votes held for review. */
    async heldCounts(): Promise<HeldCounts> {
      const { rows } = await sql<{ kind: keyof HeldCounts; held: number }>`
        SELECT 'votes' AS kind, count(*) AS held FROM votes WHERE status = 'held'
        UNION ALL SELECT 'joins', count(*) FROM joins WHERE status = 'held'
        UNION ALL SELECT 'daily_votes', count(*) FROM daily_votes WHERE status = 'held'`.execute(db);
      const counts: HeldCounts = { votes: 0, joins: 0, daily_votes: 0 };
      for (const row of rows) counts[row.kind] = Number(row.held);
      return counts;
    },
  };
}

/** The metrics scrape's queries. */
export type MetricsRepository = ReturnType<typeof metricsRepository>;

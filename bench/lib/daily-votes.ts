import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';

/** The current month as the app counts it (`YYYY-MM`, UTC). */
const MONTH = sql<string>`to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')`;

/**
 * Removes an earlier run's daily votes by the seed's voters (a voter votes for a server once a
 * day: a rerun within the day would be refused) and sets the month's counter of the servers they
 * were on back from the votes that remain. Answers how many were removed.
 */
export async function resetDailyVotes(db: Kysely<Database>, [first, last]: [number, number]): Promise<number> {
  const removed = await sql<{ serverId: number }>`
    DELETE FROM daily_votes WHERE user_id BETWEEN ${first} AND ${last} RETURNING server_id AS "serverId"`.execute(db);
  const servers = [...new Set(removed.rows.map((r) => Number(r.serverId)))];
  if (servers.length > 0)
    await sql`
      UPDATE servers s SET vote_month = ${MONTH}, month_votes = (
        SELECT count(*)::int FROM daily_votes d
        WHERE d.server_id = s.id AND d.status = 'counted' AND to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM') = ${MONTH})
      WHERE s.id = ANY(${servers}::bigint[])`.execute(db);
  return removed.rows.length;
}

/** Daily votes cast by the seed's voters. */
export async function countDailyRows(db: Kysely<Database>, [first, last]: [number, number]): Promise<number> {
  const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM daily_votes WHERE user_id BETWEEN ${first} AND ${last}`.execute(db);
  return Number(row.rows[0]!.n);
}

/**
 * Every server's month counter against the counted daily votes of the month, in one set-based
 * pass: a counter of another month stands for 0 (the app resets those every minute).
 */
export async function checkMonthCounters(db: Kysely<Database>, limit = 10): Promise<{ total: number; problems: string[] }> {
  const rows = await sql<{ id: number; counter: number; rows: number; total: number }>`
    WITH d AS (
      SELECT server_id, count(*)::int AS n FROM daily_votes
      WHERE status = 'counted' AND to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') = ${MONTH} GROUP BY server_id
    ),
    bad AS (
      SELECT s.id, CASE WHEN s.vote_month = ${MONTH} THEN s.month_votes ELSE 0 END AS counter, coalesce(d.n, 0) AS rows
      FROM servers s LEFT JOIN d ON d.server_id = s.id
      WHERE CASE WHEN s.vote_month = ${MONTH} THEN s.month_votes ELSE 0 END <> coalesce(d.n, 0)
    )
    SELECT id, counter, rows, (count(*) OVER ())::int AS total FROM bad ORDER BY id LIMIT ${sql.lit(limit)}`.execute(db);
  return {
    total: rows.rows[0]?.total ?? 0,
    problems: rows.rows.map((r) => `server ${r.id}: month_votes ${r.counter} but ${r.rows} counted daily votes this month`),
  };
}

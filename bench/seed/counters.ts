import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';

const lit = (n: number) => sql.lit(Math.floor(n));

/**
 * Sets likes, dislikes, total_joins, total_boosts, last_boosted_at and views of every server from
 * the rows they count, in one set-based statement (one new version of each server that changes,
 * not one per counter). Used by the seeder, and before a reused database is benchmarked again
 * (after the previous run's votes were removed).
 */
export async function recountServers(db: Kysely<Database>): Promise<void> {
  await sql`
    UPDATE servers s
    SET likes = c.likes, dislikes = c.dislikes, total_joins = c.joins, total_boosts = c.boosts, last_boosted_at = c.last, views = c.views
    FROM (
      SELECT s2.id, coalesce(v.likes, 0) AS likes, coalesce(v.dislikes, 0) AS dislikes, coalesce(j.n, 0) AS joins,
        coalesce(b.n, 0) AS boosts, b.last, coalesce(w.n, 0) AS views
      FROM servers s2
      LEFT JOIN (
        SELECT server_id, count(*) FILTER (WHERE type = 'like')::int AS likes, count(*) FILTER (WHERE type = 'dislike')::int AS dislikes
        FROM votes WHERE status = 'counted' GROUP BY server_id
      ) v ON v.server_id = s2.id
      LEFT JOIN (SELECT server_id, count(*)::int AS n FROM joins WHERE status = 'counted' GROUP BY server_id) j ON j.server_id = s2.id
      LEFT JOIN (
        SELECT server_id, sum(amount)::int AS n, max(created_at) AS last FROM boosts WHERE revoked_at IS NULL GROUP BY server_id
      ) b ON b.server_id = s2.id
      LEFT JOIN (SELECT server_id, count(*)::int AS n FROM server_views GROUP BY server_id) w ON w.server_id = s2.id
    ) c
    WHERE s.id = c.id
      AND (s.likes <> c.likes OR s.dislikes <> c.dislikes OR s.total_joins <> c.joins OR s.total_boosts <> c.boosts
        OR s.last_boosted_at IS DISTINCT FROM c.last OR s.views <> c.views)`.execute(db);
}

/**
 * Every counter on `servers` against the rows it counts, in one set-based pass (fast at 100,000
 * servers): likes, dislikes, joins, boosts (sum of the live ones) and views. Answers the
 * mismatches, at most `limit` of them, and how many there are in all.
 */
export async function checkServerCounters(db: Kysely<Database>, limit = 10): Promise<{ total: number; problems: string[] }> {
  const rows = await sql<{ id: number; what: string; counter: number; rows: number; total: number }>`
    WITH v AS (SELECT server_id, count(*) FILTER (WHERE type = 'like')::int AS likes, count(*) FILTER (WHERE type = 'dislike')::int AS dislikes
               FROM votes WHERE status = 'counted' GROUP BY server_id),
    j AS (SELECT server_id, count(*)::int AS n FROM joins WHERE status = 'counted' GROUP BY server_id),
    b AS (SELECT server_id, sum(amount)::int AS n FROM boosts WHERE revoked_at IS NULL GROUP BY server_id),
    w AS (SELECT server_id, count(*)::int AS n FROM server_views GROUP BY server_id),
    c AS (
      SELECT s.id, s.likes, coalesce(v.likes, 0) AS like_rows, s.dislikes, coalesce(v.dislikes, 0) AS dislike_rows,
        s.total_joins, coalesce(j.n, 0) AS join_rows, s.total_boosts, coalesce(b.n, 0) AS boost_sum, s.views, coalesce(w.n, 0) AS view_rows
      FROM servers s LEFT JOIN v ON v.server_id = s.id LEFT JOIN j ON j.server_id = s.id
        LEFT JOIN b ON b.server_id = s.id LEFT JOIN w ON w.server_id = s.id
    ),
    bad AS (
      SELECT id, 'likes' AS what, likes AS counter, like_rows AS rows FROM c WHERE likes <> like_rows
      UNION ALL SELECT id, 'dislikes', dislikes, dislike_rows FROM c WHERE dislikes <> dislike_rows
      UNION ALL SELECT id, 'total_joins', total_joins, join_rows FROM c WHERE total_joins <> join_rows
      UNION ALL SELECT id, 'total_boosts', total_boosts, boost_sum FROM c WHERE total_boosts <> boost_sum
      UNION ALL SELECT id, 'views', views, view_rows FROM c WHERE views <> view_rows
    )
    SELECT id, what, counter, rows, (count(*) OVER ())::int AS total FROM bad ORDER BY id LIMIT ${lit(limit)}`.execute(db);
  return {
    total: rows.rows[0]?.total ?? 0,
    problems: rows.rows.map((r) => `server ${r.id}: ${r.what} ${r.counter} but ${r.rows} in its rows`),
  };
}

/** Removes the votes of the reserved voters (a previous run's) and sets the counters back from the rows. */
export async function resetVoters(db: Kysely<Database>, facts: { voterIds: [number, number] }): Promise<number> {
  const removed = await sql`DELETE FROM votes WHERE user_id BETWEEN ${lit(facts.voterIds[0])} AND ${lit(facts.voterIds[1])}`.execute(db);
  await recountServers(db);
  return Number(removed.numAffectedRows ?? 0);
}

import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import { ok, type Outcome, type WriteKind } from './traffic';

const TABLES: Record<WriteKind, 'votes' | 'joins' | 'daily_votes'> = { like: 'votes', join: 'joins', vote: 'daily_votes' };

/** One kind of write: what the load saw and what the database holds. */
export interface WriteTally {
  kind: WriteKind;
  sent: number;
  /** Answered 200: the app said it was stored. */
  acknowledged: number;
  /** Rows of the load's users in its table. */
  rows: number;
  /** Acknowledged writes without their row: must be 0. */
  lost: number;
  /** Writes that failed (no answer, or not 2xx) whose row exists all the same: committed before the failure. */
  failedButStored: number;
  /** Rows the load never sent, or sent and saw fail without a row being possible: must be 0. */
  unexplained: number;
}

export interface DatabaseCheck {
  tallies: WriteTally[];
  /** Counters that differ from their rows (likes, dislikes, joins, boosts, views; this month's daily votes). */
  counterMismatches: number;
  counterProblems: string[];
}

const pair = (user: number, server: number) => `${user}:${server}`;

/**
 * Every write of the load against the database, one by one: each acknowledged like, join and
 * daily vote has its row, no row is there that the load did not send, and every counter equals
 * its rows.
 */
export async function checkDatabase(db: Kysely<Database>, outcomes: readonly Outcome[], voters: [number, number]): Promise<DatabaseCheck> {
  const tallies: WriteTally[] = [];
  for (const kind of ['like', 'join', 'vote'] as const) {
    const table = TABLES[kind];
    const result = await sql<{ u: number; s: number }>`
      SELECT user_id AS u, server_id AS s FROM ${sql.table(table)} WHERE user_id BETWEEN ${voters[0]} AND ${voters[1]}`.execute(db);
    const stored = new Set(result.rows.map((r) => pair(Number(r.u), Number(r.s))));
    const writes = outcomes.filter((o) => o.kind === kind);
    const acknowledged = writes.filter(ok);
    const failed = writes.filter((o) => !ok(o));
    const sentPairs = new Set(writes.map((o) => pair(o.user!, o.server!)));
    tallies.push({
      kind,
      sent: writes.length,
      acknowledged: acknowledged.length,
      rows: stored.size,
      lost: acknowledged.filter((o) => !stored.has(pair(o.user!, o.server!))).length,
      failedButStored: failed.filter((o) => stored.has(pair(o.user!, o.server!))).length,
      unexplained: [...stored].filter((p) => !sentPairs.has(p)).length + (result.rows.length - stored.size),
    });
  }

  const mismatches = await counterMismatches(db);
  return { tallies, counterMismatches: mismatches.length, counterProblems: mismatches.slice(0, 10) };
}

/**
 * Every counter the load's writes and reads move, against the rows it counts: likes and dislikes
 * (counted votes), total_joins (counted joins), views (view rows) and this month's month_votes
 * (counted daily votes). Answers one line per mismatch.
 */
async function counterMismatches(db: Kysely<Database>): Promise<string[]> {
  const month = new Date().toISOString().slice(0, 7);
  const rows = await sql<{ id: number; what: string; counter: number; rows: number }>`
    WITH v AS (SELECT server_id, count(*) FILTER (WHERE type = 'like')::int AS likes, count(*) FILTER (WHERE type = 'dislike')::int AS dislikes
               FROM votes WHERE status = 'counted' GROUP BY server_id),
    j AS (SELECT server_id, count(*)::int AS n FROM joins WHERE status = 'counted' GROUP BY server_id),
    w AS (SELECT server_id, count(*)::int AS n FROM server_views GROUP BY server_id),
    d AS (SELECT server_id, count(*)::int AS n FROM daily_votes
          WHERE status = 'counted' AND to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') = ${month} GROUP BY server_id),
    c AS (
      SELECT s.id, s.likes, coalesce(v.likes, 0) AS like_rows, s.dislikes, coalesce(v.dislikes, 0) AS dislike_rows,
        s.total_joins, coalesce(j.n, 0) AS join_rows, s.views, coalesce(w.n, 0) AS view_rows,
        CASE WHEN s.vote_month = ${month} THEN s.month_votes ELSE 0 END AS month_votes, coalesce(d.n, 0) AS daily_rows
      FROM servers s LEFT JOIN v ON v.server_id = s.id LEFT JOIN j ON j.server_id = s.id
        LEFT JOIN w ON w.server_id = s.id LEFT JOIN d ON d.server_id = s.id
    )
    SELECT id, 'likes' AS what, likes AS counter, like_rows AS rows FROM c WHERE likes <> like_rows
    UNION ALL SELECT id, 'dislikes', dislikes, dislike_rows FROM c WHERE dislikes <> dislike_rows
    UNION ALL SELECT id, 'total_joins', total_joins, join_rows FROM c WHERE total_joins <> join_rows
    UNION ALL SELECT id, 'views', views, view_rows FROM c WHERE views <> view_rows
    UNION ALL SELECT id, 'month_votes', month_votes, daily_rows FROM c WHERE month_votes <> daily_rows
    ORDER BY 1`.execute(db);
  return rows.rows.map((r) => `server ${r.id}: ${r.what} ${r.counter} but ${r.rows} in its rows`);
}

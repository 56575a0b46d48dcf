import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';

/**
 * What each seeded table holds, as text per row: times as microseconds before the seed's moment
 * (`seededAt`), so two seeds made at different moments compare equal when their rows are.
 */
const ROWS = (at: string): Record<string, string> => {
  const ago = (column: string) => `(extract(epoch FROM '${at}'::timestamptz - ${column}) * 1000000)::int8`;
  return {
    users: `SELECT ROW(id, username, role, registered_network, ${ago('created_at')})::text FROM users`,
    servers: `SELECT ROW(id, owner_id, name, status_message, bio, likes, dislikes, total_joins, total_boosts, views,
      current_players, max_players, online, hidden, filter_ids, ${ago('created_at')}, ${ago('last_boosted_at')})::text FROM servers`,
    server_filters: `SELECT ROW(server_id, filter_id)::text FROM server_filters`,
    votes: `SELECT ROW(id, user_id, server_id, type, review, network, status, ${ago('created_at')})::text FROM votes`,
    joins: `SELECT ROW(id, user_id, server_id, network, status, ${ago('created_at')})::text FROM joins`,
    boosts: `SELECT ROW(id, server_id, user_id, amount, ${ago('created_at')})::text FROM boosts`,
    // The seed's UTC day, whatever the session's time zone.
    server_views: `SELECT ROW(server_id, viewer, ('${at}'::timestamptz AT TIME ZONE 'UTC')::date - day)::text FROM server_views`,
  };
};

/**
 * A checksum of each seeded table, the same whatever order its rows are stored in: the count and
 * the sum of a 64-bit hash of every row's text. Equal checksums: the same rows (up to collisions
 * of 64-bit hashes).
 */
export async function seedChecksums(db: Kysely<Database>): Promise<Record<string, string>> {
  const at = (await sql<{ at: string }>`SELECT facts->>'seededAt' AS at FROM bench_seed LIMIT 1`.execute(db)).rows[0]?.at;
  if (!at || !/^[0-9TZ:.-]+$/.test(at)) throw new Error('no seeded data here (bench_seed has no seededAt)');
  const out: Record<string, string> = {};
  for (const [table, rows] of Object.entries(ROWS(at))) {
    const result = await sql<{ n: number; sum: string }>`
      SELECT count(*)::int AS n, coalesce(sum(hashtextextended(r, 0)::numeric), 0)::text AS sum FROM (${sql.raw(rows)}) AS x(r)`.execute(
      db,
    );
    const { n, sum } = result.rows[0]!;
    out[table] = `${n}:${BigInt.asUintN(64, BigInt(sum)).toString(16).padStart(16, '0')}`;
  }
  return out;
}

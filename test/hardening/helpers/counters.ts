import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema';

interface CounterRow {
  id: number;
  likes: number;
  dislikes: number;
  totalJoins: number;
  totalBoosts: number;
  likeRows: number;
  dislikeRows: number;
  joinRows: number;
  boostSum: number;
}

/**
 * Every denormalised counter against the rows it counts, plus what payments bought against their
 * status, in one pass over the database. Answers one line per violation (empty: all consistent).
 */
export async function checkCounters(db: Kysely<Database>): Promise<string[]> {
  const servers = await sql<CounterRow>`
    SELECT s.id, s.likes, s.dislikes, s.total_joins AS "totalJoins", s.total_boosts AS "totalBoosts",
      (SELECT count(*)::int FROM votes v WHERE v.server_id = s.id AND v.type = 'like' AND v.status = 'counted') AS "likeRows",
      (SELECT count(*)::int FROM votes v WHERE v.server_id = s.id AND v.type = 'dislike' AND v.status = 'counted') AS "dislikeRows",
      (SELECT count(*)::int FROM joins j WHERE j.server_id = s.id AND j.status = 'counted') AS "joinRows",
      (SELECT coalesce(sum(b.amount), 0)::int FROM boosts b WHERE b.server_id = s.id AND b.revoked_at IS NULL) AS "boostSum"
    FROM servers s`.execute(db);
  const problems: string[] = [];
  for (const s of servers.rows) {
    if (s.likes !== s.likeRows) problems.push(`server ${s.id}: likes ${s.likes} but ${s.likeRows} like rows`);
    if (s.dislikes !== s.dislikeRows) problems.push(`server ${s.id}: dislikes ${s.dislikes} but ${s.dislikeRows} dislike rows`);
    if (s.totalJoins !== s.joinRows) problems.push(`server ${s.id}: totalJoins ${s.totalJoins} but ${s.joinRows} join rows`);
    if (s.totalBoosts !== s.boostSum) problems.push(`server ${s.id}: totalBoosts ${s.totalBoosts} but boosts sum to ${s.boostSum}`);
  }
  const mismatched = await sql<{ what: string; id: number }>`
    SELECT 'boost kept after its payment was taken back' AS what, b.id FROM boosts b JOIN payments p ON p.id = b.payment_id
      WHERE p.status <> 'paid' AND b.revoked_at IS NULL
    UNION ALL
    SELECT 'boost revoked while its payment stands', b.id FROM boosts b JOIN payments p ON p.id = b.payment_id
      WHERE p.status = 'paid' AND b.revoked_at IS NOT NULL
    UNION ALL
    SELECT 'weekend kept after its payment was taken back', w.id FROM weekend_bookings w JOIN payments p ON p.id = w.payment_id
      WHERE p.status <> 'paid' AND w.status = 'active'
    UNION ALL
    SELECT 'paid boost checkout without its boost', p.id FROM payments p
      JOIN checkout_sessions c ON c.id = p.checkout_session_id AND c.server_id IS NOT NULL
      WHERE p.type IN ('playerBoost', 'ownerBoost') AND NOT EXISTS (SELECT 1 FROM boosts b WHERE b.payment_id = p.id)

    UNION ALL
    SELECT 'plan differs from live subscriptions', u.id FROM users u
      WHERE EXISTS (SELECT 1 FROM subscriptions x WHERE x.user_id = u.id)
        AND u.subscription_plan <> coalesce((SELECT x.plan FROM subscriptions x WHERE x.user_id = u.id AND x.status IN ('active', 'past_due')
          ORDER BY x.updated_at DESC, x.id DESC LIMIT 1), '')`.execute(db);
  for (const m of mismatched.rows) problems.push(`${m.what} (#${m.id})`);
  return problems;
}

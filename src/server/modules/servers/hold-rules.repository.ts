import { sql, type RawBuilder } from 'kysely';
import { DISCORD_YOUNG_MS } from '../../../shared/discord';

/**
 * When a new vote, join or daily vote is held instead of counted (docs/decisions/029-ranking-integrity.md):
 * its network already gave `sameNetworkPerDay` to that server in the last 24 hours (counted or not:
 * held ones were sent too),
 * or its account is younger than `youngAccountMs` and one of at least `burstAccounts` accounts
 * registered from one network within `burstWindowMs`; or its Discord account is younger than
 * `discordYoungMs` and it was registered in such a burst (for as long as the Discord account is young).
 */
export interface HoldRules {
  sameNetworkPerDay: number;
  youngAccountMs: number;
  /** An account whose linked Discord account is younger than this counts as young too (decision 052). */
  discordYoungMs: number;
  burstAccounts: number;
  burstWindowMs: number;
}

export const DEFAULT_HOLD_RULES: HoldRules = {
  sameNetworkPerDay: 2,
  youngAccountMs: 3600_000,
  discordYoungMs: DISCORD_YOUNG_MS,
  burstAccounts: 3,
  burstWindowMs: 3600_000,
};

/** Rules that never hold (tests whose many accounts all come from 127.0.0.1; `HOLD_RULES=off`). */
export const NO_HOLDS: HoldRules = {
  sameNetworkPerDay: 1_000_000_000,
  youngAccountMs: 0,
  discordYoungMs: 0,
  burstAccounts: 1_000_000_000,
  burstWindowMs: 0,
};

const DAY_MS = 24 * 3600_000;

/** A value of the row: a parameter, or a column of the statement's rows (a batch's `sql.ref`). */
type Value<T> = T | RawBuilder<unknown>;

/**
 * The SQL that decides, inside the statement that inserts the row, whether it is held: two
 * indexed counts (the server's rows from the network in a day; the accounts registered from the
 * voter's network in the burst window).
 *
 * The network count repeats its conditions as one row comparison: it means the same, but only the
 * `(server_id, network, created_at)` index can take it as an index condition. Without it the
 * planner could tie that index with the server's time index and read all of the server's rows of
 * the day for each vote (docs/decisions/061-hold-counts.md).
 */
export function heldExpression(
  table: 'votes' | 'joins' | 'daily_votes',
  row: { userId: Value<number>; serverId: Value<number>; network: Value<string | null>; now: Date },
  rules: HoldRules,
): RawBuilder<boolean> {
  const dayAgo = new Date(row.now.getTime() - DAY_MS);
  return sql<boolean>`(
    (${row.network}::text IS NOT NULL AND (
      SELECT count(*) FROM ${sql.table(table)} x
      WHERE x.server_id = ${row.serverId} AND x.network = ${row.network}::text
        AND (x.server_id, x.network, x.created_at) > (${row.serverId}, ${row.network}::text, ${dayAgo})
    ) >= ${rules.sameNetworkPerDay})
    OR ${burstExpression(row, rules)}
  )`;
}

/**
 * The part of `heldExpression` about the voter's account rather than the server: it is young and
 * one of a registration burst, or its Discord account is young and it was registered in one. Only
 * a row held for this has a burst whose earlier rows `holdBurstPeers` holds too; a row held for
 * its network alone leaves nothing to move, and asking cost a statement per held vote (in a vote
 * campaign, where one network's third vote on a server is held, as many statements as the votes'
 * own).
 */
function burstExpression(row: { userId: Value<number>; now: Date }, rules: HoldRules): RawBuilder<boolean> {
  const youngSince = new Date(row.now.getTime() - rules.youngAccountMs);
  const discordYoungSince = new Date(row.now.getTime() - rules.discordYoungMs);
  const burstSince = new Date(row.now.getTime() - rules.burstWindowMs);
  const windowText = `${rules.burstWindowMs} milliseconds`;
  return sql<boolean>`(
    EXISTS (
      SELECT 1 FROM users u
      WHERE u.id = ${row.userId} AND u.created_at > ${youngSince} AND u.registered_network IS NOT NULL
        AND (SELECT count(*) FROM users o WHERE o.registered_network = u.registered_network AND o.created_at > ${burstSince}) >= ${rules.burstAccounts}
    )
    OR EXISTS (
      SELECT 1 FROM users u
      WHERE u.id = ${row.userId} AND u.discord_created_at > ${discordYoungSince} AND u.registered_network IS NOT NULL
        AND (SELECT count(*) FROM users o WHERE o.registered_network = u.registered_network
               AND o.created_at BETWEEN u.created_at - ${windowText}::interval AND u.created_at + ${windowText}::interval) >= ${rules.burstAccounts}
    )
  )`;
}

/**
 * Whether a row the statement stored was held by the burst rule (`burstExpression`), asked only
 * when `status` is 'held': a CASE evaluates its branch only when the condition is true, so a
 * counted row asks nothing more.
 */
export function heldForBurst(
  status: RawBuilder<unknown>,
  row: { userId: Value<number>; now: Date },
  rules: HoldRules,
): RawBuilder<boolean> {
  return sql<boolean>`CASE WHEN ${status} = 'held' THEN ${burstExpression(row, rules)} ELSE false END`;
}

/**
 * Once a registration burst shows itself (its third account), the votes its earlier accounts
 * already gave the server were no different: they are held too, and the counters drop by them,
 * in one statement. A burst's first accounts otherwise look like two friends and would count.
 */
export function holdBurstPeers(
  table: 'votes' | 'joins' | 'daily_votes',
  row: { userId: number; serverId: number; now: Date },
  rules: HoldRules,
): RawBuilder<{ moved: number }> {
  const youngSince = new Date(row.now.getTime() - rules.youngAccountMs);
  const burstSince = new Date(row.now.getTime() - rules.burstWindowMs);
  const month = row.now.toISOString().slice(0, 7);
  const counters =
    table === 'votes'
      ? sql`likes = likes - (SELECT count(*) FROM moved WHERE type = 'like'), dislikes = dislikes - (SELECT count(*) FROM moved WHERE type = 'dislike')`
      : table === 'joins'
        ? sql`total_joins = total_joins - (SELECT count(*) FROM moved)`
        : sql`month_votes = CASE WHEN vote_month = ${month}
            THEN greatest(0, month_votes - (SELECT count(*) FROM moved WHERE to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') = ${month}))
            ELSE month_votes END`;
  const returning = table === 'votes' ? sql`type` : table === 'joins' ? sql`1 AS one` : sql`created_at`;
  return sql<{ moved: number }>`
    WITH burst AS (
      SELECT o.id FROM users u JOIN users o ON o.registered_network = u.registered_network
      WHERE u.id = ${row.userId} AND u.registered_network IS NOT NULL
        AND o.created_at > ${burstSince} AND o.created_at > ${youngSince}
        AND (SELECT count(*) FROM users c WHERE c.registered_network = u.registered_network AND c.created_at > ${burstSince}) >= ${rules.burstAccounts}
    ),
    moved AS (
      UPDATE ${sql.table(table)} SET status = 'held', status_changed_at = ${row.now}
      WHERE server_id = ${row.serverId} AND status = 'counted' AND user_id IN (SELECT id FROM burst)
      RETURNING ${returning}
    ),
    bump AS (UPDATE servers SET ${counters} WHERE id = ${row.serverId} AND EXISTS (SELECT 1 FROM moved) RETURNING id)
    SELECT (SELECT count(*) FROM moved)::int AS moved`;
}

/**
 * How votes gather under load (see `batcher`): while votes keep arriving faster than their
 * statements run, a batch of fewer than 8 waits until 15 ms after the last one began. At a
 * thousand votes a second that is a third fewer statements, each of which cost the app's thread a
 * round trip the reads beside the votes waited for (docs/decisions/074-votes-gathered-under-load.md).
 */
export const VOTE_GATHER = { ms: 15, items: 8 };

/**
 * What no two votes of one batched statement may share (see `batcher`): its rows cannot see each
 * other, so one player's two votes on one server, or two votes from one network on one server (the
 * network's daily count the hold rules read), go to separate statements.
 */
export function voteBatchKeys(vote: { userId: number; serverId: number; network: string | null }): string[] {
  const player = `u${vote.userId}:${vote.serverId}`;
  return vote.network ? [player, `n${vote.serverId}:${vote.network}`] : [player];
}

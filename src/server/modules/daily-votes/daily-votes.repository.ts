import { sql, type Kysely } from 'kysely';
import { afterLocks } from '../../db/after-locks';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import type { Voter } from '../../plugins/auth';
import { heldExpression, heldForBurst, holdBurstPeers, VOTER_STATE, type HoldRules, type RefusedVoter } from '../servers';

/** One daily vote as `castDailyVotes` takes it. */
export interface DailyVoteInput {
  userId: number;
  /** What the voter's access token says: the statement stores the vote only while the account still accepts it. */
  token: Voter['token'];
  serverId: number;
  playerName: string | null;
  network: string | null;
}

/** What `castDailyVotes` answers for one vote on a server that exists. */
export interface CastDailyVote {
  server: { id: number; ownerId: number; hidden: boolean };
  /** The voter's name (vote rewards pass it on). */
  username: string;
  /** The vote stored (counted or held); undefined when the player's last one is too recent (or the policy refused it). */
  vote: { id: number; status: 'counted' | 'held' } | undefined;
  /** Held as one of a registration burst (`burstExpression`): the burst's earlier votes are to be held too. */
  burst: boolean;
  /** The player's latest vote there before this one (not voided). */
  last: Date | undefined;
  /** The server's counted votes of the month, the statement's included. */
  monthVotes: number;
  /** The server has reward targets (a webhook or Votifier): only then has a counted vote anyone to reward. */
  rewards: boolean;
}

/** Daily votes: once per player and server every 24 hours, the month's counter, the monthly ranking. */
export function dailyVotesRepository(db: Kysely<Database>, rules: HoldRules) {
  return {
    /** The server a vote is for: listed, and its owner (no voting on your own). */
    findTarget(serverId: number, tx: Executor = db) {
      return tx
        .selectFrom('servers')
        .select(['id', 'ownerId', 'hidden', 'voteMonth', 'monthVotes'])
        .where('id', '=', serverId)
        .executeTakeFirst();
    },

    /** The player's latest vote (not voided) on the server. */
    latest(userId: number, serverId: number, tx: Executor = db) {
      return tx
        .selectFrom('dailyVotes')
        .select(['createdAt', 'status'])
        .where('userId', '=', userId)
        .where('serverId', '=', serverId)
        .where('status', '<>', 'voided')
        .orderBy('createdAt', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** Holds what the voter's registration burst already gave the server this month; answers how many. */
    async holdBurstPeers(userId: number, serverId: number, now: Date, tx: Executor = db): Promise<number> {
      const result = await holdBurstPeers('daily_votes', { userId, serverId, now }, rules).execute(tx);
      return result.rows[0]?.moved ?? 0;
    },

    /**
     * Many daily votes in one statement (one round trip, one commit; see `batcher`): finds each
     * server and the voter's latest vote there, stores each vote whose voter has none since `since`
     * (counted or held by the hold rules; guarded by what the vote policy asks: listed, not the
     * voter's own) and adds the counted ones to their servers' month. It also makes each voter's
     * sign-in check (`VOTER_STATE`). One answer per vote, in order: the account's refusal, which
     * comes before anything about the server; undefined when there is no such server.
     *
     * Votes of one player on one server are serialised by transaction-scoped advisory locks on
     * (player, server), taken first in one order (two instances' batches wait for each other
     * instead of deadlocking): two requests at once cannot both find no vote in the last 24 hours.
     * Locks and statement run as one call (`afterLocks`): one round trip, one transaction.
     *
     * The statement's rows cannot see each other, so the caller never puts two votes by one player
     * on one server, or two from one network on one server (the network's daily count), in one call.
     */
    async castDailyVotes(
      votes: readonly DailyVoteInput[],
      at: Date,
      since: Date,
    ): Promise<Array<CastDailyVote | RefusedVoter | undefined>> {
      if (votes.length === 0) return [];
      const month = at.toISOString().slice(0, 7);
      const held = heldExpression(
        'daily_votes',
        { userId: sql.ref('t.user_id'), serverId: sql.ref('t.server_id'), network: sql.ref('t.network'), now: at },
        rules,
      );
      const burst = heldForBurst(sql.ref('ins.status'), { userId: sql.ref('i.user_id'), now: at }, rules);
      const column = <K extends keyof DailyVoteInput>(key: K) => votes.map((v) => v[key]);
      const rows = await afterLocks(db, {
        prefix: 'cast_daily_votes',
        // $1 and $2 are the statement's first parameters: the players and the servers of `input`.
        locks: `PERFORM pg_advisory_xact_lock(p.u::integer, p.s::integer)
          FROM (SELECT u, s FROM unnest($1, $2) AS x(u, s) ORDER BY u, s OFFSET 0) p`,
        returns:
          'n bigint, voter text, username text, owner_id bigint, hidden boolean, last_at timestamptz, vote_id bigint, status text, burst boolean, rewards boolean, month_votes integer',
        statement: sql<{
          n: number;
          voter: 'active' | RefusedVoter;
          username: string | null;
          ownerId: number | null;
          hidden: boolean | null;
          lastAt: Date | null;
          voteId: number | null;
          status: 'counted' | 'held' | null;
          burst: boolean;
          monthVotes: number | null;
          rewards: boolean | null;
        }>`
        WITH input AS (
          SELECT * FROM unnest(${column('userId')}::bigint[], ${column('serverId')}::bigint[], ${column('playerName')}::text[],
            ${column('network')}::text[], ${votes.map((v) => v.token.version)}::bigint[], ${votes.map((v) => v.token.sessionId)}::text[])
            WITH ORDINALITY AS i(user_id, server_id, player_name, network, token_version, session_id, n)),
        voter AS (SELECT i.n, u.username, ${sql.raw(VOTER_STATE)} AS state FROM input i LEFT JOIN users u ON u.id = i.user_id),
        target AS (
          SELECT i.*, s.owner_id, s.hidden, s.vote_month, s.month_votes,
            (SELECT d.created_at FROM daily_votes d
              WHERE d.user_id = i.user_id AND d.server_id = i.server_id AND d.status <> 'voided'
              ORDER BY d.created_at DESC LIMIT 1) AS last_at,
            -- Read here, a probe of its key, rather than by vote rewards in a statement per vote.
            EXISTS (SELECT 1 FROM reward_targets r WHERE r.server_id = i.server_id) AS rewards
          FROM input i JOIN voter v ON v.n = i.n AND v.state = 'active' JOIN servers s ON s.id = i.server_id),
        ins AS (
          INSERT INTO daily_votes (user_id, server_id, player_name, network, created_at, status)
          SELECT t.user_id, t.server_id, t.player_name, t.network, ${at}, CASE WHEN ${held} THEN 'held' ELSE 'counted' END
          FROM target t
          WHERE NOT t.hidden AND t.owner_id <> t.user_id AND (t.last_at IS NULL OR t.last_at <= ${since})
          RETURNING id, user_id, server_id, status),
        counts AS (SELECT server_id, count(*)::int AS n FROM ins WHERE status = 'counted' GROUP BY server_id),
        -- Rows locked in id order first: two instances' statements raising the same servers'
        -- counters then wait for each other instead of deadlocking.
        locked AS (SELECT id FROM servers WHERE id IN (SELECT server_id FROM counts) ORDER BY id FOR NO KEY UPDATE),
        bump AS (
          UPDATE servers s
          SET month_votes = CASE WHEN s.vote_month = ${month} THEN s.month_votes + c.n ELSE c.n END, vote_month = ${month}
          FROM counts c JOIN locked l ON l.id = c.server_id WHERE s.id = c.server_id RETURNING s.id, s.month_votes)
        SELECT i.n, v.state AS voter, v.username, t.owner_id, t.hidden, t.last_at, ins.id AS vote_id, ins.status, ${burst} AS burst, t.rewards,
          coalesce(bump.month_votes, CASE WHEN t.vote_month = ${month} THEN t.month_votes ELSE 0 END) AS month_votes
        FROM input i
        JOIN voter v ON v.n = i.n
        LEFT JOIN target t ON t.n = i.n
        LEFT JOIN bump ON bump.id = i.server_id
        LEFT JOIN ins ON ins.user_id = i.user_id AND ins.server_id = i.server_id
        ORDER BY i.n`,
      });
      if (rows.length !== votes.length) throw new Error('castDailyVotes: one player voted twice on one server in one call');
      return rows.map((row) => {
        const vote = votes[row.n - 1]!;
        if (row.voter !== 'active') return row.voter;
        if (row.ownerId === null || row.hidden === null) return undefined;
        return {
          server: { id: vote.serverId, ownerId: row.ownerId, hidden: row.hidden },
          username: row.username ?? '',
          vote: row.voteId === null || row.status === null ? undefined : { id: Number(row.voteId), status: row.status },
          burst: row.burst === true,
          last: row.lastAt ?? undefined,
          monthVotes: row.monthVotes ?? 0,
          rewards: row.rewards === true,
        };
      });
    },

    /** The server's counted votes of the month. */
    async monthCount(serverId: number, month: string, tx: Executor = db): Promise<number> {
      const row = await tx.selectFrom('servers').select(['voteMonth', 'monthVotes']).where('id', '=', serverId).executeTakeFirst();
      return row && row.voteMonth === month ? row.monthVotes : 0;
    },

    /** On a new month, every server still counting an older one starts again at 0. */
    async resetOtherMonths(month: string, tx: Executor = db): Promise<number> {
      const result = await tx
        .updateTable('servers')
        .set({ monthVotes: 0, voteMonth: month })
        .where('monthVotes', '>', 0)
        .where('voteMonth', '<>', month)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** The month's most voted listed servers, from their counters (the current month). */
    currentTop(month: string, limit: number, tx: Executor = db) {
      return tx
        .selectFrom('servers')
        .select(['id', 'name', 'profilePicture', 'monthVotes as votes'])
        .where('hidden', '=', false)
        .where('voteMonth', '=', month)
        .where('monthVotes', '>', 0)
        .orderBy('monthVotes', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** A past month's most voted listed servers, counted from the votes of that month. */
    pastTop(from: Date, to: Date, limit: number, tx: Executor = db) {
      return tx
        .selectFrom('dailyVotes')
        .innerJoin('servers', 'servers.id', 'dailyVotes.serverId')
        .select((eb) => ['servers.id', 'servers.name', 'servers.profilePicture', eb.fn.countAll<number>().as('votes')])
        .where('dailyVotes.status', '=', 'counted')
        .where('dailyVotes.createdAt', '>=', from)
        .where('dailyVotes.createdAt', '<', to)
        .where('servers.hidden', '=', false)
        .groupBy(['servers.id', 'servers.name', 'servers.profilePicture'])
        .orderBy('votes', 'desc')
        .orderBy('servers.id')
        .limit(limit)
        .execute();
    },

    /** Votes per day on a server since `since`, by status. */
    perDay(serverId: number, since: Date, tx: Executor = db) {
      return sql<{ day: string; counted: number; held: number; voided: number }>`
        SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
          (count(*) FILTER (WHERE status = 'counted'))::int AS counted,
          (count(*) FILTER (WHERE status = 'held'))::int AS held,
          (count(*) FILTER (WHERE status = 'voided'))::int AS voided
        FROM daily_votes WHERE server_id = ${serverId} AND created_at >= ${since}
        GROUP BY 1 ORDER BY 1`
        .execute(tx)
        .then((r) => r.rows);
    },
  };
}

/** Daily votes' data, as the service receives it. */
export type DailyVotesRepository = ReturnType<typeof dailyVotesRepository>;

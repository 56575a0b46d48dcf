import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import type { VoteStatus } from '../../../shared/schemas/fraud';

/** A server's numbers over the window, as the fraud review scores them. */
export interface SuspectRow {
  serverId: number;
  name: string;
  rows: number;
  young: number;
  held: number;
  burstAccounts: number;
  topNetwork: string | null;
  topNetworkRows: number;
}

/** A row an action moved, and its server. */
export interface MovedRow {
  id: number;
  serverId: number;
}

/** Accounts registered this close to another from the same network form a burst. */
const BURST_WINDOW = sql`interval '15 minutes'`;

/** The votes, joins and daily votes (not voided) since `since`, with their account's age and registration burst. */
const recentRows = (since: Date, serverId?: number) => sql`
  SELECT r.*, u.username, u.created_at AS registered_at, u.registered_network, u.email_confirmed_at,
    EXISTS (
      SELECT 1 FROM users o
      WHERE o.registered_network = u.registered_network AND o.id <> u.id
        AND o.created_at BETWEEN u.created_at - ${BURST_WINDOW} AND u.created_at + ${BURST_WINDOW}
    ) AS burst
  FROM (
    SELECT 'vote'::text AS kind, v.id, v.server_id, v.user_id, v.type, v.network, v.status, v.created_at
    FROM votes v WHERE v.created_at > ${since} AND v.status <> 'voided' ${serverId ? sql`AND v.server_id = ${serverId}` : sql``}
    UNION ALL
    SELECT 'join', j.id, j.server_id, j.user_id, NULL, j.network, j.status, j.created_at
    FROM joins j WHERE j.created_at > ${since} AND j.status <> 'voided' ${serverId ? sql`AND j.server_id = ${serverId}` : sql``}
    UNION ALL
    SELECT 'dailyVote', d.id, d.server_id, d.user_id, NULL, d.network, d.status, d.created_at
    FROM daily_votes d WHERE d.created_at > ${since} AND d.status <> 'voided' ${serverId ? sql`AND d.server_id = ${serverId}` : sql``}
  ) r
  JOIN users u ON u.id = r.user_id`;

/** The fraud review's reads, and the writes that void or release votes and joins. */
export function fraudRepository(db: Kysely<Database>) {
  return {
    /** Every server with at least `minRows` votes and joins since `since`, with the numbers the score needs. */
    async suspects(since: Date, minRows: number): Promise<SuspectRow[]> {
      const result = await sql<SuspectRow>`
        WITH recent AS (${recentRows(since)}),
        per_server AS (
          SELECT server_id, count(*)::int AS rows,
            (count(*) FILTER (WHERE created_at - registered_at < interval '1 day'))::int AS young,
            (count(*) FILTER (WHERE status = 'held'))::int AS held,
            (count(DISTINCT user_id) FILTER (WHERE burst))::int AS burst_accounts
          FROM recent GROUP BY server_id HAVING count(*) >= ${minRows}
        ),
        top_network AS (
          SELECT DISTINCT ON (server_id) server_id, network, count(*)::int AS n
          FROM recent WHERE network IS NOT NULL
          GROUP BY server_id, network ORDER BY server_id, count(*) DESC, network
        )
        SELECT p.server_id, s.name, p.rows, p.young, p.held, p.burst_accounts,
          t.network AS top_network, coalesce(t.n, 0) AS top_network_rows
        FROM per_server p JOIN servers s ON s.id = p.server_id LEFT JOIN top_network t ON t.server_id = p.server_id`.execute(db);
      return result.rows;
    },

    /** A server's votes and joins since `since` with their accounts, newest first (at most `limit`). */
    async evidence(serverId: number, since: Date, limit: number) {
      const result = await sql<{
        kind: 'vote' | 'join' | 'dailyVote';
        id: number;
        serverId: number;
        userId: number;
        type: 'like' | 'dislike' | null;
        network: string | null;
        status: VoteStatus;
        createdAt: Date;
        username: string;
        registeredAt: Date;
        registeredNetwork: string | null;
        emailConfirmedAt: Date | null;
      }>`SELECT * FROM (${recentRows(since, serverId)}) e ORDER BY created_at DESC, id DESC LIMIT ${limit}`.execute(db);
      return result.rows;
    },

    /**
     * Moves votes, joins and daily votes (by id, or every one of some accounts) from one of `from` to
     * `to`; answers the rows moved with their servers.
     */
    async setStatus(
      target: { voteIds: number[]; joinIds: number[]; dailyVoteIds: number[]; accountIds: number[] },
      from: VoteStatus[],
      to: VoteStatus,
      at: Date,
      tx: Executor = db,
    ): Promise<{ votes: MovedRow[]; joins: MovedRow[]; dailyVotes: MovedRow[] }> {
      const move = (table: 'votes' | 'joins' | 'dailyVotes', ids: number[]) =>
        tx
          .updateTable(table)
          .set({ status: to, statusChangedAt: at })
          .where('status', 'in', from)
          .where((eb) =>
            eb.or([
              ...(ids.length > 0 ? [eb('id', '=', eb.fn.any(eb.val(ids)))] : []),
              ...(target.accountIds.length > 0 ? [eb('userId', '=', eb.fn.any(eb.val(target.accountIds)))] : []),
            ]),
          )
          .returning(['id', 'serverId'])
          .execute();
      const votes = target.voteIds.length + target.accountIds.length > 0 ? await move('votes', target.voteIds) : [];
      const joins = target.joinIds.length + target.accountIds.length > 0 ? await move('joins', target.joinIds) : [];
      const dailyVotes = target.dailyVoteIds.length + target.accountIds.length > 0 ? await move('dailyVotes', target.dailyVoteIds) : [];
      return { votes, joins, dailyVotes };
    },

    /** Each server's votes of `month` (`from` to `to`) to its counted daily votes of that month (after a void or release). */
    async recountMonth(serverIds: number[], month: { name: string; from: Date; to: Date }, tx: Executor = db): Promise<void> {
      if (serverIds.length === 0) return;
      await sql`
        UPDATE servers s SET
          month_votes = (
            SELECT count(*) FROM daily_votes d
            WHERE d.server_id = s.id AND d.status = 'counted' AND d.created_at >= ${month.from} AND d.created_at < ${month.to}),
          vote_month = ${month.name}
        WHERE s.id = ANY(${sql.val(serverIds)}::bigint[])`.execute(tx);
    },

    /** Released daily votes with what a vote reward needs (who, under which in-game name, when). */
    releasedDailyVotes(ids: number[], tx: Executor = db) {
      if (ids.length === 0) return Promise.resolve([]);
      return tx
        .selectFrom('dailyVotes')
        .innerJoin('users', 'users.id', 'dailyVotes.userId')
        .select([
          'dailyVotes.id',
          'dailyVotes.serverId',
          'dailyVotes.userId',
          'users.username',
          'dailyVotes.playerName',
          'dailyVotes.network',
          'dailyVotes.createdAt',
        ])
        .where('dailyVotes.id', 'in', ids)
        .orderBy('dailyVotes.id')
        .execute();
    },

    /** Sets each server's likes, dislikes and joins to its counted rows (after a void or release). */
    async recount(serverIds: number[], tx: Executor = db): Promise<void> {
      if (serverIds.length === 0) return;
      await sql`
        UPDATE servers s SET
          likes = (SELECT count(*) FROM votes v WHERE v.server_id = s.id AND v.type = 'like' AND v.status = 'counted'),
          dislikes = (SELECT count(*) FROM votes v WHERE v.server_id = s.id AND v.type = 'dislike' AND v.status = 'counted'),
          total_joins = (SELECT count(*) FROM joins j WHERE j.server_id = s.id AND j.status = 'counted')
        WHERE s.id = ANY(${sql.val(serverIds)}::bigint[])`.execute(tx);
    },

    /** Records who did what to which rows. */
    async insertAction(
      action: {
        adminId: number;
        action: 'void' | 'release';
        reason: string;
        voteIds: number[];
        joinIds: number[];
        dailyVoteIds: number[];
        serverIds: number[];
      },
      tx: Executor = db,
    ): Promise<void> {
      await tx.insertInto('fraudActions').values(action).execute();
    },

    /** The servers' owners, names and owners' languages, to tell them. */
    owners(serverIds: number[], tx: Executor = db) {
      if (serverIds.length === 0) return Promise.resolve([]);
      return tx
        .selectFrom('servers')
        .innerJoin('users', 'users.id', 'servers.ownerId')
        .select(['servers.id', 'servers.name', 'servers.ownerId', 'users.locale'])
        .where('servers.id', 'in', serverIds)
        .execute();
    },

    /** An inbox notice. */
    async notify(userId: number, notice: { title: string; message: string; link: string }, tx: Executor = db): Promise<void> {
      await tx
        .insertInto('notifications')
        .values({ userId, ...notice })
        .execute();
    },
  };
}

/** The fraud review's data, as its service receives it. */
export type FraudRepository = ReturnType<typeof fraudRepository>;

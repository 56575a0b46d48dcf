import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import { heldExpression, holdBurstPeers, type HoldRules } from './hold-rules.repository';

/** A vote's kind. */
export type VoteType = 'like' | 'dislike';

/**
 * Joins and votes. Each insert lets the unique key (user, server) decide: it answers whether a
 * row went in, and the service raises the counter in the same transaction only then.
 */
export function votesRepository(db: Kysely<Database>, rules: HoldRules) {
  return {
    /** What a join or vote needs to know about its server, or undefined. */
    findTarget(serverId: number, tx: Executor = db) {
      return tx.selectFrom('servers').select(['id', 'ownerId', 'hidden']).where('id', '=', serverId).executeTakeFirst();
    },

    /** Adds the user's join unless there is one; true when it went in. */
    /**
     * A join in one statement, as `castVote` does a vote: finds the server, inserts the join unless
     * the user has one (guarded by the vote policy: listed, not the joiner's own), and raises the
     * counter only for a counted row. `status` is undefined when no row went in; the whole answer
     * is undefined when there is no such server.
     */
    async castJoin(join: {
      userId: number;
      serverId: number;
      network: string | null;
      now: Date;
    }): Promise<{ server: { id: number; ownerId: number; hidden: boolean }; status: 'counted' | 'held' | undefined } | undefined> {
      const held = heldExpression('joins', join, rules);
      const result = await sql<{ id: number; ownerId: number; hidden: boolean; status: 'counted' | 'held' | null }>`
        WITH target AS (SELECT id, owner_id, hidden FROM servers WHERE id = ${join.serverId}),
        ins AS (
          INSERT INTO joins (user_id, server_id, network, status)
          SELECT ${join.userId}, t.id, ${join.network}::text, CASE WHEN ${held} THEN 'held' ELSE 'counted' END
          FROM target t
          WHERE NOT t.hidden AND t.owner_id <> ${join.userId}
          ON CONFLICT (user_id, server_id) DO NOTHING
          RETURNING server_id, status),
        bump AS (UPDATE servers SET total_joins = total_joins + 1 WHERE id IN (SELECT server_id FROM ins WHERE status = 'counted') RETURNING id)
        SELECT t.id, t.owner_id, t.hidden, (SELECT status FROM ins) AS status
        FROM target t`.execute(db);
      const row = result.rows[0];
      return row && { server: { id: row.id, ownerId: row.ownerId, hidden: row.hidden }, status: row.status ?? undefined };
    },

    /**
     * A vote in one statement (one round trip, no explicit transaction): finds the server, inserts
     * the vote unless the user has one, and raises the counter only when the row went in, so the
     * counter stays equal to its rows. The insert is guarded by what the vote policy asks (listed,
     * not the voter's own); the service still asserts the policy on the returned server, for the
     * answer it gives. Undefined when there is no such server.
     */
    async castVote(vote: {
      userId: number;
      serverId: number;
      type: VoteType;
      review: string | null;
      network: string | null;
      now: Date;
    }): Promise<{ server: { id: number; ownerId: number; hidden: boolean }; added: boolean; held: boolean } | undefined> {
      const counter = sql.ref(vote.type === 'like' ? 'likes' : 'dislikes');
      const held = heldExpression('votes', vote, rules);
      const result = await sql<{ id: number; ownerId: number; hidden: boolean; added: boolean; held: boolean }>`
        WITH target AS (SELECT id, owner_id, hidden FROM servers WHERE id = ${vote.serverId}),
        ins AS (
          INSERT INTO votes (user_id, server_id, type, review, network, status)
          SELECT ${vote.userId}, t.id, ${vote.type}, ${vote.review}::text, ${vote.network}::text,
            CASE WHEN ${held} THEN 'held' ELSE 'counted' END
          FROM target t
          WHERE NOT t.hidden AND t.owner_id <> ${vote.userId}
          ON CONFLICT (user_id, server_id) DO NOTHING
          RETURNING server_id, status),
        bump AS (UPDATE servers SET ${counter} = ${counter} + 1 WHERE id IN (SELECT server_id FROM ins WHERE status = 'counted') RETURNING id)
        SELECT t.id, t.owner_id, t.hidden, EXISTS (SELECT 1 FROM ins) AS added, EXISTS (SELECT 1 FROM ins WHERE status = 'held') AS held
        FROM target t`.execute(db);
      const row = result.rows[0];
      return row && { server: { id: row.id, ownerId: row.ownerId, hidden: row.hidden }, added: row.added, held: row.held };
    },

    /** Holds what the voter's registration burst already gave the server (see `holdBurstPeers`); answers how many. */
    async holdBurstPeers(table: 'votes' | 'joins', userId: number, serverId: number, now: Date, tx: Executor = db): Promise<number> {
      const result = await holdBurstPeers(table, { userId, serverId, now }, rules).execute(tx);
      return result.rows[0]?.moved ?? 0;
    },

    /** Replaces the text of the user's own vote on a server; false when there is no such vote. */
    async editReview(userId: number, serverId: number, review: string | null, at: Date, tx: Executor = db): Promise<boolean> {
      const row = await tx
        .updateTable('votes')
        .set({ review, editedAt: at })
        .where('userId', '=', userId)
        .where('serverId', '=', serverId)
        .returning('id')
        .executeTakeFirst();
      return Boolean(row);
    },

    /** The kind of the vote the user already gave the server, or undefined. */
    async findVoteType(userId: number, serverId: number, tx: Executor = db): Promise<VoteType | undefined> {
      const previous = await tx
        .selectFrom('votes')
        .select('type')
        .where('userId', '=', userId)
        .where('serverId', '=', serverId)
        .executeTakeFirst();
      return previous?.type;
    },
  };
}

/** Joins and votes, as the service receives them. */
export type VotesRepository = ReturnType<typeof votesRepository>;

import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import { heldExpression, type HoldRules } from './hold-rules.repository';

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
    /** Adds the user's join unless there is one, counted or held by the rules; undefined when there was one. */
    async insertJoin(
      userId: number,
      serverId: number,
      network: string | null,
      now: Date,
      tx: Executor = db,
    ): Promise<'counted' | 'held' | undefined> {
      const held = heldExpression('joins', { userId, serverId, network, now }, rules);
      const row = await tx
        .insertInto('joins')
        .values({ userId, serverId, network, status: sql<'counted' | 'held'>`CASE WHEN ${held} THEN 'held' ELSE 'counted' END` })
        .onConflict((oc) => oc.columns(['userId', 'serverId']).doNothing())
        .returning('status')
        .executeTakeFirst();
      return row ? (row.status === 'held' ? 'held' : 'counted') : undefined;
    },

    /** Raises a server's all-time join counter by one. */
    async addJoin(serverId: number, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('servers')
        .set((eb) => ({ totalJoins: eb('totalJoins', '+', 1) }))
        .where('id', '=', serverId)
        .execute();
    },

    /** Adds the user's vote unless there is one; true when it went in. */
    async insertVote(
      vote: { userId: number; serverId: number; type: VoteType; review: string | null },
      tx: Executor = db,
    ): Promise<boolean> {
      const row = await tx
        .insertInto('votes')
        .values({ userId: vote.userId, serverId: vote.serverId, type: vote.type, review: vote.review })
        .onConflict((oc) => oc.columns(['userId', 'serverId']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return Boolean(row);
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

    /** Raises a server's like or dislike counter by one. */
    async addVote(serverId: number, type: VoteType, tx: Executor = db): Promise<void> {
      const column = type === 'like' ? 'likes' : 'dislikes';
      await tx
        .updateTable('servers')
        .set((eb) => ({ [column]: eb(column, '+', 1) }))
        .where('id', '=', serverId)
        .execute();
    },
  };
}

/** Joins and votes, as the service receives them. */
export type VotesRepository = ReturnType<typeof votesRepository>;

import { sql, type Kysely } from 'kysely';
import { preparedMarker } from '../../db/database';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import type { Voter } from '../../plugins/auth';
import { heldExpression, heldForBurst, holdBurstPeers, type HoldRules } from './hold-rules.repository';
import { VOTER_STATE, type RefusedVoter } from './voter-check';

// The hot writes run as prepared statements: each batch was planned again, ~2 ms of a ~6 ms statement.
const CAST_JOIN = preparedMarker('cast-join');
const CAST_VOTES = preparedMarker('cast-votes');

/** A vote's kind. */
export type VoteType = 'like' | 'dislike';

/** One vote as `castVotes` takes it. */
export interface VoteInput {
  userId: number;
  /** What the voter's access token says: the statement counts the vote only while the account still accepts it. */
  token: Voter['token'];
  serverId: number;
  type: VoteType;
  review: string | null;
  network: string | null;
}

/** What `castVotes` answers for one vote on a server that exists. */
export interface CastVote {
  server: { id: number; ownerId: number; hidden: boolean };
  /** The vote went in (counted or held). */
  added: boolean;
  held: boolean;
  /** Held as one of a registration burst (`burstExpression`): the burst's earlier votes are to be held too. */
  burst: boolean;
  /** The kind of the vote the user already had there, when known. */
  existing: VoteType | undefined;
  /** The server's counters once the statement's votes counted. */
  counters: { likes: number; dislikes: number };
}

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

    /**
     * A join in one statement, as `castVotes` does votes: checks the joiner's account as
     * `castVotes` does (its refusal answered before anything about the server), finds the server,
     * inserts the join unless
     * the user has one (guarded by the vote policy: listed, not the joiner's own), and raises the
     * counter only for a counted row. `status` is undefined when no row went in; the whole answer
     * is undefined when there is no such server.
     */
    async castJoin(join: {
      userId: number;
      token: Voter['token'];
      serverId: number;
      network: string | null;
      now: Date;
    }): Promise<
      | { server: { id: number; ownerId: number; hidden: boolean }; status: 'counted' | 'held' | undefined; burst: boolean }
      | RefusedVoter
      | undefined
    > {
      const held = heldExpression('joins', join, rules);
      const burst = heldForBurst(sql`(SELECT status FROM ins)`, join, rules);
      const result = await sql<{
        voter: 'active' | RefusedVoter;
        id: number | null;
        ownerId: number | null;
        hidden: boolean | null;
        status: 'counted' | 'held' | null;
        burst: boolean;
      }>`${sql.raw(CAST_JOIN)}
        WITH voter AS (
          SELECT ${sql.raw(VOTER_STATE)} AS state
          FROM (SELECT ${join.userId}::bigint AS user_id, ${join.token.version}::int AS token_version,
            ${join.token.sessionId}::text AS session_id) i
          LEFT JOIN users u ON u.id = i.user_id),
        target AS (SELECT id, owner_id, hidden FROM servers WHERE id = ${join.serverId} AND (SELECT state FROM voter) = 'active'),
        ins AS (
          INSERT INTO joins (user_id, server_id, network, status)
          SELECT ${join.userId}, t.id, ${join.network}::text, CASE WHEN ${held} THEN 'held' ELSE 'counted' END
          FROM target t
          WHERE NOT t.hidden AND t.owner_id <> ${join.userId}
          ON CONFLICT (user_id, server_id) DO NOTHING
          RETURNING server_id, status),
        bump AS (UPDATE servers SET total_joins = total_joins + 1 WHERE id IN (SELECT server_id FROM ins WHERE status = 'counted') RETURNING id)
        SELECT v.state AS voter, t.id, t.owner_id, t.hidden, (SELECT status FROM ins) AS status,
          ${burst} AS burst
        FROM voter v LEFT JOIN target t ON true`.execute(db);
      const row = result.rows[0]!;
      if (row.voter !== 'active') return row.voter;
      if (row.id === null || row.ownerId === null || row.hidden === null) return undefined;
      return { server: { id: row.id, ownerId: row.ownerId, hidden: row.hidden }, status: row.status ?? undefined, burst: row.burst };
    },

    /**
     * Many votes in one statement (one round trip, one commit; see `batcher`): checks each voter's
     * account (the sign-in check: the token's version, its session not ended, and a confirmed
     * address), finds each server, inserts each vote unless its user has one there, and raises each
     * server's counters by the rows that went in and count, so counters stay equal to their rows.
     * Each insert is guarded by what the vote policy asks (listed, not the voter's own); the service
     * still asserts the policy on the returned server, for the answer it gives. One answer per vote,
     * in order: the account's refusal, which comes before anything about the server; undefined when
     * there is no such server; `existing` is the kind of a vote the user already had.
     *
     * The statement's rows cannot see each other, so the caller never puts two votes by one user
     * on one server, or two from one network on one server (the network's daily count), in one call.
     */
    async castVotes(votes: readonly VoteInput[], now: Date): Promise<Array<CastVote | RefusedVoter | undefined>> {
      if (votes.length === 0) return [];
      const held = heldExpression(
        'votes',
        { userId: sql.ref('t.user_id'), serverId: sql.ref('t.server_id'), network: sql.ref('t.network'), now },
        rules,
      );
      const burst = heldForBurst(sql.ref('ins.status'), { userId: sql.ref('i.user_id'), now }, rules);
      const column = <K extends keyof VoteInput>(key: K) => votes.map((v) => v[key]);
      const result = await sql<{
        n: number;
        voter: 'active' | RefusedVoter;
        ownerId: number | null;
        hidden: boolean | null;
        status: 'counted' | 'held' | null;
        existing: VoteType | null;
        burst: boolean;
        likes: number | null;
        dislikes: number | null;
      }>`${sql.raw(CAST_VOTES)}
        WITH input AS (
          SELECT * FROM unnest(${column('userId')}::bigint[], ${column('serverId')}::bigint[], ${column('type')}::text[],
            ${column('review')}::text[], ${column('network')}::text[], ${votes.map((v) => v.token.version)}::int[],
            ${votes.map((v) => v.token.sessionId)}::text[])
            WITH ORDINALITY AS i(user_id, server_id, type, review, network, token_version, session_id, n)),
        voter AS (SELECT i.n, ${sql.raw(VOTER_STATE)} AS state FROM input i LEFT JOIN users u ON u.id = i.user_id),
        target AS (
          SELECT i.*, s.owner_id, s.hidden, s.likes, s.dislikes
          FROM input i JOIN voter v ON v.n = i.n AND v.state = 'active' JOIN servers s ON s.id = i.server_id),
        ins AS (
          INSERT INTO votes (user_id, server_id, type, review, network, status)
          SELECT t.user_id, t.server_id, t.type, t.review, t.network, CASE WHEN ${held} THEN 'held' ELSE 'counted' END
          FROM target t
          WHERE NOT t.hidden AND t.owner_id <> t.user_id
          ON CONFLICT (user_id, server_id) DO NOTHING
          RETURNING user_id, server_id, type, status),
        counts AS (
          SELECT server_id, count(*) FILTER (WHERE type = 'like') AS likes, count(*) FILTER (WHERE type = 'dislike') AS dislikes
          FROM ins WHERE status = 'counted' GROUP BY server_id),
        -- Rows locked in id order first: two instances' statements raising the same servers'
        -- counters then wait for each other instead of deadlocking.
        locked AS (SELECT id FROM servers WHERE id IN (SELECT server_id FROM counts) ORDER BY id FOR NO KEY UPDATE),
        bump AS (
          UPDATE servers s SET likes = s.likes + c.likes, dislikes = s.dislikes + c.dislikes
          FROM counts c JOIN locked l ON l.id = c.server_id WHERE s.id = c.server_id RETURNING s.id, s.likes, s.dislikes)
        SELECT i.n, v.state AS voter, t.owner_id, t.hidden, ins.status, old.type AS existing,
          ${burst} AS burst,
          coalesce(bump.likes, t.likes) AS likes, coalesce(bump.dislikes, t.dislikes) AS dislikes
        FROM input i
        JOIN voter v ON v.n = i.n
        LEFT JOIN target t ON t.n = i.n
        LEFT JOIN bump ON bump.id = i.server_id
        LEFT JOIN ins ON ins.user_id = i.user_id AND ins.server_id = i.server_id
        LEFT JOIN votes old ON old.user_id = i.user_id AND old.server_id = i.server_id
        ORDER BY i.n`.execute(db);
      if (result.rows.length !== votes.length) throw new Error('castVotes: one user voted twice on one server in one call');
      return result.rows.map((row) => {
        const vote = votes[row.n - 1]!;
        if (row.voter !== 'active') return row.voter;
        if (row.ownerId === null || row.hidden === null) return undefined;
        return {
          server: { id: vote.serverId, ownerId: row.ownerId, hidden: row.hidden },
          added: row.status !== null,
          held: row.status === 'held',
          burst: row.burst,
          // The statement sees the votes from before it: a vote that raced it in is read afterwards.
          existing: row.existing ?? undefined,
          counters: { likes: row.likes ?? 0, dislikes: row.dislikes ?? 0 },
        };
      });
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

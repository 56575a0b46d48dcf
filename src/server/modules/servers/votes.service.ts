import type { UserRow } from '../../db/schema';
import { MSG } from '../../../shared/messages';
import { conflict, forbidden, notFound } from '../../errors';
import { serverPolicy } from '../../policies/servers.policy';
import type { SettingsService } from '../settings';
import { batcher } from '../../lib/batcher';
import { VOTE_GATHER, voteBatchKeys } from './hold-rules.repository';
import { isRowLevelError } from '../../lib/row-errors';
import type { Voter } from '../../plugins/auth';
import type { CastVote, VoteInput, VotesRepository, VoteType } from './votes.repository';
import type { RefusedVoter } from './voter-check';
import type { VoteCounters } from './discovery.service';

/** Most votes one statement carries. */
const VOTE_BATCH = 100;

interface Deps {
  votes: VotesRepository;
  settings: Pick<SettingsService, 'flag'>;
  now: () => Date;
  /** Told which server's counter a join or vote changed (its cached page and the orders it moves in are dropped). */
  onChange: (change: { kind: 'join'; serverId: number } | { kind: 'vote'; serverId: number; counters?: VoteCounters }) => void;
}

/**
 * Joins and votes: one of each per user per server, decided by the unique constraint inside the
 * one statement that also bumps the counter, so counters equal rows under any concurrency.
 */
export function votesService({ votes, settings, now, onChange }: Deps) {
  const target = async (id: number, actor: Pick<UserRow, 'id'>) => {
    const server = await votes.findTarget(id);
    if (!server) throw notFound(MSG.serverNotFound);
    serverPolicy.assertCanVoteOn(actor, server);
    return server;
  };

  // Votes that arrive while one statement runs go together in the next one: one commit serves many
  // (docs/decisions/038-batched-writes.md). One user's two votes on one server, and two votes from one
  // network on one server (its daily count), never share a statement: its rows cannot see each other.
  const casting = batcher<VoteInput, CastVote | RefusedVoter | undefined>((items) => votes.castVotes(items, now()), {
    maxBatch: VOTE_BATCH,
    // One statement at a time per instance: two would lock servers' rows against each other.
    maxInFlight: 1,
    keys: voteBatchKeys,
    gather: VOTE_GATHER,
    // A vote whose data breaks the statement fails alone; a lost connection or a timeout fails the
    // batch (its votes may have been written: run again, they would answer 409).
    splitOn: isRowLevelError,
  });

  return {
    /** Joins a server once; a second join answers 409. Answers the server's id. */
    async join(voter: Voter, id: number, network: string | null = null): Promise<number> {
      const actor = { id: voter.userId };
      // One statement, the sign-in check included: a slow database costs one round trip, not a transaction's four.
      const cast = await votes.castJoin({ userId: voter.userId, token: voter.token, serverId: id, network, now: now() });
      if (cast === 'signed-out') throw voter.signedOut();
      if (cast === 'unconfirmed') {
        // A missing or someone's own server answers as it would for anyone; then the address.
        await target(id, actor);
        throw forbidden(MSG.confirmEmailFirst);
      }
      if (!cast) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanVoteOn(actor, cast.server);
      if (!cast.status) throw conflict(MSG.alreadyJoined);
      // A held join is stored and counts nowhere until an admin releases it; a burst's earlier joins neither.
      if (cast.status === 'held' && cast.burst) await votes.holdBurstPeers('joins', actor.id, id, now());
      onChange({ kind: 'join', serverId: id });
      return id;
    },

    /**
     * Likes or dislikes a server once, with an optional review; a second vote answers 409. Answers
     * the server's id. The common case is one statement shared with the votes that arrived with
     * it, which also makes the sign-in check: an account that no longer accepts the token answers
     * 401 before anything about the server. An unconfirmed address, and a review while reviews are
     * off, are refused after the server is found, as before.
     */
    async vote(voter: Voter, id: number, type: VoteType, review: string | undefined, network: string | null = null): Promise<number> {
      if (review && !(await settings.flag('enableReviews'))) {
        const actor = await voter.account();
        await target(id, actor);
        serverPolicy.assertConfirmed(actor);
        serverPolicy.assertCanReview(false);
      }
      const actor = { id: voter.userId };
      const cast = await casting.add({
        userId: voter.userId,
        token: voter.token,
        serverId: id,
        type,
        review: review ? review : null,
        network,
      });
      if (cast === 'signed-out') throw voter.signedOut();
      if (cast === 'unconfirmed') {
        // A missing or someone's own server answers as it would for anyone; then the address.
        await target(id, actor);
        throw forbidden(MSG.confirmEmailFirst);
      }
      if (!cast) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanVoteOn(actor, cast.server);
      if (!cast.added) {
        const existing = cast.existing ?? (await votes.findVoteType(actor.id, id)) ?? type;
        throw conflict(existing === 'like' ? MSG.alreadyLiked : MSG.alreadyDisliked);
      }
      if (cast.held) {
        // A held vote shows nowhere and counts nowhere. Only one held as part of a registration
        // burst has earlier votes to hold with it; moving them lowers the counters, so the held
        // card is dropped.
        if (cast.burst && (await votes.holdBurstPeers('votes', actor.id, id, now())) > 0) onChange({ kind: 'vote', serverId: id });
      } else onChange({ kind: 'vote', serverId: id, counters: cast.counters });
      return id;
    },

    /**
     * Changes the text of the caller's own review: one review per account and server, editable,
     * never a second one. The same rules as writing it: reviews on, a confirmed address.
     */
    async editReview(actor: UserRow, id: number, review: string): Promise<void> {
      const server = await target(id, actor);
      serverPolicy.assertConfirmed(actor);
      if (review) serverPolicy.assertCanReview(await settings.flag('enableReviews'));
      if (!(await votes.editReview(actor.id, server.id, review || null, now()))) throw notFound(MSG.reviewNeedsVote);
      onChange({ kind: 'vote', serverId: server.id });
    },
  };
}

/** Joins and votes, as routes receive them. */
export type VotesService = ReturnType<typeof votesService>;

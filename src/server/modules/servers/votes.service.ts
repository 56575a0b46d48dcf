import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import { MSG } from '../../../shared/messages';
import { conflict, notFound } from '../../errors';
import { serverPolicy } from '../../policies/servers.policy';
import type { SettingsService } from '../settings';
import type { VotesRepository, VoteType } from './votes.repository';

interface Deps {
  votes: VotesRepository;
  inTransaction: InTransaction;
  settings: Pick<SettingsService, 'flag'>;
  now: () => Date;
  /** Told which server's counter a join or vote changed (its cached page and the orders it moves in are dropped). */
  onChange: (change: { kind: 'join' | 'vote'; serverId: number }) => void;
}

/**
 * Joins and votes: one of each per user per server, decided by the unique constraint inside the
 * transaction that bumps the counter, so counters equal rows under any concurrency.
 */
export function votesService({ votes, inTransaction, settings, now, onChange }: Deps) {
  const target = async (id: number, actor: UserRow) => {
    const server = await votes.findTarget(id);
    if (!server) throw notFound(MSG.serverNotFound);
    serverPolicy.assertCanVoteOn(actor, server);
    return server;
  };

  return {
    /** Joins a server once; a second join answers 409. Answers the server's id. */
    async join(actor: UserRow, id: number, network: string | null = null): Promise<number> {
      const server = await target(id, actor);
      const done = await inTransaction(async (tx) => {
        const added = await votes.insertJoin(actor.id, server.id, network, now(), tx);
        // A held join is stored and counts nowhere until an admin releases it.
        if (added === 'counted') await votes.addJoin(server.id, tx);
        return added;
      });
      if (!done) throw conflict(MSG.alreadyJoined);
      onChange({ kind: 'join', serverId: server.id });
      return server.id;
    },

    /**
     * Likes or dislikes a server once, with an optional review; a second vote answers 409. Answers
     * the server's id. The common case is one statement; a review while reviews are off is refused
     * after the server is found, as before.
     */
    async vote(actor: UserRow, id: number, type: VoteType, review: string | undefined, network: string | null = null): Promise<number> {
      if (review && !(await settings.flag('enableReviews'))) {
        await target(id, actor);
        serverPolicy.assertCanReview(false);
      }
      const cast = await votes.castVote({ userId: actor.id, serverId: id, type, review: review ? review : null, network, now: now() });
      if (!cast) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanVoteOn(actor, cast.server);
      if (!cast.added) {
        const existing = (await votes.findVoteType(actor.id, id)) ?? type;
        throw conflict(existing === 'like' ? MSG.alreadyLiked : MSG.alreadyDisliked);
      }
      onChange({ kind: 'vote', serverId: id });
      return id;
    },
  };
}

/** Joins and votes, as routes receive them. */
export type VotesService = ReturnType<typeof votesService>;

import type { FastifyBaseLogger } from 'fastify';
import type { UserRow } from '../../db/schema';
import type { DailyVoteState, MonthlyRanking } from '../../../shared/schemas/daily-votes';
import { MSG } from '../../../shared/messages';
import { AppError, forbidden, notFound } from '../../errors';
import { toApiId } from '../../lib/ids';
import { serverPolicy } from '../../policies/servers.policy';
import { batcher } from '../../lib/batcher';
import { VOTE_GATHER, voteBatchKeys, type RefusedVoter, type VoteCounters } from '../servers';
import type { Voter } from '../../plugins/auth';
import { isRowLevelError } from '../../lib/row-errors';
import type { CastDailyVote, DailyVoteInput, DailyVotesRepository } from './daily-votes.repository';

/** How long a player waits between two votes for one server. */
export const DAILY_VOTE_INTERVAL_MS = 24 * 3600_000;
/** Most votes one transaction carries. */
const VOTE_BATCH = 100;
/** How often the service checks whether a new month began (counters of older months go to 0). */
const MONTH_CHECK_MS = 60_000;

/** The month of a time, as `YYYY-MM` in UTC. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** A `YYYY-MM` month as the UTC instants it starts at and the next month starts at. */
export function monthRange(month: string): { from: Date; to: Date } {
  const from = new Date(`${month}-01T00:00:00.000Z`);
  // setUTCMonth, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  const to = new Date(from);
  to.setUTCMonth(to.getUTCMonth() + 1);
  return { from, to };
}

/** "5 h 12 min", "12 min", "1 min": how long until a time. */
function waitText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

/** A counted daily vote, as vote rewards receive it. */
export interface CountedVote {
  voteId: number;
  serverId: number;
  userId: number;
  username: string;
  playerName: string | null;
  /** The voter's address (Votifier passes it on); not stored. */
  address: string;
  at: Date;
  /** Its server had reward targets when the vote was counted, as the statement that counted it saw (unknown for a vote released later). */
  rewards?: boolean;
}

interface Deps {
  repository: DailyVotesRepository;
  now: () => Date;
  /**
   * A vote changed a server's month count: its page and the "Top voted" order are stale; its held
   * card takes the count the vote's statement answered (or is dropped, without one). A new month
   * set every server's count back to 0.
   */
  onChange: (change: { kind: 'vote'; serverId: number; counters?: VoteCounters } | { kind: 'month' }) => void;
  /** Told each counted vote after it is stored (vote rewards). */
  onCounted?: (vote: CountedVote) => void;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/**
 * Daily votes: besides the permanent like or dislike, a player may vote for a server once every 24
 * hours (docs/decisions/030-daily-votes.md). Votes feed the month's count on each server and the
 * monthly ranking; past months are counted from the votes themselves.
 */
export function dailyVotesService({ repository, now, onChange, onCounted, log }: Deps) {
  let timer: NodeJS.Timeout | undefined;

  const state = (at: Date | null, status: 'counted' | 'held' | null, monthVotes: number, month: string): DailyVoteState => ({
    month,
    monthVotes,
    votedAt: at ? at.toISOString() : null,
    nextVoteAt: at ? new Date(at.getTime() + DAILY_VOTE_INTERVAL_MS).toISOString() : null,
    status,
  });

  const target = async (actor: Pick<UserRow, 'id'>, serverId: number) => {
    const server = await repository.findTarget(serverId);
    if (!server) throw notFound(MSG.serverNotFound);
    serverPolicy.assertCanVoteOn(actor, server);
    return server;
  };

  // Votes that arrive while one transaction runs go together in the next one: one commit serves
  // many (docs/decisions/038-batched-writes.md). One player's two votes on one server, and two
  // votes from one network on one server (its daily count), never share a statement: its rows
  // cannot see each other.
  const casting = batcher<DailyVoteInput, { at: Date; cast: CastDailyVote | RefusedVoter | undefined }>(
    async (votes) => {
      const at = now();
      const since = new Date(at.getTime() - DAILY_VOTE_INTERVAL_MS);
      const cast = await repository.castDailyVotes(votes, at, since);
      return cast.map((c) => ({ at, cast: c }));
    },
    {
      maxBatch: VOTE_BATCH,
      // One transaction at a time per instance: two would lock servers' rows against each other.
      maxInFlight: 1,
      keys: voteBatchKeys,
      gather: VOTE_GATHER,
      // A vote whose data breaks the statement fails alone; a lost connection or a timeout fails the batch.
      splitOn: isRowLevelError,
    },
  );

  /** Sets older months' counters to 0 (a new month begins at 0); answers how many servers it reset. */
  const resetMonth = async (): Promise<number> => {
    const reset = await repository.resetOtherMonths(monthOf(now()));
    if (reset > 0) onChange({ kind: 'month' });
    return reset;
  };

  return {
    /**
     * Votes for a server; a second vote within 24 hours answers 409 with the time left (and
     * `Retry-After`). Checked and stored under a per-player, per-server lock, so repeats at the same
     * moment count once; votes arriving together share one transaction, which also makes each
     * voter's sign-in check: an account that no longer accepts the token answers 401 before
     * anything about the server.
     */
    async vote(
      voter: Voter,
      serverId: number,
      input: { playerName: string | undefined; network: string | null; address: string },
    ): Promise<DailyVoteState> {
      const actor = { id: voter.userId };
      const { at, cast } = await casting.add({
        userId: voter.userId,
        token: voter.token,
        serverId,
        playerName: input.playerName ?? null,
        network: input.network,
      });
      if (cast === 'signed-out') throw voter.signedOut();
      if (cast === 'unconfirmed') {
        // A missing or someone's own server answers as it would for anyone; then the address.
        await target(actor, serverId);
        throw forbidden(MSG.confirmEmailFirst);
      }
      if (!cast) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanVoteOn(actor, cast.server);
      const month = monthOf(at);
      if (!cast.vote) {
        if (!cast.last) throw new Error('a daily vote was neither stored nor too soon');
        const left = cast.last.getTime() + DAILY_VOTE_INTERVAL_MS - at.getTime();
        throw new AppError(409, `${MSG.dailyVoteTooSoon} ${waitText(left)}.`, { 'retry-after': String(Math.ceil(left / 1000)) });
      }
      let monthVotes = cast.monthVotes;
      if (cast.vote.status === 'held' && cast.burst) {
        // A held vote counts nowhere (and rewards nobody) until an admin releases it; a burst's
        // earlier votes neither, which may lower the month's count.
        if ((await repository.holdBurstPeers(actor.id, serverId, at)) > 0) monthVotes = await repository.monthCount(serverId, month);
      }
      onChange({ kind: 'vote', serverId, counters: { monthVotes } });
      if (cast.vote.status === 'counted')
        onCounted?.({
          voteId: cast.vote.id,
          serverId,
          userId: actor.id,
          username: cast.username,
          playerName: input.playerName ?? null,
          address: input.address,
          at,
          rewards: cast.rewards,
        });
      return state(at, cast.vote.status, monthVotes, month);
    },

    /** The caller's last vote on a server and when they may vote again. */
    async state(actor: UserRow, serverId: number): Promise<DailyVoteState> {
      const server = await target(actor, serverId);
      const month = monthOf(now());
      const last = await repository.latest(actor.id, serverId);
      const recent = last && now().getTime() - last.createdAt.getTime() < DAILY_VOTE_INTERVAL_MS ? last : undefined;
      const monthVotes = server.voteMonth === month ? server.monthVotes : 0;
      return state(recent?.createdAt ?? null, recent ? (recent.status === 'held' ? 'held' : 'counted') : null, monthVotes, month);
    },

    /** The month's most voted listed servers (this month from the counters, past months from the votes). */
    async ranking(month: string | undefined, limit: number): Promise<MonthlyRanking> {
      const current = monthOf(now());
      const wanted = month ?? current;
      let rows: Array<{ id: number; name: string; profilePicture: string | null; votes: number }> = [];
      if (wanted === current) rows = await repository.currentTop(current, limit);
      else if (wanted < current) {
        const { from, to } = monthRange(wanted);
        rows = await repository.pastTop(from, to, limit);
      }
      return {
        month: wanted,
        servers: rows.map((r, i) => ({
          position: i + 1,
          id: toApiId(r.id),
          name: r.name,
          profilePicture: r.profilePicture,
          votes: Number(r.votes),
        })),
      };
    },

    /** Votes per day over the last 30 days, counted, held and voided: what the owner's stats show. */
    async perDay(actor: UserRow, serverId: number) {
      const server = await repository.findTarget(serverId);
      if (!server) throw notFound(MSG.serverNotFound);
      serverPolicy.assertCanManage(actor, server);
      return repository.perDay(serverId, new Date(now().getTime() - 30 * 24 * 3600_000));
    },

    resetMonth,

    /** `resetMonth` now and every minute. */
    startMonthlyReset(): void {
      const check = () => resetMonth().catch((err: unknown) => log?.warn({ err }, 'monthly vote reset failed'));
      void check();
      timer = setInterval(check, MONTH_CHECK_MS);
      timer.unref();
    },

    stop(): void {
      if (timer) clearInterval(timer);
    },
  };
}

/** Daily votes, as routes receive them. */
export type DailyVotesService = ReturnType<typeof dailyVotesService>;

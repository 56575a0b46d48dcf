import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import { createTokenService } from '../../src/server/modules/auth';
import { BENCH_JWT_SECRET } from './app-process';
import type { RequestSpec } from './load';
import {
  likeServer,
  newCursor,
  nextVote,
  randomFirstNetwork,
  type VoteCursor,
  type VoteKind,
  type VoteMix,
  type VotePlan,
} from './vote-plan';

/**
 * The run's votes: one plan (the voters' tokens, the servers, the campaign's ten) and one cursor
 * shared by every load that votes, so no (voter, server) pair and no address repeats across them.
 */
export interface RunVotes {
  plan: VotePlan;
  cursor: VoteCursor;
  /** Requests built so far, by kind (sent, or about to be). */
  sent: () => Record<VoteKind, number>;
  /** The next request of a mix (`k` counts the load's own requests). */
  nextOf: (mix: VoteMix) => () => RequestSpec;
}

/** Signs an access token for each of the seed's voters (their ids `first`…`last`). */
async function voterTokens([first, last]: [number, number]): Promise<string[]> {
  const tokens = createTokenService(BENCH_JWT_SECRET);
  const auth: string[] = [];
  for (let id = first; id <= last; id++) auth.push(`Bearer ${await tokens.sign({ userId: id, version: 0 })}`);
  return auth;
}

/**
 * The votes of a run by the seed's voters (kept free of votes by the seed): likes and daily votes
 * on `visible` servers but the campaign's `top`, campaign likes on `top`.
 */
export async function runVotes(voterIds: [number, number], visible: readonly number[], top: readonly number[] = []): Promise<RunVotes> {
  const campaign = new Set(top);
  const servers = visible.filter((id) => !campaign.has(id));
  const plan: VotePlan = { auth: await voterTokens(voterIds), servers, top: [...top], firstNetwork: randomFirstNetwork() };
  const cursor = newCursor();
  return {
    plan,
    cursor,
    sent: () => ({ like: cursor.like, campaign: cursor.campaign, daily: cursor.daily }),
    nextOf: (mix) => {
      let k = 0;
      return () => nextVote(plan, cursor, mix(k++)).spec;
    },
  };
}

/** Vote requests for a load: likes, each by one of the seed's voters on a server it never voted on. */
export interface VoteRequests {
  next: () => RequestSpec;
  /** Requests built so far (sent, or about to be). */
  sent: () => number;
  /** Servers the next `count` requests will go to, in order (a request's server depends only on its number). */
  upcomingServers: (count: number) => number[];
  voters: number;
}

/**
 * Likes by distinct users, user after user, each round on other servers; every fifth with a review;
 * each request from its own address as a reverse proxy would report it. One generator can feed
 * several loads: no two requests repeat a user and server.
 */
export async function voteRequests(voterIds: [number, number], visible: readonly number[]): Promise<VoteRequests> {
  const votes = await runVotes(voterIds, visible);
  const next = votes.nextOf(() => 'like');
  return {
    voters: votes.plan.auth.length,
    sent: () => votes.cursor.like,
    upcomingServers: (count) => Array.from({ length: count }, (_, i) => likeServer(votes.plan, votes.cursor.like + i)),
    next,
  };
}

/** Likes and dislikes cast by the users the seed kept for the vote benchmark. */
export async function countVoterRows(db: Kysely<Database>, [first, last]: [number, number]): Promise<number> {
  const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM votes WHERE user_id BETWEEN ${first} AND ${last}`.execute(db);
  return Number(row.rows[0]!.n);
}

/** Accepted answers (2xx) among a load's statuses. */
export const accepted = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);

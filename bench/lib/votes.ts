import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import { createTokenService } from '../../src/server/modules/auth';
import { BENCH_JWT_SECRET } from './app-process';
import type { RequestSpec } from './load';

/** Vote requests for the load: each by one of the seed's voters on a server it never voted on. */
export interface VoteRequests {
  next: () => RequestSpec;
  /** Requests built so far (sent, or about to be). */
  sent: () => number;
  /** Servers the next `count` requests will go to, in order (a request's server depends only on its number). */
  upcomingServers: (count: number) => number[];
  voters: number;
}

/**
 * Likes by distinct users (the seed keeps them free of votes), user after user, each round on
 * other servers; every fifth with a review; each request from its own address as a reverse proxy
 * would report it. One generator can feed several loads: no two requests repeat a user and server.
 */
export async function voteRequests([firstVoter, lastVoter]: [number, number], visible: readonly number[]): Promise<VoteRequests> {
  const tokens = createTokenService(BENCH_JWT_SECRET);
  const voters = lastVoter - firstVoter + 1;
  const auth: string[] = [];
  for (let i = 0; i < voters; i++) auth.push(`Bearer ${await tokens.sign({ userId: firstVoter + i, version: 0 })}`);
  const serverOf = (i: number) => visible[((i % voters) * 7919 + Math.floor(i / voters)) % visible.length]!;
  // Where this run's addresses start, in networks (/24) of 10.0.0.0/8: with REDIS_URL the hourly
  // per-network limit's counters outlast a run, and a rerun from the same networks would hit it.
  const firstNetwork = Math.floor(Math.random() * 65_536);
  const address = (i: number) => {
    const network = (firstNetwork + (i >> 8)) % 65_536;
    return `10.${network >> 8}.${network & 255}.${i & 255}`;
  };
  let n = 0;
  return {
    voters,
    sent: () => n,
    upcomingServers: (count) => Array.from({ length: count }, (_, i) => serverOf(n + i)),
    next: () => {
      const i = n++;
      return {
        path: `/api/servers/${serverOf(i)}/like`,
        method: 'POST',
        headers: {
          authorization: auth[i % voters]!,
          'content-type': 'application/json',
          'x-forwarded-for': address(i),
        },
        body: i % 5 === 0 ? JSON.stringify({ review: 'Seen in the benchmark: friendly staff.' }) : '{}',
      };
    },
  };
}

/** Votes cast by the users the seed kept for the vote benchmark. */
export async function countVoterRows(db: Kysely<Database>, [first, last]: [number, number]): Promise<number> {
  const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM votes WHERE user_id BETWEEN ${first} AND ${last}`.execute(db);
  return Number(row.rows[0]!.n);
}

/** Accepted answers (2xx) among a load's statuses. */
export const accepted = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);

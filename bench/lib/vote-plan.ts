import type { RequestSpec } from './load';

/**
 * Every vote request of a run, built from plain data so a child process (the paced vote stream)
 * builds the same requests as the benchmark process: each kind of vote walks its own sequence of
 * (voter, server) pairs, which never repeats a pair, and every request of any kind takes the next
 * address, so no address and no /24 network is used more than the app's limits allow.
 */
export interface VotePlan {
  /** `Bearer …` of each of the seed's voters, in id order. */
  auth: string[];
  /** Listed servers that likes and daily votes go to: the campaign's servers left out, so no pair repeats. */
  servers: number[];
  /** The ten most-voted listed servers: the campaign's (empty: no campaign). */
  top: number[];
  /** Where this run's addresses start, in /24 networks of 10.0.0.0/8. */
  firstNetwork: number;
}

/** How many of each kind have been built: the next of each kind continues from there. */
export interface VoteCursor {
  like: number;
  campaign: number;
  daily: number;
  /** Requests of any kind: each takes the next address. */
  address: number;
}

export type VoteKind = 'like' | 'campaign' | 'daily';

export interface BuiltVote {
  kind: VoteKind;
  serverId: number;
  spec: RequestSpec;
}

export const newCursor = (): VoteCursor => ({ like: 0, campaign: 0, daily: 0, address: 0 });

/**
 * Where a run's addresses start, in networks (/24) of 10.0.0.0/8: with REDIS_URL the hourly
 * per-network limit's counters outlast a run, and a rerun from the same networks would hit it.
 */
export const randomFirstNetwork = () => Math.floor(Math.random() * 65_536);

/** The address of the `i`-th request: 256 requests a /24 network, one each an address. */
export function addressOf(plan: Pick<VotePlan, 'firstNetwork'>, i: number): string {
  const network = (plan.firstNetwork + (i >> 8)) % 65_536;
  return `10.${network >> 8}.${network & 255}.${i & 255}`;
}

/** The server of the `i`-th like: voter after voter, each round on other servers. */
export function likeServer(plan: Pick<VotePlan, 'auth' | 'servers'>, i: number): number {
  const voters = plan.auth.length;
  return plan.servers[((i % voters) * 7919 + Math.floor(i / voters)) % plan.servers.length]!;
}

/** The `i`-th daily vote's server: another walk, so it rarely lands where the same voter liked. */
const dailyServer = (plan: VotePlan, i: number) => {
  const voters = plan.auth.length;
  return plan.servers[((i % voters) * 104_729 + Math.floor(i / voters)) % plan.servers.length]!;
};

/** The `i`-th campaign vote's server: each voter goes through the ten in its own order, never one twice. */
const campaignServer = (plan: VotePlan, i: number) => {
  const voters = plan.auth.length;
  return plan.top[(Math.floor(i / voters) + (i % voters)) % plan.top.length]!;
};

/** How many campaign votes the plan has before a voter would vote on a server twice. */
export const campaignCapacity = (plan: VotePlan) => plan.auth.length * plan.top.length;

/**
 * The next vote of `kind`, advancing the cursor. A like is by the next voter in turn, every fifth
 * with a review; a campaign vote is a like on one of the ten; a daily vote is the once-a-day vote.
 */
export function nextVote(plan: VotePlan, cursor: VoteCursor, kind: VoteKind): BuiltVote {
  const voters = plan.auth.length;
  const address = addressOf(plan, cursor.address++);
  const headers = (i: number) => ({
    authorization: plan.auth[i % voters]!,
    'content-type': 'application/json',
    'x-forwarded-for': address,
  });
  if (kind === 'daily') {
    const i = cursor.daily++;
    const serverId = dailyServer(plan, i);
    return { kind, serverId, spec: { path: `/api/servers/${serverId}/vote`, method: 'POST', headers: headers(i), body: '{}' } };
  }
  if (kind === 'campaign') {
    const i = cursor.campaign++;
    if (i >= campaignCapacity(plan)) throw new Error(`the campaign ran out of voters (${campaignCapacity(plan)} votes)`);
    const serverId = campaignServer(plan, i);
    return { kind, serverId, spec: { path: `/api/servers/${serverId}/like`, method: 'POST', headers: headers(i), body: '{}' } };
  }
  const i = cursor.like++;
  const serverId = likeServer(plan, i);
  return {
    kind,
    serverId,
    spec: {
      path: `/api/servers/${serverId}/like`,
      method: 'POST',
      headers: headers(i),
      body: i % 5 === 0 ? JSON.stringify({ review: 'Seen in the benchmark: friendly staff.' }) : '{}',
    },
  };
}

/** A mix as a rule: which kind the `k`-th request of a load is. */
export type VoteMix = (k: number) => VoteKind;

/** Likes only. */
export const LIKES: VoteMix = () => 'like';
/** A campaign: a tenth of the votes go to the ten most-voted servers, the rest are likes spread over all. */
export const CAMPAIGN: VoteMix = (k) => (k % 10 === 0 ? 'campaign' : 'like');
/** Reads during a campaign: a tenth campaign likes, a quarter daily votes, the rest likes spread over all. */
export const CAMPAIGN_WITH_DAILY: VoteMix = (k) => (k % 10 === 0 ? 'campaign' : k % 4 === 3 ? 'daily' : 'like');

/** The mixes by name, for a child process (a function does not cross the process boundary). */
export const MIXES = { likes: LIKES, campaign: CAMPAIGN, 'campaign-with-daily': CAMPAIGN_WITH_DAILY } as const;
export type MixName = keyof typeof MIXES;

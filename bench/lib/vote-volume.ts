import { load } from './load';
import { fmt } from './output';
import { pick, type Row } from './report';
import { CAMPAIGN, LIKES } from './vote-plan';
import { accepted, type RunVotes } from './votes';

/** Votes a second the app must take. */
export const VOTES_TARGET = 2000;

/**
 * Votes at volume: likes by the seed's voters through the API as fast as `connections` keep-alive
 * connections send them, for `seconds`; then the same with a campaign, a tenth of the votes on the
 * ten most-voted servers (their rows are where votes wait on each other). Every vote is a voter's
 * first on its server, from an address of its own. Answers the rows and the likes answered 2xx.
 */
export async function votesAtVolume(options: {
  baseUrl: string;
  votes: RunVotes;
  seconds: number;
  connections: number;
  /** Waits for the app to rest (the votes before were written, the cards refreshed). */
  rest: () => Promise<void>;
}): Promise<{ rows: Row[]; likesAccepted: number }> {
  const voters = fmt(options.votes.plan.auth.length);
  const runs = [
    { target: `votes at volume (likes by ${voters} voters, ${options.seconds} s)`, mix: LIKES },
    { target: `votes in a campaign (a tenth on the ten most-voted, ${options.seconds} s)`, mix: CAMPAIGN },
  ];
  const rows: Row[] = [];
  let likesAccepted = 0;
  for (const run of runs) {
    await options.rest();
    const result = await load({
      baseUrl: options.baseUrl,
      seconds: options.seconds,
      connections: options.connections,
      next: options.votes.nextOf(run.mix),
    });
    likesAccepted += accepted(result.statuses);
    rows.push({
      target: run.target,
      kind: 'volume',
      path: 'POST /api/servers/{id}/like',
      ...pick(result),
      meetsTarget: result.rps >= VOTES_TARGET,
    });
    console.log(`  ${run.target.padEnd(60)} ${fmt(result.rps).padStart(7)} votes/s  p99 ${fmt(result.p99, 1)} ms`);
  }
  return { rows, likesAccepted };
}

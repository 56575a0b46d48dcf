import { measureReads } from './hot-read-ab';
import { fmt } from './output';
import type { Row } from './report';
import { startVoteStream, type StreamResult } from './vote-stream';
import { accepted, type RunVotes } from './votes';
import type { MixName } from './vote-plan';

/** How the table names each mix. */
const MIX_NAMES: Record<MixName, string> = {
  'campaign-with-daily': 'likes, a tenth campaign, a quarter daily',
  campaign: 'likes, a tenth campaign',
  likes: 'likes',
};

/** What the home page's Top 10 reads (the web app adds its `t=` timestamp, as the sampler does). */
export const TOP_10 = '/api/servers?sort=likes&limit=10';
/** The Top 10 may be this far behind the votes' answers at most. */
export const LAG_TARGET_MS = 1000;
/** The stream must keep this share of its rate, or the reads were not measured under the load meant. */
const RATE_KEPT = 0.95;

/** A list's lag as a row: its largest, with how many samples showed a server voted on. */
function lagRow(target: string, path: string, lag: StreamResult['lags'][number]): Row {
  return {
    target: `${target} (max; ${fmt(lag.compared)} of ${fmt(lag.samples)} samples showed a voted server, p99 ${fmt(lag.p99Ms)} ms)`,
    kind: 'mixed',
    path,
    value: `${fmt(lag.maxMs)} ms`,
    rps: 0,
    p50: 0,
    p99: lag.p99Ms,
    errors: lag.failed,
    non2xx: 0,
    statuses: {},
    requests: lag.samples,
    noLoad: true,
  };
}

/**
 * Reads during a vote campaign: every hot read A/B against the bare node:http limit (the same
 * answers recorded before) while likes and daily votes stream from another process at `rate` a
 * second, open loop, by the seed's voters (by default a tenth are campaign likes on the ten
 * most-voted servers, a quarter daily votes). The Top 10 is asked for every 100 ms meanwhile and compared with
 * the campaign votes' answers (`ListLag`). The app never rests during it: between turns there is
 * a short pause, not the wait for rest of the other scenarios.
 */
export async function readsDuringCampaign(options: {
  reads: ReadonlyArray<{ target: string; path: string }>;
  appUrl: string;
  baselineUrl: string;
  votes: RunVotes;
  rate: number;
  mix: MixName;
  seconds: number;
  slices: number;
  warmUp: boolean;
  connections: number;
  quick: boolean;
  /** The web build is there: `/home` is rendered with the Top 10, and sampled too. */
  html: boolean;
}): Promise<{ rows: Row[]; stream: StreamResult }> {
  const stream = await startVoteStream({
    baseUrl: options.appUrl,
    votes: options.votes,
    mix: options.mix,
    rate: options.rate,
    // Likes alone vote on no server of the Top 10 (the campaign's are left out): no lag to measure.
    samples:
      options.mix === 'likes'
        ? []
        : [
            { path: TOP_10, everyMs: 100 },
            // The home page as a shared link opens it: drawn with the Top 10 it was rendered from.
            ...(options.html ? [{ path: '/home', everyMs: 500, answer: TOP_10 }] : []),
          ],
  });
  let rows: Row[];
  let result: StreamResult;
  try {
    // The first second of the stream is the app's cold start on it: not measured.
    await new Promise((r) => setTimeout(r, options.quick ? 200 : 1000));
    rows = await measureReads({
      ...options,
      drain: () => new Promise((r) => setTimeout(r, 300)),
      kind: 'mixed',
      label: 'during votes: ',
    });
  } finally {
    result = await stream.stop();
  }
  const sent = result.sent.like + result.sent.campaign + result.sent.daily;
  const statuses: Record<string, number> = {};
  for (const kind of Object.values(result.statuses))
    for (const [code, n] of Object.entries(kind)) statuses[code] = (statuses[code] ?? 0) + n;
  const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
  const rps = sent / result.seconds;
  rows.push({
    target: `votes streamed meanwhile (${fmt(options.rate)}/s asked: ${MIX_NAMES[options.mix]})`,
    kind: 'mixed',
    path: 'POST /api/servers/{id}/like, /vote',
    rps,
    p50: result.p50,
    p99: result.p99,
    errors: result.errors,
    non2xx: answered - accepted(statuses),
    statuses,
    requests: sent,
    meetsTarget: rps >= options.rate * RATE_KEPT,
  });
  const [lag, page] = result.lags;
  if (lag)
    rows.push({
      ...lagRow(`Top 10 behind the votes' answers, sampled every 100 ms`, TOP_10, lag!),
      meetsTarget: lag!.maxMs <= LAG_TARGET_MS && lag!.failed === 0,
      ...(lag!.compared === 0
        ? { problem: 'no sample of the Top 10 showed a server a campaign vote had been answered on: the lag was not measured' }
        : {}),
    });
  // The first paint only (the app asks the API for the Top 10 as it starts): shown, not judged.
  if (page) rows.push(lagRow(`/home HTML's Top 10 behind them (its first paint), every 500 ms`, '/home', page));
  const behind = lag
    ? `, Top 10 behind at most ${fmt(lag.maxMs)} ms over ${fmt(lag.samples)} samples (${lag.watched} servers watched)`
    : '';
  console.log(`  votes: ${fmt(rps)}/s sent (p99 ${fmt(result.p99, 1)} ms, most behind ${fmt(result.behindMax)})${behind}`);
  return { rows, stream: result };
}

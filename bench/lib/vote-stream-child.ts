import http from 'node:http';
import type { ListLag } from './list-lag';
import { sampleList, type ListSample } from './list-sampler';
import { MIXES, nextVote, type MixName, type VoteCursor, type VoteKind, type VotePlan } from './vote-plan';

/**
 * The paced vote stream, in a process of its own (`vote-stream.ts` starts it): votes go out at a
 * fixed rate whatever the app answers (open loop, as a crowd of players does), beside a load
 * generator that keeps the benchmark process's event loop busy. Meanwhile it asks for each of
 * `samples` again and again and measures how far it is behind the votes' answers (`ListLag`).
 */
export interface StreamStart {
  baseUrl: string;
  plan: VotePlan;
  cursor: VoteCursor;
  mix: MixName;
  /** Votes a second. */
  rate: number;
  samples: ListSample[];
}

export interface StreamResult {
  cursor: VoteCursor;
  seconds: number;
  sent: Record<VoteKind, number>;
  statuses: Record<VoteKind, Record<string, number>>;
  /** Connection errors and timeouts. */
  errors: number;
  p50: number;
  p99: number;
  /** The most votes that were due but not sent because `MAX_IN_FLIGHT` were unanswered. */
  behindMax: number;
  /** Per sampled list, in the order asked. */
  lags: Array<ReturnType<ListLag['summary']>>;
}

/** Votes unanswered at once before the stream waits: a second's worth, past that the app is not keeping up. */
const MAX_IN_FLIGHT = 2000;
const TICK_MS = 5;
/** The bound the list's lag is judged by (the target), for counting samples past it. */
const LAG_BOUND_MS = 1000;

function run(start: StreamStart): { stop: () => Promise<StreamResult> } {
  const { plan, cursor, rate } = start;
  const mix = MIXES[start.mix];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const base = new URL(start.baseUrl);
  const statuses: StreamResult['statuses'] = { like: {}, campaign: {}, daily: {} };
  const sent: StreamResult['sent'] = { like: 0, campaign: 0, daily: 0 };
  const times: number[] = [];
  let errors = 0;
  let inFlight = 0;
  let behindMax = 0;
  let built = 0;
  const began = performance.now();
  const samplers = start.samples.map((sample) => sampleList(start.baseUrl, sample));

  const send = () => {
    const vote = nextVote(plan, cursor, mix(built++));
    sent[vote.kind]++;
    inFlight++;
    const at = performance.now();
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        agent,
        path: vote.spec.path,
        method: vote.spec.method,
        headers: vote.spec.headers,
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const now = performance.now();
          inFlight--;
          times.push(now - at);
          const code = String(res.statusCode);
          statuses[vote.kind][code] = (statuses[vote.kind][code] ?? 0) + 1;
          // A campaign like answers its server's card: the likes the database now holds at least.
          if (vote.kind === 'campaign' && res.statusCode === 200) {
            const { likes } = JSON.parse(Buffer.concat(chunks).toString()) as { likes: number };
            for (const sampler of samplers) sampler.lag.vote(vote.serverId, likes, now);
          }
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => {
      inFlight--;
      errors++;
    });
    request.end(vote.spec.body);
  };

  const ticker = setInterval(() => {
    const due = Math.floor(((performance.now() - began) * rate) / 1000);
    while (built < due && inFlight < MAX_IN_FLIGHT) send();
    behindMax = Math.max(behindMax, due - built);
  }, TICK_MS);

  return {
    stop: async () => {
      const seconds = (performance.now() - began) / 1000;
      clearInterval(ticker);
      await Promise.all(samplers.map((sampler) => sampler.stop()));
      // The answers still on their way count; past 10 s they are the app's problem, not the stream's.
      const until = performance.now() + 10_000;
      while (inFlight > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
      agent.destroy();
      const sorted = times.sort((a, b) => a - b);
      const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
      return {
        cursor,
        seconds,
        sent,
        statuses,
        errors: errors + inFlight,
        p50: pct(0.5),
        p99: pct(0.99),
        behindMax,
        lags: samplers.map((sampler) => sampler.lag.summary(LAG_BOUND_MS)),
      };
    },
  };
}

let running: ReturnType<typeof run> | undefined;
process.on('message', (message: { type: 'start'; start: StreamStart } | { type: 'stop' }) => {
  if (message.type === 'start') {
    running = run(message.start);
    process.send!({ type: 'started' });
  } else if (running) {
    void running.stop().then((result) => process.send!({ type: 'done', result }, () => process.exit(0)));
  }
});

import http from 'node:http';
import { createTokenService } from '../../src/server/modules/auth';
import { BENCH_JWT_SECRET } from '../lib/app-process';
import { clock } from './instance';
import { NAME_WORDS } from './seed';

/** What the load sends: reads, and the three writes a player makes (like, join, daily vote). */
export type Kind = 'read' | 'like' | 'join' | 'vote';
export const KINDS: readonly Kind[] = ['read', 'like', 'join', 'vote'];
export type WriteKind = Exclude<Kind, 'read'>;

interface Planned {
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The user and server of a write: each (kind, user, server) is sent at most once in a run. */
  user?: number;
  server?: number;
}

/** One request as the load generator saw it. */
export interface Outcome {
  id: number;
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  user?: number;
  server?: number;
  /** When it was sent and when its answer ended or it failed (ms since the epoch). */
  start: number;
  end: number;
  /** The answer's status; 0 when there was none (a connection error, a cut-off answer). */
  status: number;
  error?: string;
}

export const ok = (o: Outcome) => o.status >= 200 && o.status < 300;

/**
 * The request mix, built afresh for each request: 60 % reads (lists, a server's page, a search,
 * the home feeds), 20 % likes, 10 % joins and 10 % daily votes. Writes go user after user over the
 * seed's voters (kept free of likes, joins and daily votes), each on a server that user never
 * wrote to in that kind, each from an address of its own as the proxy reports it: no write is
 * refused as a repeat or by a rate limit, so every answer but 200 is a failure.
 */
export async function requestMix([firstVoter, lastVoter]: [number, number], visible: readonly number[]) {
  const tokens = createTokenService(BENCH_JWT_SECRET);
  const voters = lastVoter - firstVoter + 1;
  const auth: string[] = [];
  for (let i = 0; i < voters; i++) auth.push(`Bearer ${await tokens.sign({ userId: firstVoter + i, version: 0 })}`);
  const sent: Record<WriteKind, number> = { like: 0, join: 0, vote: 0 };
  // Addresses start in a random /24 of 10.0.0.0/8, 256 requests to a network: far below the hourly per-network limit.
  const firstNetwork = Math.floor(Math.random() * 65_536);
  let writes = 0;
  let reads = 0;
  const address = (n: number) => {
    const network = (firstNetwork + (n >> 8)) % 65_536;
    return `10.${network >> 8}.${network & 255}.${n & 255}`;
  };
  const READS = [
    () => '/api/servers',
    () => '/api/servers?sort=hot',
    () => `/api/servers/${visible[(reads * 31) % visible.length]}`,
    () => `/api/servers?q=${NAME_WORDS[reads % NAME_WORDS.length]}&limit=${20 + (reads % 30)}`,
    () => '/api/servers/just-joined',
    () => '/api/rankings/votes',
  ];
  const write = (kind: WriteKind): Planned => {
    const k = sent[kind]++;
    const n = writes++;
    const userIndex = k % voters;
    // A user's j-th write of a kind goes to the j-th server after the user's own first one: never
    // the same server twice in a kind (likes, joins and daily votes are rows of separate tables).
    const server = visible[(userIndex * 7919 + Math.floor(k / voters)) % visible.length]!;
    const path = `/api/servers/${server}/${kind}`;
    const body =
      kind === 'vote'
        ? JSON.stringify({ playerName: `ops_${userIndex}` })
        : kind === 'like' && n % 5 === 0
          ? JSON.stringify({ review: 'Seen in the restart test: friendly staff.' })
          : '{}';
    return {
      kind,
      method: 'POST',
      path,
      headers: { authorization: auth[userIndex]!, 'content-type': 'application/json', 'x-forwarded-for': address(n) },
      body,
      user: firstVoter + userIndex,
      server,
    };
  };
  let n = 0;
  return {
    voters,
    next(): Planned {
      const slot = n++ % 20;
      if (slot < 12) {
        const path = READS[reads % READS.length]!();
        reads++;
        return { kind: 'read', method: 'GET', path, headers: { 'accept-encoding': 'gzip, br', 'x-forwarded-for': address(reads) } };
      }
      return write(slot < 16 ? 'like' : slot < 18 ? 'join' : 'vote');
    },
  };
}

export type RequestMix = Awaited<ReturnType<typeof requestMix>>;

/** Sends one request on the agent's kept-alive connections; never throws: a failure is an outcome. */
function send(url: string, agent: http.Agent, id: number, plan: Planned): Promise<Outcome> {
  const start = clock();
  const base = { id, kind: plan.kind, method: plan.method, path: plan.path, user: plan.user, server: plan.server, start };
  return new Promise((resolve) => {
    let done = false;
    const finish = (status: number, error?: string) => {
      if (done) return;
      done = true;
      resolve({ ...base, end: clock(), status, ...(error ? { error } : {}) });
    };
    const req = http.request(
      url + plan.path,
      { method: plan.method, agent, headers: { ...plan.headers, 'x-ops-request': String(id) } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => finish(res.statusCode ?? 0));
        res.on('close', () => {
          if (!res.complete) finish(0, 'answer cut off');
        });
        res.on('error', (e: NodeJS.ErrnoException) => finish(0, e.code ?? e.message));
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error('no answer within 20 s')));
    req.on('error', (e: NodeJS.ErrnoException) => finish(0, e.code ?? e.message));
    req.end(plan.body);
  });
}

export interface Load {
  /** Outcomes so far (still growing while the load runs). */
  outcomes: Outcome[];
  /** Stops sending and answers every outcome once the requests in flight have ended. */
  stop(): Promise<Outcome[]>;
}

/**
 * A bounded load: `connections` clients, each sending its next request when its answer came,
 * together at most `rate` requests a second (never catching up in a burst after a slow stretch),
 * until `stop` or `maxSeconds`, whichever comes first.
 */
/** Request ids stay unique across the loads of one run: nginx's log names each request by its id. */
let lastId = 0;

export function startLoad(options: { url: string; connections: number; rate: number; maxSeconds: number; mix: RequestMix }): Load {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const outcomes: Outcome[] = [];
  const interval = 1000 / options.rate;
  const until = clock() + options.maxSeconds * 1000;
  let next = clock();
  let stopped = false;
  const client = async () => {
    while (!stopped && clock() < until) {
      const slot = Math.max(next, clock());
      next = slot + interval;
      const wait = slot - clock();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (stopped) break;
      outcomes.push(await send(options.url, agent, ++lastId, options.mix.next()));
    }
  };
  const clients = Promise.all(Array.from({ length: options.connections }, client));
  return {
    outcomes,
    stop: async () => {
      stopped = true;
      await clients;
      agent.destroy();
      return outcomes;
    },
  };
}

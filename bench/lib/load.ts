import autocannon from 'autocannon';

export const CONNECTIONS = 50;

/** What a browser sends that changes the answer: compressed bodies are part of what is measured. */
export const READ_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };

/** One measured load run, or several combined. */
export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Answers outside 2xx. */
  non2xx: number;
  requests: number;
  /** Count of answers per status code. */
  statuses: Record<string, number>;
}

export interface RequestSpec {
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Drives `baseUrl` with autocannon from this process: `connections` keep-alive connections for
 * `seconds`. With `next`, every request is built afresh (a different query, user or server each time).
 */
export async function load(options: {
  baseUrl: string;
  seconds: number;
  connections?: number;
  request?: RequestSpec;
  next?: () => RequestSpec;
}): Promise<Measured> {
  const { next } = options;
  const result = await autocannon({
    url: options.baseUrl + (options.request?.path ?? '/'),
    connections: options.connections ?? CONNECTIONS,
    duration: options.seconds,
    method: options.request?.method ?? 'GET',
    headers: options.request?.headers,
    body: options.request?.body,
    timeout: 10,
    ...(next
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => {
                const spec = next();
                return { ...req, path: spec.path, method: spec.method ?? 'GET', headers: spec.headers ?? {}, body: spec.body };
              },
            },
          ],
        }
      : {}),
  });
  const statuses: Record<string, number> = {};
  const stats = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  for (const [code, s] of Object.entries(stats)) statuses[code] = s.count;
  return {
    rps: result.requests.total / Math.max(result.duration, 0.001),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
    statuses,
  };
}

/**
 * Several runs of one target as one, the worst p50 and p99 of the runs: runs one after another
 * give the throughput over the whole time, runs at the same time (one per instance) their sum.
 */
export function combine(runs: Measured[], { concurrent = false } = {}): Measured {
  const statuses: Record<string, number> = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const rps = runs.reduce((s, r) => s + r.rps, 0);
  return {
    rps: concurrent ? rps : rps / runs.length,
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
    requests: runs.reduce((s, r) => s + r.requests, 0),
    statuses,
  };
}

/**
 * The app and the baseline in turns (app, baseline, app, baseline…), `slices` turns each of
 * `seconds / slices`, so a neighbour's burst of CPU lands on both sides alike. A short unmeasured
 * run of each warms the JIT and the app's caches first.
 */
export async function alternate(options: {
  appUrl: string;
  baselineUrl: string | undefined;
  request: RequestSpec;
  seconds: number;
  slices: number;
  warmUp: boolean;
  connections?: number;
  /** Called after each run of the app: waits until it has finished what the run left in flight. */
  drain: () => Promise<void>;
}): Promise<{ app: Measured; baseline: Measured | undefined }> {
  const connections = options.connections ?? CONNECTIONS;
  const slice = options.seconds / options.slices;
  if (options.warmUp) {
    await load({ baseUrl: options.appUrl, seconds: 1, connections: 10, request: options.request });
    await options.drain();
    if (options.baselineUrl) await load({ baseUrl: options.baselineUrl, seconds: 1, connections: 10, request: options.request });
  }
  const app: Measured[] = [];
  const baseline: Measured[] = [];
  for (let i = 0; i < options.slices; i++) {
    app.push(await load({ baseUrl: options.appUrl, seconds: slice, connections, request: options.request }));
    await options.drain();
    if (options.baselineUrl)
      baseline.push(await load({ baseUrl: options.baselineUrl, seconds: slice, connections, request: options.request }));
  }
  return { app: combine(app), baseline: baseline.length > 0 ? combine(baseline) : undefined };
}

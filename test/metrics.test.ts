import net from 'node:net';
import parsePrometheusTextFormat, { type PrometheusSample } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { testDatabaseKind } from './helpers/test-db';
import { loadConfig } from '../src/server/config';
import { appMetrics } from '../src/server/plugins/metrics-registry';
import { FANOUT_QUEUE } from '../src/server/modules/notifications';
import { MASS_EMAIL_QUEUE } from '../src/server/modules/email';
import { VOTE_REWARDS_QUEUE } from '../src/server/modules/vote-rewards';

const TOKEN = 'metrics-token-0123456789';
const GAME_PORT = 30120;

/** A free TCP port on 127.0.0.1 (closed again at once, for the app's own listener). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Every series of the scrape by sample name. The parser folds all labelled series of a histogram
 * into one, so histograms are read without their TYPE line: each `_bucket`, `_sum` and `_count`
 * line then comes as a sample of its own, labels and all.
 */
function parse(text: string): Map<string, PrometheusSample[]> {
  const samples = new Map<string, PrometheusSample[]>();
  for (const family of parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram$/gm, ''))) {
    samples.set(family.name, [...(samples.get(family.name) ?? []), ...family.metrics]);
  }
  return samples;
}

/** The value of the one series of `name` whose labels include `labels`. */
function valueOf(samples: Map<string, PrometheusSample[]>, name: string, labels: Record<string, string> = {}): number {
  const found = (samples.get(name) ?? []).filter((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
  expect(found, `${name} ${JSON.stringify(labels)}`).toHaveLength(1);
  return Number(found[0]!.value);
}

let t: TestApp;
let metricsPort: number;
let serverId: number;
const scrape = (authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

beforeAll(async () => {
  metricsPort = await freePort();
  t = await createTestApp({
    env: { METRICS_TOKEN: TOKEN, METRICS_PORT: String(metricsPort) },
    // Pages cached for a minute, so a second read is a hit; the fake game answers every poll.
    build: {
      listCacheTtlMs: 60_000,
      gamePoll: { allowTargets: [`127.0.0.1:${GAME_PORT}`] },
      gameQuery: async () => ({ online: true, players: 3, maxPlayers: 10 }),
    },
  });
  const { db } = t.app.ctx;
  const owner = await createUser(t.app, { role: 'server_owner' });
  serverId = (await createServer(t.app, owner.row.id)).id;

  // Rows waiting for review: two votes, one join, three daily votes (one counted besides).
  const voters = await Promise.all(Array.from({ length: 4 }, () => createUser(t.app)));
  for (const [i, voter] of voters.entries()) {
    const status = i < 2 ? 'held' : 'counted';
    await db.insertInto('votes').values({ userId: voter.row.id, serverId, type: 'like', review: null, status }).execute();
    await db
      .insertInto('dailyVotes')
      .values({ userId: voter.row.id, serverId, playerName: null, status: i < 3 ? 'held' : 'counted' })
      .execute();
  }
  await db.insertInto('joins').values({ userId: voters[0]!.row.id, serverId, status: 'held' }).execute();

  // A game server 90 s overdue for its poll, and a pending claim 30 s overdue for its check.
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
  const polled = await createServer(t.app, owner.row.id);
  await db
    .updateTable('servers')
    .set({ game: 'fivem', gameHost: '127.0.0.1', gamePort: GAME_PORT, nextPollAt: ago(90) })
    .where('id', '=', polled.id)
    .execute();
  await db
    .insertInto('gameClaims')
    .values({
      serverId,
      game: 'fivem',
      host: '127.0.0.1',
      hostKey: '127.0.0.1',
      port: GAME_PORT,
      ip: null,
      cfxCode: null,
      code: 'rps-TEST01',
      status: 'pending',
      nextCheckAt: ago(30),
    })
    .execute();
  // A job that waits an hour before it may run.
  await t.app.ctx.queue.send(FANOUT_QUEUE, { promotionId: 1 }, { startAfter: 3600 });

  // A 200 (three times: a page is held from its second ask, so the third is from the page cache), a
  // 404 and a 400 on one route, and a path no route has.
  for (const url of [
    `/api/servers/${serverId}`,
    `/api/servers/${serverId}`,
    `/api/servers/${serverId}`,
    '/api/servers/999999999',
    '/api/servers/abc',
    '/api/no-such-thing',
  ]) {
    await t.app.inject({ method: 'GET', url });
  }
});
afterAll(() => t.close());

describe('GET /metrics', () => {
  it('answers only with the token: 401 without one or with another', async () => {
    const none = await scrape();
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toContain('Bearer');
    expect(none.body).not.toContain('http_request_duration_seconds');
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(`Basic ${TOKEN}`)).statusCode).toBe(401);
    const ok = await scrape(`Bearer ${TOKEN}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('times requests by route pattern and status class, never by the path asked for', async () => {
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(text).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
    const counts = parse(text).get('http_request_duration_seconds_count') ?? [];
    const series = (route: string, statusClass: string) =>
      counts.find((s) => s.labels?.route === route && s.labels.status_class === statusClass && s.labels.method === 'GET');
    expect(Number(series('/api/servers/:id', '2xx')?.value)).toBe(3);
    // The unknown server (404) and the id that is not a number (400).
    expect(Number(series('/api/servers/:id', '4xx')?.value)).toBe(2);
    expect(Number(series('unmatched', '4xx')?.value)).toBeGreaterThanOrEqual(1);
    for (const { labels } of counts) {
      expect(labels?.route).not.toMatch(/\d{3,}|abc|no-such-thing/);
      expect(labels?.status_class).toMatch(/^[1-5]xx$/);
    }
    // Cumulative buckets, the last (+Inf) holding every request of the series.
    const buckets = (parse(text).get('http_request_duration_seconds_bucket') ?? []).filter(
      (s) => s.labels?.route === '/api/servers/:id' && s.labels.status_class === '2xx',
    );
    expect(buckets.at(-1)?.labels?.le).toBe('+Inf');
    expect(Number(buckets.at(-1)?.value)).toBe(3);
    const cumulative = buckets.map((s) => Number(s.value));
    expect(cumulative).toEqual([...cumulative].sort((a, b) => a - b));
  });

  it('has the process and event-loop metrics', async () => {
    const samples = parse((await scrape(`Bearer ${TOKEN}`)).body);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(samples.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  it('reads the pool, the queues, the held votes and the caches when scraped', async () => {
    const samples = parse((await scrape(`Bearer ${TOKEN}`)).body);
    if (testDatabaseKind === 'postgres') {
      const total = valueOf(samples, 'rp_db_pool_connections', { engine: 'postgres', state: 'total' });
      expect(total).toBeGreaterThanOrEqual(1);
      expect(total).toBeLessThanOrEqual(5); // the test database's pool
      expect(valueOf(samples, 'rp_db_pool_connections', { state: 'idle' })).toBeLessThanOrEqual(total);
      expect(valueOf(samples, 'rp_db_pool_waiting_requests')).toBeGreaterThanOrEqual(0);
    } else {
      expect(valueOf(samples, 'rp_db_pool_connections', { engine: 'pglite', state: 'total' })).toBe(1);
    }

    expect(valueOf(samples, 'rp_queue_jobs_waiting', { queue: FANOUT_QUEUE })).toBe(1);
    for (const queue of [MASS_EMAIL_QUEUE, VOTE_REWARDS_QUEUE]) expect(valueOf(samples, 'rp_queue_jobs_waiting', { queue })).toBe(0);
    for (const queue of [FANOUT_QUEUE, MASS_EMAIL_QUEUE, VOTE_REWARDS_QUEUE])
      expect(valueOf(samples, 'rp_queue_job_failures_total', { queue })).toBe(0);

    expect(valueOf(samples, 'rp_votes_held', { kind: 'votes' })).toBe(2);
    expect(valueOf(samples, 'rp_votes_held', { kind: 'joins' })).toBe(1);
    expect(valueOf(samples, 'rp_votes_held', { kind: 'daily_votes' })).toBe(3);

    // Three identical reads of one server page: the third came from the cache.
    expect(valueOf(samples, 'rp_cache_lookups_total', { cache: 'pages', result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'rp_cache_lookups_total', { cache: 'pages', result: 'miss' })).toBeGreaterThanOrEqual(1);
    for (const cache of ['front', 'lists', 'feeds'])
      expect(samples.get('rp_cache_lookups_total')?.some((s) => s.labels?.cache === cache)).toBe(true);
  });

  it('shows how overdue the poller is, and counts polls by outcome', async () => {
    const before = parse((await scrape(`Bearer ${TOKEN}`)).body);
    const serverLag = valueOf(before, 'rp_game_poll_lag_seconds', { kind: 'server' });
    expect(serverLag).toBeGreaterThanOrEqual(90);
    expect(serverLag).toBeLessThan(300);
    const claimLag = valueOf(before, 'rp_game_poll_lag_seconds', { kind: 'claim' });
    expect(claimLag).toBeGreaterThanOrEqual(30);
    expect(claimLag).toBeLessThan(serverLag);
    expect(valueOf(before, 'rp_game_polls_due', { kind: 'server' })).toBe(1);
    expect(valueOf(before, 'rp_game_polls_total', { outcome: 'answered' })).toBe(0);

    await t.app.ctx.gameStatus.pollDue();
    const after = parse((await scrape(`Bearer ${TOKEN}`)).body);
    expect(valueOf(after, 'rp_game_polls_total', { outcome: 'answered' })).toBe(1);
    expect(valueOf(after, 'rp_game_polls_total', { outcome: 'failed' })).toBe(0);
  });

  it('counts hot reads answered from memory before routing', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    for (let i = 0; i < 3; i++) await fetch(`${address}/api/player-count`).then((r) => r.arrayBuffer());
    const samples = parse((await scrape(`Bearer ${TOKEN}`)).body);
    expect(valueOf(samples, 'rp_cache_lookups_total', { cache: 'front', result: 'hit' })).toBeGreaterThanOrEqual(2);
    const front = (samples.get('http_request_duration_seconds_count') ?? []).find(
      (s) => s.labels?.route === 'front-cache' && s.labels.status_class === '2xx',
    );
    expect(Number(front?.value)).toBeGreaterThanOrEqual(2);
  });

  it('counts requests whose client hung up before their answer, by route pattern, apart from answered ones', async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const login = (body: string, sent: string) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(
        `POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${sent}`,
      );
      return socket;
    };
    const user = await createUser(t.app);
    const body = JSON.stringify({ username: user.row.username, password: 'not-the-password' });
    // Hung up once the app has both requests (their headers read and routed): a fixed wait was
    // sometimes too short on a busy machine, and a request hung up before it is read has no route.
    const bothArrived = new Promise<void>((resolve) => {
      let arrived = 0;
      const onRequest = (request: { url?: string }) => {
        if (request.url !== '/api/login' || ++arrived < 2) return;
        t.app.server.off('request', onRequest);
        resolve();
      };
      t.app.server.on('request', onRequest);
    });
    // An upload given up half-way (its body never ends), and a whole login hung up while its
    // password is checked (argon2 takes tens of milliseconds): its answer is written to nobody.
    const halfSent = login(body, body.slice(0, 10));
    const whole = login(body, body);
    await bothArrived;
    halfSent.destroy();
    whole.destroy();

    const abandoned = async () =>
      (parse((await scrape(`Bearer ${TOKEN}`)).body).get('http_requests_abandoned_total') ?? []).filter(
        (s) => s.labels?.route === '/api/login' && s.labels.method === 'POST',
      );
    await expect.poll(async () => Number((await abandoned())[0]?.value ?? 0), { timeout: 5000 }).toBe(2);
    const samples = parse((await scrape(`Bearer ${TOKEN}`)).body);
    // What was answered is not counted as given up.
    expect(samples.get('http_requests_abandoned_total')?.filter((s) => s.labels?.route !== '/api/login')).toEqual([]);
    // Never answered, so never timed as an answer.
    expect((samples.get('http_request_duration_seconds_count') ?? []).filter((s) => s.labels?.route === '/api/login')).toEqual([]);
  });

  it('answers without a token on its own listener at 127.0.0.1, and only /metrics there', async () => {
    await t.app.ready();
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(parse(await res.text()).has('rp_votes_held')).toBe(true);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/servers`)).status).toBe(404);
  });
});

describe('without METRICS_TOKEN', () => {
  it('answers 404', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('process_');
    } finally {
      await plain.close();
    }
  });
});

describe('metrics configuration', () => {
  it('refuses a short token and a metrics port equal to the app port', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadConfig({ PORT: '4000', METRICS_PORT: '4000' })).toThrow(/METRICS_PORT: must differ from PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
    expect(loadConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' }).metrics).toEqual({ token: TOKEN, port: 9464 });
  });
});

describe('job failures', () => {
  it('counts each failed attempt of a worker and hands the error on to the queue', async () => {
    const metrics = appMetrics();
    let fail = true;
    const handler = metrics.countFailures('some-queue', async () => {
      if (fail) throw new Error('delivery refused');
    });
    expect(valueOf(parse(await metrics.registry.metrics()), 'rp_queue_job_failures_total', { queue: 'some-queue' })).toBe(0);
    await expect(handler()).rejects.toThrow('delivery refused');
    fail = false;
    await handler();
    expect(valueOf(parse(await metrics.registry.metrics()), 'rp_queue_job_failures_total', { queue: 'some-queue' })).toBe(1);
  });
});

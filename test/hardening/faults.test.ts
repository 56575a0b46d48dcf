import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createServer, createUser, type TestUser } from '../helpers/factories';
import { testDatabaseKind } from '../helpers/test-db';
import { openProxiedTestDatabase, type ProxiedDatabase } from '../helpers/proxied-postgres';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { report, scale } from './report';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Outcome {
  kind: 'read' | 'write';
  status: number;
  ms: number;
  retryAfter: boolean;
  at: number;
  pair?: [number, number];
}

/** Tallies of one scenario for its report row. */
function summarise(outcomes: Outcome[]) {
  return {
    requests: outcomes.length,
    unavailable: outcomes.filter((o) => o.status === 503).length,
    maxMs: Math.max(0, ...outcomes.map((o) => o.ms)),
  };
}

describe.skipIf(testDatabaseKind !== 'postgres')(
  'faults: the database and Redis go away under load (PostgreSQL only: the embedded database runs in-process and cannot be cut off)',
  () => {
    let db: ProxiedDatabase;
    let t: TestApp;
    let players: TestUser[];
    let serverIds: number[];
    let nextPair = 0;

    beforeAll(async () => {
      db = await openProxiedTestDatabase({ poolSize: 5, connectionTimeoutMs: 1000, statementTimeoutMs: 2000 });
      t = await createTestApp({ build: { database: db.handle } });
      const owner = await createUser(t.app, { role: 'server_owner' });
      serverIds = [];
      for (let i = 0; i < 4; i++) serverIds.push((await createServer(t.app, owner.row.id)).id);
      players = [];
      for (let i = 0; i < 150; i++) players.push(await createUser(t.app));
    });
    afterAll(async () => {
      await t?.close();
      await db?.close();
    });

    /** How one request went: `inject` and its answer, timed from `started`. */
    const outcomeOf = (kind: Outcome['kind'], started: number, res: { statusCode: number; headers: Record<string, unknown> }) => ({
      kind,
      status: res.statusCode,
      ms: Date.now() - started,
      retryAfter: res.headers['retry-after'] !== undefined,
      at: started,
    });

    /** A join by a user/server pair not used before: a write that needs the database every time. */
    const join = async (user: TestUser, serverId: number): Promise<Outcome> => {
      const started = Date.now();
      const res = await t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/join`, headers: user.headers });
      return { ...outcomeOf('write', started, res), pair: [user.row.id, serverId] };
    };

    /** One request of the mix: mostly reads, every third a join (a write with a unique user/server pair). */
    const one = async (i: number): Promise<Outcome> => {
      if (i % 3 === 0 && nextPair < players.length * serverIds.length) {
        const n = nextPair++;
        return join(players[n % players.length]!, serverIds[Math.floor(n / players.length)]!);
      }
      const started = Date.now();
      const res = await t.app.inject({ url: i % 2 ? '/api/servers' : `/api/servers/${serverIds[i % serverIds.length]}` });
      return outcomeOf('read', started, res);
    };

    /** `concurrency` loops of requests until `stop()` says so. */
    const load = (concurrency: number) => {
      const outcomes: Outcome[] = [];
      let running = true;
      let i = 0;
      const loops = Array.from({ length: concurrency }, async () => {
        while (running) {
          outcomes.push(await one(i++));
          await wait(5);
        }
      });
      return {
        outcomes,
        stop: async () => {
          running = false;
          await Promise.all(loops);
          return outcomes;
        },
      };
    };

    /** Every join that answered 2xx is in the database. */
    const lostWrites = async (outcomes: Outcome[]) => {
      const acknowledged = outcomes.filter((o) => o.kind === 'write' && o.status >= 200 && o.status < 300);
      const rows = await db.direct.db.selectFrom('joins').select(['userId', 'serverId']).execute();
      const stored = new Set(rows.map((r) => `${r.userId}:${r.serverId}`));
      return { acknowledged: acknowledged.length, lost: acknowledged.filter((o) => !stored.has(`${o.pair![0]}:${o.pair![1]}`)).length };
    };

    /** Time from `from` until a read answers 200 again. */
    const recovery = async (from: number, limitMs: number) => {
      while (Date.now() - from < limitMs) {
        if ((await t.app.inject({ url: '/api/servers' })).statusCode === 200) return Date.now() - from;
        await wait(50);
      }
      return Infinity;
    };

    it('(a) pg_terminate_backend on the app’s connections during load: nothing but 503, no crash', async () => {
      const running = load(6);
      const rounds = scale(3, 10);
      for (let r = 0; r < rounds; r++) {
        await wait(300);
        await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${db.name} AND pid <> pg_backend_pid()`.execute(
          db.direct.db,
        );
      }
      await wait(300);
      const outcomes = await running.stop();
      const failures = outcomes.filter((o) => o.status >= 500 && !(o.status === 503 && o.retryAfter));
      const { acknowledged, lost } = await lostWrites(outcomes);
      const recoveredMs = await recovery(Date.now(), 5000);
      const s = summarise(outcomes);
      report({
        area: 'Faults',
        check: '(a) backends terminated under load',
        tried: s.requests,
        gotThrough: failures.length + lost + (recoveredMs === Infinity ? 1 : 0),
        detail: `${rounds} terminations; ${s.unavailable} × 503; other 5xx ${failures.length}; max ${s.maxMs} ms; ${acknowledged} writes acknowledged, ${lost} lost; recovered in ${recoveredMs} ms`,
      });
      expect(failures).toEqual([]);
      expect(lost).toBe(0);
      expect(recoveredMs).toBeLessThan(5000);
    });

    it('(b) the database refuses connections for a while: fast 503s, /api/ready 503, recovery, no acknowledged write lost', async () => {
      const outageMs = scale(3000, 10_000);
      const running = load(6);
      await wait(300);
      await db.proxy.refuse();
      const down = Date.now();
      await wait(outageMs / 2);
      const ready = await t.app.inject({ url: '/api/ready' });
      await wait(outageMs / 2);
      await db.proxy.resume();
      const up = Date.now();
      const recoveredMs = await recovery(up, 5000);
      await wait(300);
      const outcomes = await running.stop();
      const during = outcomes.filter((o) => o.at >= down && o.at < up);
      const slow = during.filter((o) => o.ms > 2000);
      const failures = outcomes.filter((o) => o.status >= 500 && !(o.status === 503 && o.retryAfter));
      const { acknowledged, lost } = await lostWrites(outcomes);
      const s = summarise(during);
      report({
        area: 'Faults',
        check: `(b) database refusing connections for ${outageMs / 1000} s`,
        tried: outcomes.length,
        gotThrough: failures.length + slow.length + lost + (ready.statusCode === 503 ? 0 : 1) + (recoveredMs > 5000 ? 1 : 0),
        detail: `during: ${s.requests} requests, ${s.unavailable} × 503, max ${s.maxMs} ms; other 5xx ${failures.length}; /api/ready ${ready.statusCode}; recovered in ${recoveredMs} ms; ${acknowledged} writes acknowledged, ${lost} lost`,
      });
      expect(s.unavailable).toBeGreaterThan(0);
      expect(slow).toEqual([]);
      expect(failures).toEqual([]);
      expect(ready.statusCode).toBe(503);
      expect(recoveredMs).toBeLessThan(5000);
      expect(lost).toBe(0);
    });

    it('(d) a slow database: connection waits and statements are bounded, load is shed with 503 instead of queueing', async () => {
      // Every request a write, on a server of its own (fresh pairs whatever the runs before used):
      // reads are answered from memory, so only writes queue for the pool's 5 connections, and 30 of
      // them at 150 ms a packet wait past its 1 s for some to be shed.
      const owner = await createUser(t.app, { role: 'server_owner' });
      const serverId = (await createServer(t.app, owner.row.id)).id;
      const concurrency = scale(30, 60);
      db.proxy.setLatency(150);
      const started = Date.now();
      const outcomes = await Promise.all(players.slice(0, concurrency).map((player) => join(player, serverId)));
      const elapsed = Date.now() - started;
      db.proxy.setLatency(0);
      // Pool wait (1 s) plus a few round trips at 150 ms each: anything far beyond is unbounded queueing.
      const tooSlow = outcomes.filter((o) => o.ms > 4000);
      const failures = outcomes.filter((o) => !(o.status === 200 || (o.status === 503 && o.retryAfter)));
      const statement = await sql`SELECT pg_sleep(5)`.execute(t.app.ctx.db).then(
        () => 'finished',
        (e: { code?: string }) => e.code ?? 'error',
      );
      const s = summarise(outcomes);
      const recoveredMs = await recovery(Date.now(), 5000);
      report({
        area: 'Faults',
        check: '(d) slow database (150 ms per packet)',
        tried: s.requests,
        gotThrough: tooSlow.length + failures.length + (statement === '57014' ? 0 : 1),
        detail: `${s.requests - s.unavailable} × 200, ${s.unavailable} × 503, other ${failures.length}; max ${s.maxMs} ms (all in ${elapsed} ms); pg_sleep(5) ended with ${statement}; recovered in ${recoveredMs} ms`,
      });
      expect(s.unavailable).toBeGreaterThan(0);
      expect(tooSlow).toEqual([]);
      expect(failures).toEqual([]);
      expect(statement).toBe('57014');
    });
  },
);

describe.skipIf(testDatabaseKind !== 'postgres')('faults: Redis goes away (PostgreSQL only, with the database faults)', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  beforeAll(async () => {
    proxy = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    t = await createTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}` },
      build: { rateLimits: { resetPerUsername: { max: 3, windowMs: 60_000 }, resetPerIp: { max: 10_000, windowMs: 60_000 } } },
    });
    await t.app.ready();
    await wait(300);
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  it('(c) the app keeps serving and brute-force limits keep holding while Redis is down', async () => {
    await proxy.refuse();
    const usernames = scale(5, 30);
    let reads = 0;
    let readFailures = 0;
    let allowedBeyondLimit = 0;
    let attempts = 0;
    let maxMs = 0;
    for (let u = 0; u < usernames; u++) {
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/reset-password/request',
          remoteAddress: '10.77.0.1',
          payload: { username: `victim_${u}` },
        });
        maxMs = Math.max(maxMs, Date.now() - started);
        attempts++;
        if (i >= 3 && res.statusCode !== 429) allowedBeyondLimit++;
      }
      reads++;
      if ((await t.app.inject({ url: '/api/servers' })).statusCode !== 200) readFailures++;
    }
    await proxy.resume();
    report({
      area: 'Faults',
      check: '(c) Redis unreachable: limits fall back to memory',
      tried: attempts + reads,
      gotThrough: allowedBeyondLimit + readFailures,
      detail: `${attempts} reset requests for ${usernames} accounts (limit 3): ${allowedBeyondLimit} beyond the limit allowed; ${reads} reads, ${readFailures} failed; max ${maxMs} ms`,
    });
    expect(allowedBeyondLimit).toBe(0);
    expect(readFailures).toBe(0);
  });
});

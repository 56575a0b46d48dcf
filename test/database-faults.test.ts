import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { captureLogs } from './helpers/log-capture';
import { testDatabaseKind } from './helpers/test-db';
import { openProxiedTestDatabase, type ProxiedDatabase } from './helpers/proxied-postgres';
import { isDatabaseUnavailable } from '../src/server/db/unavailable';

const UNAVAILABLE = { error: 'The service is briefly unavailable. Please try again in a moment.', code: 'unavailable' };

describe('connection-level database errors answer 503 with Retry-After, logged at warn', () => {
  let t: TestApp;
  const logs = captureLogs('warn');
  const faults: Record<string, () => Error> = {
    refused: () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    reset: () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
    adminShutdown: () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    cannotConnectNow: () => Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    connectionFailure: () => Object.assign(new Error('connection failure'), { code: '08006' }),
    statementTimeout: () => Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    poolTimeout: () => new Error('timeout exceeded when trying to connect'),
    terminated: () => new Error('Connection terminated unexpectedly'),
    wrapped: () => new Error('query failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }),
  };
  beforeAll(async () => {
    t = await createTestApp({ build: { logger: logs.logger } });
    // Routes that fail the way the drivers do; added before the app is ready.
    t.app.get('/test-fault/:kind', async (request) => {
      const make = faults[(request.params as { kind: string }).kind];
      throw make ? make() : new Error('a plain bug');
    });
  });
  afterAll(() => t.close());

  it('maps every connection-level fault to 503 and leaves bugs at 500', async () => {
    for (const kind of Object.keys(faults)) {
      const res = await t.app.inject({ url: `/test-fault/${kind}` });
      expect(res.statusCode, kind).toBe(503);
      expect(Number(res.headers['retry-after']), kind).toBeGreaterThan(0);
      expect(res.json(), kind).toEqual(UNAVAILABLE);
    }
    expect(logs.entries.filter((e) => e.msg === 'database unavailable' && e.level === 40)).toHaveLength(Object.keys(faults).length);
    expect(logs.entries.filter((e) => e.level >= 50)).toEqual([]);

    const bug = await t.app.inject({ url: '/test-fault/bug' });
    expect(bug.statusCode).toBe(500);
    expect(logs.entries.filter((e) => e.level >= 50)).toHaveLength(1);
  });

  it('does not take query mistakes for outages', () => {
    for (const code of ['23505', '42P01', '22P02', '40001'])
      expect(isDatabaseUnavailable(Object.assign(new Error(code), { code }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('syntax error'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

// Thresholds far above the noise of a busy test machine, far below the lag each test makes.
const SHEDDING = { maxEventLoopDelayMs: 150, laggingSamples: 2, sampleIntervalMs: 100 };

describe('load shedding', () => {
  it('answers 503 with Retry-After while the event loop lags for several samples, and recovers', async () => {
    const t = await createTestApp({ build: { loadShedding: SHEDDING } });
    // Building an app in this process lags the loop too: let the samples settle first.
    await t.app.ready();
    await new Promise((r) => setTimeout(r, 300));
    try {
      expect((await t.app.inject({ url: '/api/player-count' })).statusCode).toBe(200);
      // Block the loop in 400 ms slices for about 1.6 s: sustained lag, as under overload.
      const until = Date.now() + 1600;
      while (Date.now() < until) {
        const sliceEnd = Date.now() + 400;
        while (Date.now() < sliceEnd);
        await new Promise((r) => setImmediate(r));
      }
      const shed = await t.app.inject({ url: '/api/player-count' });
      expect(shed.statusCode).toBe(503);
      expect(Number(shed.headers['retry-after'])).toBeGreaterThan(0);
      expect(shed.json()).toMatchObject({ error: 'The site is busy right now. Please try again in a moment.' });
      // Liveness still answers, so an orchestrator does not restart a busy instance.
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 400));
      expect((await t.app.inject({ url: '/api/player-count' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('does not shed load for one long pause', async () => {
    const t = await createTestApp({ build: { loadShedding: SHEDDING } });
    // Building an app in this process lags the loop too: let the samples settle first.
    await t.app.ready();
    await new Promise((r) => setTimeout(r, 300));
    try {
      const end = Date.now() + 1200;
      while (Date.now() < end);
      await new Promise((r) => setTimeout(r, 250));
      expect((await t.app.inject({ url: '/api/player-count' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('a PostgreSQL that goes away (PostgreSQL only: the embedded database cannot)', () => {
  let db: ProxiedDatabase;
  let t: TestApp;
  const logs = captureLogs('warn');
  beforeAll(async () => {
    db = await openProxiedTestDatabase({ connectionTimeoutMs: 1000, statementTimeoutMs: 500 });
    t = await createTestApp({ build: { database: db.handle, logger: logs.logger } });
    await t.app.ready();
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  it('fails requests fast with 503 while unreachable, /api/ready says 503, and recovers by itself', async () => {
    expect((await t.app.inject({ url: '/api/servers' })).statusCode).toBe(200);
    await db.proxy.refuse();
    const started = Date.now();
    const res = await t.app.inject({ url: '/api/servers' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toEqual(UNAVAILABLE);
    expect((await t.app.inject({ url: '/api/ready' })).statusCode).toBe(503);

    await db.proxy.resume();
    const back = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - back < 5000) {
      status = (await t.app.inject({ url: '/api/servers' })).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    expect((await t.app.inject({ url: '/api/ready' })).statusCode).toBe(200);
    expect(logs.entries.filter((e) => e.level >= 50)).toEqual([]);
  });

  it('honours the statement timeout: a slow statement fails with 57014 instead of holding the request', async () => {
    const started = Date.now();
    const error = await sql`SELECT pg_sleep(5)`.execute(t.app.ctx.db).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((error as { code?: string }).code).toBe('57014');
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('gives up waiting for a connection from a busy pool after the connection timeout: 503, not a queue', async () => {
    // Every connection of the pool (5) checked out for 2.5 s; the next request may wait 1 s at most.
    const hold = Array.from({ length: 5 }, () =>
      t.app.ctx.db.connection().execute(async (conn) => {
        await sql`SELECT 1`.execute(conn);
        await new Promise((r) => setTimeout(r, 2500));
      }),
    );
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const res = await t.app.inject({ url: '/api/servers' });
    const took = Date.now() - started;
    await Promise.all(hold);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(2000);
  });
});

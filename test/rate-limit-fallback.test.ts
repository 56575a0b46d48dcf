import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { captureLogs } from './helpers/log-capture';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';

const REDIS_URL = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rate limits while Redis is away', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let direct: Redis;
  const logs = captureLogs('warn');
  const namespace = `rl-fallback-${process.pid}-${Date.now()}:`;

  beforeAll(async () => {
    proxy = await startTcpProxy({ host: REDIS_URL.hostname, port: Number(REDIS_URL.port || 6379) });
    direct = new Redis(REDIS_URL.toString());
    t = await createTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}` },
      build: {
        logger: logs.logger,
        rateLimitNamespace: namespace,
        rateLimits: { resetPerUsername: { max: 3, windowMs: 60_000 }, resetPerIp: { max: 1000, windowMs: 60_000 } },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
    const keys = await direct.keys(`${namespace}*`);
    if (keys.length) await direct.del(...keys);
    direct.disconnect();
  });

  // Reset requests always answer 200 until the per-account limit (3) answers 429.
  const attempt = (username: string) =>
    t.app.inject({ method: 'POST', url: '/api/reset-password/request', remoteAddress: '10.9.0.1', payload: { username } });
  const codes = async (username: string, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await attempt(username)).statusCode);
    return out;
  };
  const redisKeys = async () => (await direct.keys(`${namespace}*`)).length;

  it('counts in Redis, keeps limiting in memory during an outage, and returns to Redis after', async () => {
    // Wait for the app's Redis client, then the counters land in Redis.
    for (let i = 0; i < 50 && (await redisKeys()) === 0; i++) {
      await attempt(`warmup_${i}`);
      await wait(50);
    }
    expect(await redisKeys()).toBeGreaterThan(0);
    expect(await codes('before_outage', 4)).toEqual([200, 200, 200, 429]);

    // From here on: on a loaded machine a command before the outage may already have taken longer
    // than the store waits, a switch of its own, logged as such.
    const atOutage = logs.entries.length;
    await proxy.refuse();
    const keysBefore = await redisKeys();
    const started = Date.now();
    expect(await codes('during_outage', 5)).toEqual([200, 200, 200, 429, 429]);
    // Each request falls back at once instead of waiting on Redis.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await redisKeys()).toBe(keysBefore);
    const fallbackWarnings = logs.entries.slice(atOutage).filter((e) => e.level === 40 && e.msg.includes('counting in memory'));
    expect(fallbackWarnings).toHaveLength(1);

    const atResume = logs.entries.length;
    await proxy.resume();
    // ioredis reconnects on its own back-off; afterwards new counters land in Redis again.
    const until = Date.now() + 10_000;
    let i = 0;
    while ((await redisKeys()) === keysBefore && Date.now() < until) {
      await attempt(`after_outage_${i++}`);
      await wait(100);
    }
    expect(await redisKeys()).toBeGreaterThan(keysBefore);
    expect(logs.entries.slice(atResume).filter((e) => e.msg.includes('counting in Redis'))).toHaveLength(1);
    expect(await codes('after_recovery', 4)).toEqual([200, 200, 200, 429]);
    expect(logs.entries.filter((e) => e.level >= 50)).toEqual([]);
  });
});

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser } from './helpers/factories';
import { redisPrefix } from '../src/server/lib/redis-prefix';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('Redis names per deployment', () => {
  it('come from REDIS_PREFIX, else from the database', () => {
    expect(redisPrefix({ redisPrefix: 'staging' }, { name: 'rp' })).toBe('staging:');
    expect(redisPrefix({ redisPrefix: 'prod:' }, { name: 'rp' })).toBe('prod:');
    expect(redisPrefix({ redisPrefix: undefined }, { name: 'rp_production' })).toBe('rp:rp_production:');
  });

  describe('two deployments on one Redis', () => {
    let a: TestApp;
    let b: TestApp;
    let redis: Redis;
    const tight = { loginPerIp: { max: 50, windowMs: 60_000 }, loginPerIpAndUsername: { max: 2, windowMs: 60_000 } };
    beforeAll(async () => {
      redis = new Redis(REDIS_URL);
      // Each on a database of its own; the rate-limit keys take the deployment's prefix (no test namespace).
      a = await createTestApp({ env: { REDIS_URL }, build: { rateLimitNamespace: undefined, rateLimits: tight } });
      b = await createTestApp({ env: { REDIS_URL }, build: { rateLimitNamespace: undefined, rateLimits: tight } });
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      redis.disconnect();
    });

    const prefixOf = (t: TestApp) => redisPrefix(t.config, { name: t.app.ctx.dbName });

    it('share no rate limit: a username limited on one is not limited on the other', async () => {
      expect(prefixOf(a)).not.toBe(prefixOf(b));
      const login = (t: TestApp) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: '10.9.9.9',
          payload: { username: 'shared_name', password: 'wrong-password' },
        });
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await login(a)).statusCode);
      expect(codes).toEqual([401, 401, 429]);
      expect((await login(b)).statusCode).toBe(401);
      // Every key is the deployment's own, and names what it limits (no `undefinedundefined`).
      const keys = await redis.keys(`${prefixOf(a)}*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((k) => !k.includes('undefined'))).toBe(true);
      expect(keys.some((k) => k.includes('login'))).toBe(true);
    });

    it("hear only their own cache changes: a like on one never reaches the other's caches", async () => {
      const heard: Array<{ channel: string }> = [];
      const sub = new Redis(REDIS_URL);
      await sub.psubscribe('*cache-invalidation');
      sub.on('pmessage', (_pattern, channel) => heard.push({ channel }));
      const owner = await createUser(b.app, { role: 'server_owner' });
      const server = await createServer(b.app, owner.row.id);
      const player = await createUser(b.app);
      expect((await b.app.inject({ method: 'POST', url: `/api/servers/${server.id}/like`, headers: player.headers })).statusCode).toBe(200);
      for (let i = 0; i < 50 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await sub.quit();
      expect(heard.length).toBeGreaterThan(0);
      expect(heard.every((h) => h.channel === `${prefixOf(b)}cache-invalidation`)).toBe(true);
    });
  });
});

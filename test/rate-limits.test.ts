import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser, TEST_PASSWORD } from './helpers/factories';
import type { RateLimitSettings } from '../src/server/plugins/rate-limits';

const tight: Partial<RateLimitSettings> = {
  loginPerIp: { max: 6, windowMs: 60_000 },
  loginPerUsername: { max: 3, windowMs: 60_000 },
  loginPerIpAndUsername: { max: 3, windowMs: 60_000 },
  registerPerIp: { max: 3, windowMs: 60_000 },
  registerPerUsername: { max: 2, windowMs: 60_000 },
  resetPerIp: { max: 4, windowMs: 60_000 },
  resetPerUsername: { max: 2, windowMs: 60_000 },
  passwordChangePerIp: { max: 10, windowMs: 60_000 },
  passwordChangePerUser: { max: 2, windowMs: 60_000 },
  votesPerIp: { max: 100, windowMs: 60_000 },
  votesPerUser: { max: 3, windowMs: 60_000 },
  uploadsPerIp: { max: 100, windowMs: 60_000 },
  uploadsPerUser: { max: 2, windowMs: 60_000 },
};

const login = (t: TestApp, username: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: ip, payload: { username, password: 'wrong-password' } });

describe('brute-force limits in memory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ build: { rateLimits: tight } });
  });
  afterAll(() => t.close());

  it('limits login per IP and username pair, with 429 and Retry-After', async () => {
    const user = await createUser(t.app);
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await login(t, user.row.username, '10.0.0.1')).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
    const limited = await login(t, user.row.username, '10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({ error: 'Too many attempts. Please wait and try again.' });
  });

  it('only slows a username down across IPs, never refuses it: a stranger cannot lock the owner out', async () => {
    const user = await createUser(t.app);
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await login(t, user.row.username, `10.0.1.${i + 1}`)).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401]);
    const started = Date.now();
    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '10.0.1.99',
      payload: { username: user.row.username, password: TEST_PASSWORD },
    });
    expect(owner.statusCode).toBe(200);
    // The 6th attempt within the window waits 250 ms × 2²; it is slowed, not refused.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('limits login per IP across usernames', async () => {
    const codes = [];
    for (let i = 0; i < 7; i++) codes.push((await login(t, `someone_${i}`, '10.1.1.1')).statusCode);
    expect(codes.slice(0, 6).every((c) => c === 401)).toBe(true);
    expect(codes[6]).toBe(429);
    expect((await login(t, 'someone_0', '10.1.1.2')).statusCode).toBe(401);
  });

  it('limits register and reset too', async () => {
    const register = (username: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/register',
        remoteAddress: ip,
        payload: { username, password: 'long-enough-pw', role: 'player' },
      });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await register(`reg_${process.pid}_${i}`, '10.2.2.2')).statusCode);
    expect(codes).toEqual([201, 201, 201, 429]);

    const reset = (username: string, ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/reset-password/request', remoteAddress: ip, payload: { username } });
    const resetCodes = [];
    for (let i = 0; i < 3; i++) resetCodes.push((await reset('victim_name', `10.3.3.${i}`)).statusCode);
    expect(resetCodes).toEqual([200, 200, 429]);
  });
});

describe('password change limits', () => {
  it('limits guesses of the current password per account', async () => {
    const t = await createTestApp({ build: { rateLimits: tight } });
    try {
      const user = await createUser(t.app);
      const change = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/users/change-password',
          headers: user.headers,
          payload: { currentPassword: 'guess-guess', newPassword: 'new-password-1' },
        });
      expect([(await change()).statusCode, (await change()).statusCode, (await change()).statusCode]).toEqual([400, 400, 429]);
    } finally {
      await t.close();
    }
  });
});

describe('brute-force limits in Redis, shared by two instances', () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const namespace = `rl-shared-${process.pid}-${Date.now()}:`;
    a = await createTestApp({ env: { REDIS_URL: redisUrl }, build: { rateLimits: tight, rateLimitNamespace: namespace } });
    b = await createTestApp({ env: { REDIS_URL: redisUrl }, build: { rateLimits: tight, rateLimitNamespace: namespace } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('counts attempts on either instance against one limit', async () => {
    const user = await createUser(a.app, { username: `shared_${process.pid}` });
    const codes = [
      (await login(a, user.row.username, '10.9.0.1')).statusCode,
      (await login(b, user.row.username, '10.9.0.1')).statusCode,
      (await login(a, user.row.username, '10.9.0.1')).statusCode,
    ];
    expect(codes).toEqual([401, 401, 401]);
    const limited = await login(b, user.row.username, '10.9.0.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('behind a trusted proxy', () => {
  it('limits each client by its forwarded address, not the proxy', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' }, build: { rateLimits: tight } });
    try {
      const viaProxy = (client: string, i: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': client },
          payload: { username: `someone_${i}`, password: 'wrong-password' },
        });
      const codes = [];
      for (let i = 0; i < 7; i++) codes.push((await viaProxy('203.0.113.7', i)).statusCode);
      expect(codes[6]).toBe(429);
      expect((await viaProxy('198.51.100.9', 99)).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});

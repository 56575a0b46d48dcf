import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD } from './helpers/factories';
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
    expect(limited.json()).toMatchObject({ error: 'Too many attempts. Please wait and try again.' });
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

  it('counts the guesses at one account from a whole IPv6 /48 together, however many /64s they come from', async () => {
    const user = await createUser(t.app);
    const codes = [];
    // A new /64 for every guess, all in 2001:db8:77::/48; the pair limit (3) never sees a repeat.
    for (let i = 0; i < 14; i++) codes.push((await login(t, user.row.username, `2001:db8:77:${(i + 1).toString(16)}::1`)).statusCode);
    expect(codes.slice(0, 12).every((c) => c === 401)).toBe(true);
    expect(codes.slice(12)).toEqual([429, 429]);
    // Another site is not held back by it.
    expect((await login(t, user.row.username, '2001:db8:78:1::1')).statusCode).toBe(401);
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

describe('velocity per IP network and per account, over an hour', () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const velocity: Partial<RateLimitSettings> = {
    votesPerNetworkHour: { max: 5, windowMs: 3_600_000 },
    votesPerUserHour: { max: 4, windowMs: 3_600_000 },
    registerPerNetworkHour: { max: 3, windowMs: 3_600_000 },
  };
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    // Two instances sharing Redis (each with a database of its own): registrations spread over both meet one limit.
    const namespace = `rl-velocity-${process.pid}-${Date.now()}:`;
    a = await createTestApp({ env: { REDIS_URL: redisUrl }, build: { rateLimits: velocity, rateLimitNamespace: namespace } });
    b = await createTestApp({ env: { REDIS_URL: redisUrl }, build: { rateLimits: velocity, rateLimitNamespace: namespace } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('limits votes from one /24 spread over addresses and accounts, not the next network; and one account over an hour', async () => {
    const owner = await createUser(a.app, { role: 'server_owner' });
    const servers = await Promise.all(Array.from({ length: 6 }, () => createServer(a.app, owner.row.id)));
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const voter = await createUser(a.app);
      const res = await a.app.inject({
        method: 'POST',
        url: `/api/servers/${servers[i]!.id}/like`,
        headers: voter.headers,
        remoteAddress: `198.51.100.${10 + i}`,
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
    const elsewhere = await createUser(a.app);
    const other = await a.app.inject({
      method: 'POST',
      url: `/api/servers/${servers[5]!.id}/like`,
      headers: elsewhere.headers,
      remoteAddress: '198.51.101.10',
    });
    expect(other.statusCode).toBe(200);

    // One account, each vote from a network of its own: the hourly per-account limit still holds.
    const busy = await createUser(a.app);
    const own: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await a.app.inject({
        method: 'POST',
        url: `/api/servers/${servers[i]!.id}/join`,
        headers: busy.headers,
        remoteAddress: `203.0.${i}.9`,
      });
      own.push(res.statusCode);
    }
    expect(own).toEqual([200, 200, 200, 200, 429]);
  });

  it('limits registrations per /24 over an hour, whichever address and instance they come from', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await (i % 2 ? b : a).app.inject({
        method: 'POST',
        url: '/api/register',
        remoteAddress: `192.0.2.${20 + i}`,
        payload: { username: `net_${process.pid}_${i}`, password: TEST_PASSWORD, role: 'player' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 429]);
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

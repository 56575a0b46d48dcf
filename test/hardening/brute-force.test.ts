import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, TEST_PASSWORD } from '../helpers/factories';
import { resetCodesRepository as resetCodes } from '../../src/server/modules/auth/reset-codes.repository';
import { report, scale } from './report';

describe('guessing passwords and reset codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      build: {
        rateLimits: {
          loginPerIp: { max: 50, windowMs: 60_000 },
          loginPerIpAndUsername: { max: 5, windowMs: 60_000 },
          loginPerUsername: { max: 5, windowMs: 60_000 },
          resetConfirmPerIp: { max: 1000, windowMs: 60_000 },
          resetConfirmPerUser: { max: 1000, windowMs: 60_000 },
        },
      },
    });
  });
  afterAll(() => t.close());

  const login = (username: string, password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: ip, payload: { username, password } });

  it('burns a reset code after five wrong guesses, however many follow', async () => {
    const user = await createUser(t.app);
    const code = await resetCodes(t.app.ctx.db, () => new Date()).create(user.row.id);
    const guesses = scale(20, 200);
    let through = 0;
    for (let i = 0; i < guesses; i++) {
      const guess = code.slice(0, 12) + `g${i}`.padEnd(24, 'z');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/reset-password',
        remoteAddress: `10.40.${i % 250}.1`,
        payload: { token: guess, newPassword: 'attacker-password' },
      });
      if (res.statusCode === 200) through++;
    }
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/reset-password',
      payload: { token: code, newPassword: 'attacker-password' },
    });
    if (right.statusCode === 200) through++;
    report({
      area: 'Brute force',
      check: 'reset code guessing: burnt after 5 wrong tries, then the right code fails',
      tried: guesses + 1,
      gotThrough: through,
      detail: `the right code after ${guesses} wrong ones answered ${right.statusCode}`,
    });
    expect(through).toBe(0);
  });

  it("a stranger's failed logins do not lock the admin out; the stranger's own IP + username pair is blocked", async () => {
    const admin = await createUser(t.app, { role: 'admin' });
    const attempts = scale(8, 30);
    const codes: number[] = [];
    for (let i = 0; i < attempts; i++) codes.push((await login(admin.row.username, `guess-${i}`, '10.50.0.1')).statusCode);
    // Past the pair limit every attempt from that client is refused before the password is checked.
    const pairThrough = codes.slice(5).filter((c) => c !== 429).length;
    // The same stranger from many addresses: the username is slowed down, never refused.
    const spread = scale(3, 6);
    const spreadCodes: number[] = [];
    for (let i = 0; i < spread; i++) spreadCodes.push((await login(admin.row.username, `spread-${i}`, `10.51.${i}.1`)).statusCode);
    expect(spreadCodes.every((c) => c === 401)).toBe(true);
    const fromElsewhere = await login(admin.row.username, TEST_PASSWORD, '10.60.0.1');
    report({
      area: 'Brute force',
      check: 'per IP + username block',
      tried: attempts - 5,
      gotThrough: pairThrough,
      detail: `answers: ${codes.join(' ')}`,
    });
    report({
      area: 'Brute force',
      check: "stranger's failed logins lock the admin out (admin logs in from another IP)",
      tried: attempts + spread,
      gotThrough: fromElsewhere.statusCode === 200 ? 0 : 1,
      detail: `admin login from another IP answered ${fromElsewhere.statusCode}; stranger from ${spread} IPs got ${spreadCodes.join(' ')}`,
    });
    expect(pairThrough).toBe(0);
    expect(fromElsewhere.statusCode).toBe(200);
  });
});

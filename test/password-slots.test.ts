import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { MAX_WAITING, burnVerifyTime, verifyPassword } from '../src/server/modules/auth/password';
import { AppError } from '../src/server/errors';

describe('password hashing under a flood', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('runs two hashes, lets MAX_WAITING wait and turns the rest away at once', async () => {
    // The app hashes a dummy password at start-up; once that is done the line is empty.
    await burnVerifyTime('warm-up');
    const extra = 25;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 2 + MAX_WAITING + extra }, () => verifyPassword('$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA', 'x')),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as AppError);
    expect(refused).toHaveLength(extra);
    for (const error of refused) {
      expect(error).toBeInstanceOf(AppError);
      expect(error.statusCode).toBe(503);
    }
  });

  it('answers 503 with Retry-After to logins beyond the waiting line instead of queueing without end', async () => {
    const flood = MAX_WAITING * 3;
    const answers = await Promise.all(
      Array.from({ length: flood }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: `10.9.${Math.floor(i / 200)}.${i % 200}`,
          payload: { username: `nobody_${i}`, password: 'wrong-password' },
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.every((c) => c === 401 || c === 503)).toBe(true);
    const busy = answers.filter((a) => a.statusCode === 503);
    // Requests reach the hash at slightly different moments (each reads the database first), so
    // how many find the line full varies; that some do, each with a proper answer, is the point.
    expect(busy.length).toBeGreaterThan(0);
    for (const res of busy) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toMatchObject({ error: 'The site is busy right now. Please try again in a moment.' });
    }
    // Once the flood is over, logins are answered again.
    const after = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'nobody_after', password: 'x-password' } });
    expect(after.statusCode).toBe(401);
  });
});

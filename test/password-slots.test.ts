import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { MAX_WAITING } from '../src/server/modules/auth/password';

describe('password hashing under a flood', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 503 with Retry-After beyond the waiting line instead of queueing without end', async () => {
    const flood = MAX_WAITING + 40;
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
    // Two run and at most MAX_WAITING wait at any moment; the rest are turned away at once.
    expect(busy.length).toBeGreaterThanOrEqual(flood - MAX_WAITING - 2);
    for (const res of busy) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toEqual({ error: 'The site is busy right now. Please try again in a moment.' });
    }
    // Once the flood is over, logins are answered again.
    const after = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'nobody_after', password: 'x-password' } });
    expect(after.statusCode).toBe(401);
  });
});

import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser, TEST_PASSWORD } from './helpers/factories';

/** The refresh cookie of a response: its value and attributes. */
function refreshCookie(res: { headers: Record<string, unknown> }): { value: string; attributes: string } {
  const header = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('rp_refresh='));
  const text = String(header ?? '');
  const [pair = '', ...rest] = text.split('; ');
  return { value: pair.slice('rp_refresh='.length), attributes: rest.join('; ') };
}

describe('sessions: short access tokens, rotating refresh cookie, logout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const login = async (username: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(200);
    return { token: res.json().token as string, refresh: refreshCookie(res).value, res };
  };
  const me = (token: string) => t.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${token}` } });
  const refresh = (cookie: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `rp_refresh=${cookie}` } });

  it('answers a two-hour access token and an httpOnly, SameSite=Strict refresh cookie scoped to /api/auth', async () => {
    const user = await createUser(t.app);
    const { token, res } = await login(user.row.username);
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(2 * 60 * 60);
    const cookie = refreshCookie(res);
    expect(cookie.value).toMatch(/^[\w-]{40,}$/);
    expect(cookie.attributes).toBe('Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=2592000');
    const stored = await t.app.ctx.db.selectFrom('refreshTokens').selectAll().where('userId', '=', user.row.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toBe(cookie.value);
  });

  it('names the cookie __Host-rp_refresh, for the whole host and Secure, when the site is served over https', async () => {
    const https = await createTestApp({ env: { PUBLIC_URL: 'https://rp.example.test' } });
    try {
      const user = await createUser(https.app);
      const res = await https.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: user.row.username, password: TEST_PASSWORD },
      });
      // `__Host-`: only this exact host over https may set it, so no subdomain or http page can shadow it.
      const header = String([res.headers['set-cookie']].flat().find((c) => String(c).startsWith('__Host-rp_refresh=')));
      expect(header).toMatch(/^__Host-rp_refresh=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
      const value = /^__Host-rp_refresh=([\w-]+)/.exec(header)![1]!;
      const renewed = await https.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { cookie: `__Host-rp_refresh=${value}` },
      });
      expect(renewed.statusCode).toBe(200);
      // A session from before the prefix still renews (once), and logout clears both names.
      const older = await https.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { cookie: `rp_refresh=${/^__Host-rp_refresh=([\w-]+)/.exec(String([renewed.headers['set-cookie']].flat()[0]))![1]}` },
      });
      expect(older.statusCode).toBe(200);
      const out = await https.app.inject({ method: 'POST', url: '/api/auth/logout' });
      expect([out.headers['set-cookie']].flat().map((c) => String(c).split('=')[0])).toEqual(['__Host-rp_refresh', 'rp_refresh']);
    } finally {
      await https.close();
    }
  });

  it('refreshes with rotation; a rotated token shown again ends that session', async () => {
    const user = await createUser(t.app);
    const first = await login(user.row.username);
    const renewed = await refresh(first.refresh);
    expect(renewed.statusCode).toBe(200);
    const next = refreshCookie(renewed).value;
    expect(next).not.toBe(first.refresh);
    expect((await me(renewed.json().token)).statusCode).toBe(200);

    const reused = await refresh(first.refresh);
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ error: 'User data unavailable. Please login again.' });
    expect(refreshCookie(reused).attributes).toContain('Max-Age=0');
    // The whole family is gone: the newest refresh token and the access tokens it issued.
    expect((await refresh(next)).statusCode).toBe(401);
    expect((await me(renewed.json().token)).statusCode).toBe(401);
    expect((await me(first.token)).statusCode).toBe(401);
  });

  it('refuses a missing, unknown or expired refresh cookie', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/refresh' })).statusCode).toBe(401);
    expect((await refresh('x'.repeat(43))).statusCode).toBe(401);
    const user = await createUser(t.app);
    const { refresh: cookie } = await login(user.row.username);
    await t.app.ctx.db
      .updateTable('refreshTokens')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('userId', '=', user.row.id)
      .execute();
    expect((await refresh(cookie)).statusCode).toBe(401);
  });

  it('logout ends this session (access and refresh) and leaves the other device logged in', async () => {
    const user = await createUser(t.app);
    const laptop = await login(user.row.username);
    const phone = await login(user.row.username);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${laptop.token}`, cookie: `rp_refresh=${laptop.refresh}` },
    });
    expect(out.statusCode).toBe(200);
    expect(refreshCookie(out).attributes).toContain('Max-Age=0');
    expect((await me(laptop.token)).statusCode).toBe(401);
    expect((await refresh(laptop.refresh)).statusCode).toBe(401);
    expect((await me(phone.token)).statusCode).toBe(200);
    expect((await refresh(phone.refresh)).statusCode).toBe(200);

    const bearerOnly = await login(user.row.username);
    const out2 = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: `Bearer ${bearerOnly.token}` } });
    expect(out2.statusCode).toBe(200);
    expect((await me(bearerOnly.token)).statusCode).toBe(401);
    expect((await refresh(bearerOnly.refresh)).statusCode).toBe(401);
  });

  it('a password change or the user’s deletion ends every refresh token', async () => {
    const user = await createUser(t.app);
    const other = await login(user.row.username);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      headers: user.headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'new-password-9' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await refresh(other.refresh)).statusCode).toBe(401);
    const fresh = refreshCookie(changed).value;
    expect((await refresh(fresh)).statusCode).toBe(200);

    const doomed = await createUser(t.app);
    const session = await login(doomed.row.username);
    await t.app.ctx.db.deleteFrom('users').where('id', '=', doomed.row.id).execute();
    expect((await refresh(session.refresh)).statusCode).toBe(401);
  });

  it('burns a reset code still open when the password changes', async () => {
    const user = await createUser(t.app);
    const asked = await t.app.inject({ method: 'POST', url: '/api/reset-password/request', payload: { username: user.row.username } });
    expect(asked.statusCode).toBe(200);
    const open = () =>
      t.app.ctx.db.selectFrom('resetTokens').select('id').where('userId', '=', user.row.id).where('usedAt', 'is', null).execute();
    expect(await open()).toHaveLength(1);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      headers: user.headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'another-password-7' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await open()).toHaveLength(0);
  });

  it('forgets sessions a day past their expiry, keeping live and recently revoked ones', async () => {
    const user = await createUser(t.app);
    const live = await login(user.row.username);
    const revoked = await login(user.row.username);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `rp_refresh=${revoked.refresh}` } });
    const old = await login(user.row.username);
    const { familyId } = (await t.app.ctx.db
      .selectFrom('refreshTokens')
      .select('familyId')
      .where('userId', '=', user.row.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow())!;
    await t.app.ctx.db
      .updateTable('refreshTokens')
      .set({ expiresAt: new Date(Date.now() - 2 * 24 * 3600_000) })
      .where('familyId', '=', familyId)
      .execute();

    expect(await t.app.ctx.auth.pruneSessions()).toBeGreaterThanOrEqual(1);
    const left = await t.app.ctx.db.selectFrom('refreshTokens').select('familyId').where('userId', '=', user.row.id).execute();
    expect(left.map((r) => r.familyId)).not.toContain(familyId);
    expect(left).toHaveLength(2);
    expect((await refresh(old.refresh)).statusCode).toBe(401);
    expect((await me(revoked.token)).statusCode).toBe(401);
    expect((await refresh(live.refresh)).statusCode).toBe(200);
  });
});

describe('renewing is rate-limited per client', () => {
  it('answers 429 with Retry-After once a client renews too often', async () => {
    const t = await createTestApp({ build: { rateLimits: { refreshPerIp: { max: 3, windowMs: 60_000 } } } });
    try {
      const user = await createUser(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: user.row.username, password: TEST_PASSWORD },
      });
      let cookie = refreshCookie(res).value;
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const renewed = await t.app.inject({
          method: 'POST',
          url: '/api/auth/refresh',
          remoteAddress: '198.51.100.7',
          headers: { cookie: `rp_refresh=${cookie}` },
        });
        codes.push(renewed.statusCode);
        if (renewed.statusCode === 200) cookie = refreshCookie(renewed).value;
        else expect(Number(renewed.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(codes).toEqual([200, 200, 200, 429]);
      const elsewhere = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        remoteAddress: '198.51.100.8',
        headers: { cookie: `rp_refresh=${cookie}` },
      });
      expect(elsewhere.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

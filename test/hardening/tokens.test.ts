import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, TEST_PASSWORD } from '../helpers/factories';
import { loadOrCreateSecret } from '../../src/server/lib/secrets';
import { resetCodesRepository as resetCodes } from '../../src/server/modules/auth/reset-codes.repository';
import { report } from './report';

const b64 = (value: object | string) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe('forged, stale and misused tokens', () => {
  let t: TestApp;
  let secret: Uint8Array;
  beforeAll(async () => {
    t = await createTestApp();
    secret = new TextEncoder().encode(loadOrCreateSecret(t.dataDir, 'jwtSecret', () => 'unused'));
  });
  afterAll(() => t.close());

  const login = async (username: string, password = TEST_PASSWORD) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
    expect(res.statusCode).toBe(200);
    const cookie = String([res.headers['set-cookie']].flat()[0] ?? '');
    return { token: res.json().token as string, refresh: /rp_refresh=([^;]+)/.exec(cookie)?.[1] ?? '' };
  };
  const accepted = async (token: string) => {
    const headers = { authorization: `Bearer ${token}` };
    const me = await t.app.inject({ url: '/api/user', headers });
    const admin = await t.app.inject({ url: '/api/admin/users', headers });
    return me.statusCode !== 401 || admin.statusCode !== 401;
  };

  it('refuses every variant: variants tried, accepted 0', async () => {
    const victim = await createUser(t.app);
    const admin = await createUser(t.app, { role: 'admin' });
    const good = await login(victim.row.username);
    const [head, body] = good.token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    const hmac = (alg: 'sha256' | 'sha512', input: string, key: Uint8Array | string) =>
      crypto.createHmac(alg, key).update(input).digest('base64url');
    const variants: Array<[string, string]> = [];
    const add = (name: string, token: string) => variants.push([name, token]);

    // Forged signatures and algorithms.
    add('alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${body}.`);
    add('alg none, upper case', `${b64({ alg: 'NONE' })}.${body}.`);
    add('HS256 wrong key', await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(48))));
    add('HS512 right key', await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(secret));
    add('HS384 right key', await new SignJWT(claims).setProtectedHeader({ alg: 'HS384' }).sign(secret));
    const rsInput = `${b64({ alg: 'RS256', typ: 'JWT' })}.${body}`;
    add('RS256 header, HMAC signature', `${rsInput}.${hmac('sha256', rsInput, secret)}`);
    const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    add('RS256 with an attacker key', await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey));
    add('signature stripped', `${head}.${body}.`);
    add('signature of another token', `${head}.${body}.${(await login(admin.row.username)).token.split('.')[2]}`);
    // Tampered payloads, original signature kept.
    add('payload role: admin', `${head}.${b64({ ...claims, role: 'admin' })}.${good.token.split('.')[2]}`);
    add('payload sub: the admin', `${head}.${b64({ ...claims, sub: String(admin.row.id) })}.${good.token.split('.')[2]}`);
    add('payload exp pushed out', `${head}.${b64({ ...claims, exp: now + 10 ** 8 })}.${good.token.split('.')[2]}`);
    // Right key, wrong claims.
    add('expired', await new SignJWT({ ...claims, exp: now - 10 }).setProtectedHeader({ alg: 'HS256' }).sign(secret));
    add(
      'no expiry',
      await new SignJWT({ ver: 0, typ: 'access' }).setProtectedHeader({ alg: 'HS256' }).setSubject(String(victim.row.id)).sign(secret),
    );
    add('not an access token', await new SignJWT({ ...claims, typ: 'refresh' }).setProtectedHeader({ alg: 'HS256' }).sign(secret));
    add('old token version', await new SignJWT({ ...claims, ver: -1 }).setProtectedHeader({ alg: 'HS256' }).sign(secret));
    add('garbage', 'not.a.token');

    // Tokens that were good once.
    const loggedOut = await login(victim.row.username);
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: `Bearer ${loggedOut.token}` } });
    add('after logout', loggedOut.token);

    const changer = await createUser(t.app);
    const beforeChange = await login(changer.row.username);
    await t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      headers: changer.headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'changed-password-1' },
    });
    add('after password change', beforeChange.token);
    add('factory token after password change', changer.token);

    const resetter = await createUser(t.app);
    const beforeReset = await login(resetter.row.username);
    const code = await resetCodes(t.app.ctx.db, () => new Date()).create(resetter.row.id);
    add('reset code as bearer', code);
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/reset-password',
      payload: { token: code, newPassword: 'reset-password-1' },
    });
    expect(done.statusCode).toBe(200);
    add('after password reset', beforeReset.token);

    const deleted = await createUser(t.app);
    const beforeDelete = await login(deleted.row.username);
    const removal = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${deleted.row.id}`, headers: admin.headers });
    expect(removal.statusCode).toBeLessThan(300);
    add('after user deletion', beforeDelete.token);

    const refreshing = await createUser(t.app);
    const session = await login(refreshing.row.username);
    add('refresh token as bearer', session.refresh);
    const rotated = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `rp_refresh=${session.refresh}` } });
    expect(rotated.statusCode).toBe(200);
    const reused = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `rp_refresh=${session.refresh}` } });
    add('access token issued by a refresh whose family was then reused', rotated.json().token as string);

    const through: string[] = [];
    for (const [name, token] of variants) if (await accepted(token)) through.push(name);
    const refreshThrough = reused.statusCode === 200 ? 1 : 0;
    report({
      area: 'Tokens',
      check: 'forged, stale and misused tokens as bearer, reused refresh token',
      tried: variants.length + 1,
      gotThrough: through.length + refreshThrough,
      detail: through.length ? `accepted: ${through.join(', ')}` : `variants tried ${variants.length + 1}, accepted 0`,
    });
    expect(through).toEqual([]);
    expect(reused.statusCode).toBe(401);
    // The good token itself still works: the refusals are not a broken login.
    expect(await accepted(good.token)).toBe(true);
  });
});

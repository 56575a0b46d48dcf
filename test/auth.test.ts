import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser, TEST_PASSWORD, uniqueName } from './helpers/factories';

describe('register and login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const register = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/register', payload: payload as object });

  it('registers a player and an owner, answering 201 with the user and a working token', async () => {
    for (const role of ['player', 'server_owner'] as const) {
      const username = uniqueName('new');
      const res = await register({ username, password: 'long-enough-pw', role });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.user).toEqual({
        id: expect.stringMatching(/^\d+$/),
        username,
        role,
        email: null,
        emailConfirmed: false,
        subscriptionPlan: '',
        displayName: username,
        profilePicture: null,
        discord: null,
        hasPassword: true,
        locale: null,
      });
      expect(Object.keys(body.user).sort()).toEqual([
        'discord',
        'displayName',
        'email',
        'emailConfirmed',
        'hasPassword',
        'id',
        'locale',
        'profilePicture',
        'role',
        'subscriptionPlan',
        'username',
      ]);
      const me = await t.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${body.token}` } });
      expect(me.statusCode).toBe(200);
      expect(me.json().username).toBe(username);
    }
  });

  it("answers 'All fields are required' for any missing field", async () => {
    for (const payload of [
      {},
      { username: 'abcdef', password: 'long-enough-pw' },
      { username: 'abcdef', role: 'player' },
      { password: 'long-enough-pw', role: 'player' },
      { username: '   ', password: 'long-enough-pw', role: 'player' },
    ]) {
      const res = await register(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'All fields are required' });
    }
  });

  it('refuses any role but player and server_owner, admin included', async () => {
    for (const role of ['admin', 'moderator', 'ADMIN', 'Player']) {
      const res = await register({ username: uniqueName('r'), password: 'long-enough-pw', role });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Role must be player or server_owner' });
    }
  });

  it('checks username and password shape', async () => {
    const cases: Array<[object, string]> = [
      [{ username: 'ab', password: 'long-enough-pw', role: 'player' }, "Username must be 3 to 32 letters, digits, '_', '-' or '.'"],
      [
        { username: 'a'.repeat(33), password: 'long-enough-pw', role: 'player' },
        "Username must be 3 to 32 letters, digits, '_', '-' or '.'",
      ],
      [
        { username: "bob'; DROP TABLE users;--", password: 'long-enough-pw', role: 'player' },
        "Username must be 3 to 32 letters, digits, '_', '-' or '.'",
      ],
      [{ username: '<b>bob</b>', password: 'long-enough-pw', role: 'player' }, "Username must be 3 to 32 letters, digits, '_', '-' or '.'"],
      [{ username: 'valid_name', password: 'short', role: 'player' }, 'Password must be 8 to 128 characters'],
      [{ username: 'valid_name', password: 'p'.repeat(129), role: 'player' }, 'Password must be 8 to 128 characters'],
    ];
    for (const [payload, error] of cases) {
      const res = await register(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ error });
    }
  });

  it('ignores unknown fields and never stores them', async () => {
    const username = uniqueName('sneaky');
    const res = await register({
      username,
      password: 'long-enough-pw',
      role: 'player',
      subscriptionPlan: 'Premium',
      tokenVersion: 99,
      id: '1',
      emailConfirmedAt: new Date().toISOString(),
      emailConfirmed: true,
      email: 'x@example.com',
    });
    expect(res.statusCode).toBe(201);
    const row = await t.app.ctx.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
    expect(row.subscriptionPlan).toBe('');
    expect(row.tokenVersion).toBe(0);
    // An address given at registration is kept unconfirmed until its mailed link is opened.
    expect(row.email).toBe('x@example.com');
    expect(row.emailConfirmedAt).toBeNull();
    expect(res.json().user.emailConfirmed).toBe(false);
    expect(row.role).toBe('player');
  });

  it('refuses a malformed or disposable address at registration, creating nothing', async () => {
    for (const [email, status, error] of [
      ['not-an-address', 400, 'Enter a valid e-mail address'],
      [42, 400, 'Enter a valid e-mail address'],
      ['someone@mailinator.com', 400, 'Disposable e-mail addresses are not accepted. Please use your own address.'],
    ] as const) {
      const username = uniqueName('mail');
      const res = await register({ username, password: 'long-enough-pw', role: 'player', email });
      expect(res.statusCode, String(email)).toBe(status);
      expect(res.json()).toMatchObject({ error });
      expect(await t.app.ctx.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()).toBeUndefined();
    }
    // Left empty, the address is simply not given: the first login asks for it.
    expect((await register({ username: uniqueName('mail'), password: 'long-enough-pw', role: 'player', email: '' })).statusCode).toBe(201);
  });

  it('answers 409 for a taken username, whatever its case, also under concurrent registrations', async () => {
    const username = uniqueName('Taken');
    expect((await register({ username, password: 'long-enough-pw', role: 'player' })).statusCode).toBe(201);
    const again = await register({ username: username.toLowerCase(), password: 'long-enough-pw', role: 'server_owner' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'Username is already taken' });

    const racer = uniqueName('racer');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => register({ username: racer, password: 'long-enough-pw', role: 'player' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const rows = await t.app.ctx.db.selectFrom('users').select('id').where('username', '=', racer).execute();
    expect(rows).toHaveLength(1);
  });

  it('logs in with the right password only, without telling which part was wrong', async () => {
    const user = await createUser(t.app);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.row.username.toUpperCase(), password: TEST_PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.id).toBe(String(user.row.id));
    expect(typeof ok.json().token).toBe('string');

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.row.username, password: 'wrong-password' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'nobody_here', password: 'wrong-password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());

    const missing = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: user.row.username } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'All fields are required' });
  });

  it('refuses an address that is not one rather than mangling it', async () => {
    const user = await createUser(t.app, { email: null });
    const email = "o'brien+<script>@example.com";
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/update-email',
      headers: user.headers,
      payload: { email, currentPassword: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('current user and e-mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 without a token and with a forged, malformed or expired one', async () => {
    const none = await t.app.inject({ url: '/api/user' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: 'You must be logged in to perform this action.' });
    const user = await createUser(t.app);
    const [head, body] = user.token.split('.');
    const forged = `${head}.${body}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    for (const token of ['garbage', forged, `${user.token}x`]) {
      const res = await t.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'User data unavailable. Please login again.' });
    }
    const { createTokenService } = await import('../src/server/modules/auth/tokens');
    const secret = (await import('../src/server/lib/secrets')).loadOrCreateSecret(t.dataDir, 'jwtSecret', () => 'unused');
    const expired = await createTokenService(secret, '-1s').sign({ userId: user.row.id, version: 0 });
    expect((await t.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${expired}` } })).statusCode).toBe(401);
  });

  it("sets a first e-mail; 'Email required' when empty; invalid addresses refused; anonymous 401", async () => {
    const user = await createUser(t.app, { email: null });
    const post = (payload: object, headers: object = user.headers) =>
      t.app.inject({ method: 'POST', url: '/api/users/update-email', headers: headers as Record<string, string>, payload });
    const empty = await post({ email: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'Email required' });
    expect((await post({})).json()).toMatchObject({ error: 'Email required' });
    expect((await post({ email: 'not-an-address' })).json()).toMatchObject({ error: 'Enter a valid e-mail address' });
    const ok = await post({ email: ' me@example.com ' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().email).toBe('me@example.com');
    // A first address is saved at once (its confirmation link is mailed); changing it needs the password.
    expect((await t.app.inject({ url: '/api/user', headers: user.headers })).json().email).toBe('me@example.com');
    expect((await post({ email: 'me@example.com' }, {})).statusCode).toBe(401);
  });

  it('ends older sessions when the user is deleted', async () => {
    const user = await createUser(t.app);
    await t.app.ctx.db.deleteFrom('users').where('id', '=', user.row.id).execute();
    expect((await t.app.inject({ url: '/api/user', headers: user.headers })).statusCode).toBe(401);
  });
});

describe('password change', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('needs the current password, answers a fresh session and ends every older one', async () => {
    const user = await createUser(t.app);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.row.username, password: TEST_PASSWORD },
    });
    const otherHeaders = { authorization: `Bearer ${other.json().token}` };

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      headers: user.headers,
      payload: { currentPassword: 'not-it-at-all', newPassword: 'new-password-1' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'Current password is incorrect' });
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      headers: user.headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'short' },
    });
    expect(short.json()).toMatchObject({ error: 'Password must be 8 to 128 characters' });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'new-password-1' },
    });
    expect(anonymous.statusCode).toBe(401);

    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      headers: user.headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'new-password-1' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/user', headers: user.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/user', headers: otherHeaders })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${ok.json().token}` } })).statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.row.username, password: 'new-password-1' },
    });
    expect(login.statusCode).toBe(200);
  });
});

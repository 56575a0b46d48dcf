import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD, uniqueName } from './helpers/factories';
import { snowflake, startFakeDiscord, type FakeDiscordUser } from './helpers/fake-discord';
import { startSmtpServer } from './helpers/smtp';
import { DEFAULT_HOLD_RULES } from '../src/server/modules/servers';
import { DISCORD_MSG } from '../src/shared/discord';
import { MSG } from '../src/shared/messages';

const DAY = 86_400_000;
const CLIENT = { clientId: '1234567890123', clientSecret: 'discord-test-secret' };

describe('sign in with Discord', () => {
  let t: TestApp;
  let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    discord = await startFakeDiscord(CLIENT);
    smtp = await startSmtpServer();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        DISCORD_CLIENT_ID: CLIENT.clientId,
        DISCORD_CLIENT_SECRET: CLIENT.clientSecret,
        DISCORD_API_URL: discord.url,
      },
      // The real hold rules: a young Discord account must count as a brand-new one.
      build: { holdRules: DEFAULT_HOLD_RULES, discordTimeoutMs: 1500 },
    });
  });
  afterAll(async () => {
    await t.close();
    await discord.close();
    await smtp.close();
  });

  const cookieOf = (setCookie: string | string[] | undefined, name: string) => {
    const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
    const found = all.find((c) => c.startsWith(`${name}=`));
    return found ? found.slice(name.length + 1).split(';')[0] : undefined;
  };

  /** A browser's trip: start, Discord's consent screen (approving at once), and back to the callback. */
  async function trip(
    account: FakeDiscordUser | undefined,
    options: { returnTo?: string; headers?: Record<string, string>; link?: boolean; password?: string; binding?: 'drop' | 'other' } = {},
  ) {
    discord.signInAs(account);
    const started = await t.app.inject({
      method: 'POST',
      url: options.link ? '/api/users/discord/link' : '/api/auth/discord/start',
      headers: options.headers ?? {},
      payload: {
        ...(options.returnTo === undefined ? {} : { returnTo: options.returnTo }),
        ...(options.link ? { currentPassword: options.password ?? TEST_PASSWORD } : {}),
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const binding = cookieOf(started.headers['set-cookie'], 'rp_discord');
    expect(started.headers['set-cookie']).toMatch(
      /rp_discord=[\w-]+; Path=\/api\/auth\/discord\/callback; HttpOnly; SameSite=Lax; Max-Age=600/,
    );
    const authorize = new URL(started.json().url);
    expect(authorize.origin + authorize.pathname).toBe(`${discord.url}/oauth2/authorize`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('scope')).toBe('identify email');
    const consent = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    const cookie =
      options.binding === 'drop' ? undefined : options.binding === 'other' ? 'rp_discord=' + 'x'.repeat(43) : `rp_discord=${binding}`;
    const callback = (extra: Record<string, string> = {}) =>
      t.app.inject({ url: `${back.pathname}${back.search}`, headers: { ...(cookie ? { cookie } : {}), ...extra } });
    const answer = await callback();
    const location = answer.headers.location as string;
    const signup = cookieOf(answer.headers['set-cookie'], 'rp_discord_signup');
    if (signup) signupCookies.set(signupToken(location), signup);
    return { answer, location, callback, state: back.searchParams.get('state')! };
  }

  const newAccount = (attrs: Partial<FakeDiscordUser> & { ageMs?: number } = {}): FakeDiscordUser => ({
    id: snowflake(attrs.ageMs ?? 400 * DAY),
    username: attrs.username ?? uniqueName('dc').toLowerCase(),
    global_name: attrs.global_name ?? null,
    email: attrs.email === undefined ? `${uniqueName('dc')}@example.test` : attrs.email,
    verified: attrs.verified ?? true,
  });

  const signupToken = (location: string) => new URL(location, 'http://x').searchParams.get('discord')!;
  /** The sign-up cookie each trip's browser got, by its sign-up token: only that browser may finish. */
  const signupCookies = new Map<string, string>();
  const signupHeaders = (token: string): Record<string, string> =>
    signupCookies.has(token) ? { cookie: `rp_discord_signup=${signupCookies.get(token)}` } : {};
  const finish = (token: string, username: string, role = 'player') =>
    t.app.inject({ method: 'POST', url: '/api/auth/discord/signup', headers: signupHeaders(token), payload: { token, username, role } });
  const info = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/discord/signup/info', headers: signupHeaders(token), payload: { token } });

  it('makes a new account from Discord: the person picks the username (offered from the Discord name) and role, and is signed in', async () => {
    const account = newAccount({ global_name: 'Ana Souza 🎮' });
    const { answer, location } = await trip(account, { returnTo: '/servers/1' });
    expect(answer.statusCode).toBe(303);
    expect(location).toMatch(/^\/register\?discord=[\w-]+$/);
    const pending = await info(signupToken(location));
    expect(pending.json()).toMatchObject({
      discordName: 'Ana Souza 🎮',
      suggestedUsername: 'Ana_Souza',
      email: account.email,
      emailVerified: true,
      returnTo: '/servers/1',
    });

    const username = uniqueName('ana');
    const created = await finish(signupToken(location), username, 'player');
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().user).toMatchObject({
      username,
      role: 'player',
      emailConfirmed: true,
      hasPassword: false,
      discord: { username: 'Ana Souza 🎮' },
    });
    const refresh = cookieOf(created.headers['set-cookie'], 'rp_refresh');
    expect(refresh).toBeTruthy();
    // A session like a password login's: the refresh cookie renews it.
    const renewed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `rp_refresh=${refresh}` } });
    expect(renewed.json().user.username).toBe(username);
    // An old Discord account with a verified address needs no mailed confirmation: it votes at once.
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const like = await t.app.inject({
      method: 'POST',
      url: `/api/servers/${server.id}/like`,
      headers: { authorization: `Bearer ${created.json().token}` },
    });
    expect(like.statusCode, like.body).toBe(200);
    // The sign-up is used: a second completion is refused and makes nothing.
    expect((await finish(signupToken(location), uniqueName('again'))).json()).toMatchObject({ error: DISCORD_MSG.signupExpired });

    // The next time, the same Discord account signs straight in.
    const again = await trip(account, { returnTo: '/list' });
    expect(again.location).toBe('/login?discord=signed-in&next=%2Flist');
    const cookie = cookieOf(again.answer.headers['set-cookie'], 'rp_refresh');
    const session = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `rp_refresh=${cookie}` } });
    expect(session.json().user.username).toBe(username);
  });

  it('answers every bad return from Discord with a clear reason and makes nothing', async () => {
    const usersBefore = Number(
      (
        await t.app.ctx.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    // No state, or none this site handed out.
    for (const query of ['', '?code=abc', '?state=nothing-we-made&code=abc']) {
      const res = await t.app.inject({ url: `/api/auth/discord/callback${query}`, headers: { cookie: 'rp_discord=' + 'y'.repeat(43) } });
      expect(res.headers.location, query).toBe('/login?discordError=state');
    }
    // The state of another browser (no binding cookie, or someone else's).
    expect((await trip(newAccount(), { binding: 'drop' })).location).toBe('/login?discordError=state');
    expect((await trip(newAccount(), { binding: 'other' })).location).toBe('/login?discordError=state');
    // A replayed state (the callback again, the same code and state): refused the second time.
    const once = await trip(newAccount());
    expect(once.location).toMatch(/^\/register\?discord=/);
    expect((await once.callback()).headers.location).toBe('/login?discordError=state');
    // The person pressed Cancel on Discord.
    discord.behave('deny');
    expect((await trip(newAccount())).location).toBe('/login?discordError=denied');
    discord.behave('normal');
    // A forged or reused code: Discord's token endpoint refuses it.
    const forged = await t.app.inject({ method: 'POST', url: '/api/auth/discord/start', payload: {} });
    const state = new URL(forged.json().url).searchParams.get('state')!;
    const binding = cookieOf(forged.headers['set-cookie'], 'rp_discord');
    const res = await t.app.inject({
      url: `/api/auth/discord/callback?code=forged-code&state=${state}`,
      headers: { cookie: `rp_discord=${binding}` },
    });
    expect(res.headers.location).toBe('/login?discordError=failed');
    // Discord down, or too slow: a clear answer within the timeout, no hanging request.
    for (const mode of ['token-down', 'token-slow', 'me-error'] as const) {
      discord.behave(mode);
      const started = Date.now();
      const { location } = await trip(newAccount());
      expect(location, mode).toBe(mode === 'me-error' ? '/login?discordError=failed' : '/login?discordError=unreachable');
      expect(Date.now() - started, mode).toBeLessThan(5000);
    }
    discord.behave('normal');
    const usersAfter = Number(
      (
        await t.app.ctx.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(usersAfter).toBe(usersBefore);
    expect(t.takeErrors()).toEqual([]);
  }, 60_000);

  it('only ever returns to a path of this site', async () => {
    for (const returnTo of [
      'https://evil.example/x',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/%2F%2Fevil.example',
      '/../admin',
    ]) {
      const { location } = await trip(newAccount(), { returnTo });
      const token = signupToken(location);
      expect((await info(token)).json().returnTo, returnTo).toBe('/home');
    }
    const user = await createUser(t.app);
    const account = newAccount();
    const linked = await trip(account, { link: true, returnTo: 'https://evil.example/', headers: user.headers });
    expect(linked.location).toBe('/profile?discord=linked');
  });

  it('keeps one account per confirmed mailbox and asks to link Discord there instead', async () => {
    const existing = await createUser(t.app, { email: `Mailbox.${uniqueName('m')}@example.test` });
    const account = newAccount({ email: existing.row.email!.toUpperCase() });
    const { location } = await trip(account);
    expect(location).toBe('/login?discordError=email-taken');
    expect(await t.app.ctx.db.selectFrom('discordSignups').select('id').where('discordId', '=', account.id).execute()).toEqual([]);
    // Linked on that account, the same Discord account signs in to it.
    expect((await trip(account, { link: true, headers: existing.headers })).location).toBe('/profile?discord=linked');
    expect((await trip(account)).location).toMatch(/^\/login\?discord=signed-in/);
  });

  it('confirms the Discord e-mail only when Discord verified it and the account is not brand new', async () => {
    const cases = [
      { account: newAccount({ verified: false }), confirmed: false },
      { account: newAccount({ ageMs: 1 * DAY }), confirmed: false },
      { account: newAccount({ email: null }), confirmed: false },
    ];
    for (const { account, confirmed } of cases) {
      const { location } = await trip(account);
      const mails = smtp.mails.length;
      const created = await finish(signupToken(location), uniqueName('mail'));
      expect(created.statusCode).toBe(201);
      expect(created.json().user).toMatchObject({ emailConfirmed: confirmed, email: account.email ?? null });
      if (account.email) {
        // Not vouched for: our own confirmation link goes out, as at registration.
        const isLink = (m: { to: string[]; text: string }) => m.to.includes(account.email!) && m.text.includes('confirm-email=');
        for (let seen = mails + 1; seen < mails + 5 && !smtp.mails.some(isLink); seen++) await smtp.waitFor(seen);
        expect(smtp.mails.some(isLink)).toBe(true);
      }
      const owner = await createUser(t.app, { role: 'server_owner' });
      const server = await createServer(t.app, owner.row.id);
      const like = await t.app.inject({
        method: 'POST',
        url: `/api/servers/${server.id}/like`,
        headers: { authorization: `Bearer ${created.json().token}` },
      });
      expect(like.json()).toMatchObject({ error: MSG.confirmEmailFirst });
    }
  });

  it('holds the votes of a young Discord account the way it holds a brand-new account', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const network = '198.51.100.';
    const voters: string[] = [];
    // Three accounts registered from one network within the hour (two hours ago): a burst. Their Discord accounts are a day old.
    for (let i = 0; i < 3; i++) {
      const { location } = await trip(newAccount({ ageMs: DAY }));
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/auth/discord/signup',
        headers: signupHeaders(signupToken(location)),
        payload: { token: signupToken(location), username: uniqueName('young'), role: 'player' },
        remoteAddress: `${network}${10 + i}`,
      });
      const id = Number(created.json().user.id);
      // Confirmed and a day old here: only the Discord account's age makes them young.
      await t.app.ctx.db
        .updateTable('users')
        .set({ emailConfirmedAt: new Date(), createdAt: new Date(Date.now() - 2 * 3600_000), registeredNetwork: `${network}0/24` })
        .where('id', '=', id)
        .execute();
      voters.push(created.json().token);
    }
    // Each vote from a network of its own, so only the accounts' own history can hold them.
    const like = (serverId: number, token: string, i: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/servers/${serverId}/like`,
        headers: { authorization: `Bearer ${token}` },
        remoteAddress: `203.0.${113 + i}.7`,
      });
    for (const [i, token] of voters.entries()) await like(server.id, token, i);
    const votes = await t.app.ctx.db.selectFrom('votes').select('status').where('serverId', '=', server.id).execute();
    expect(votes.map((v) => v.status).sort()).toEqual(['held', 'held', 'held']);

    // The same burst with Discord accounts a year old counts.
    const other = await createServer(t.app, owner.row.id);
    await t.app.ctx.db
      .updateTable('users')
      .set({ discordCreatedAt: new Date(Date.now() - 400 * DAY) })
      .where('registeredNetwork', '=', `${network}0/24`)
      .execute();
    for (const [i, token] of voters.entries()) await like(other.id, token, i);
    const counted = await t.app.ctx.db.selectFrom('votes').select('status').where('serverId', '=', other.id).execute();
    expect(counted.map((v) => v.status)).toEqual(['counted', 'counted', 'counted']);
  });

  it('links one Discord account to one user, unlinks only while a password remains, and lets a Discord account set a password', async () => {
    const first = await createUser(t.app);
    const second = await createUser(t.app);
    const account = newAccount();
    expect((await trip(account, { link: true, headers: first.headers })).location).toBe('/profile?discord=linked');
    expect((await t.app.inject({ url: '/api/user', headers: first.headers })).json().discord).toMatchObject({ username: account.username });
    // Already linked elsewhere.
    expect((await trip(account, { link: true, headers: second.headers })).location).toBe('/profile?discordError=taken');
    // Linking needs a signed-in user.
    expect((await t.app.inject({ method: 'POST', url: '/api/users/discord/link', payload: {} })).statusCode).toBe(401);
    // With a password, unlinking is fine; then the Discord account is free again.
    const unlink = (headers: Record<string, string>) => t.app.inject({ method: 'DELETE', url: '/api/users/discord', headers });
    expect((await unlink(first.headers)).json()).toEqual({ message: DISCORD_MSG.unlinked });
    expect((await unlink(first.headers)).json()).toMatchObject({ error: DISCORD_MSG.notLinked });
    expect((await trip(account, { link: true, headers: second.headers })).location).toBe('/profile?discord=linked');

    // An account made with Discord keeps it until it has a password.
    const own = newAccount();
    const { location } = await trip(own);
    const created = await finish(signupToken(location), uniqueName('solo'));
    const headers = { authorization: `Bearer ${created.json().token}` };
    expect((await unlink(headers)).json()).toMatchObject({ error: DISCORD_MSG.lastWayIn });
    // No password to log in with, however it is guessed; no current password to change.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: created.json().user.username, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(401);
    const set = await t.app.inject({ method: 'POST', url: '/api/users/set-password', headers, payload: { newPassword: TEST_PASSWORD } });
    expect(set.statusCode).toBe(200);
    expect(set.json().user.hasPassword).toBe(true);
    const newHeaders = { authorization: `Bearer ${set.json().token}` };
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/users/set-password',
          headers: newHeaders,
          payload: { newPassword: 'another-pass-123' },
        })
      ).json(),
    ).toMatchObject({
      error: DISCORD_MSG.hasPassword,
    });
    const loginNow = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: created.json().user.username, password: TEST_PASSWORD },
    });
    expect(loginNow.statusCode).toBe(200);
    expect((await unlink(newHeaders)).statusCode).toBe(200);
  });

  it('refuses a username taken between the two steps, and keeps the sign-up usable', async () => {
    const { location } = await trip(newAccount());
    const token = signupToken(location);
    const taken = await createUser(t.app);
    const clash = await finish(token, taken.row.username.toUpperCase());
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ error: MSG.usernameTaken });
    expect((await finish(token, 'x')).statusCode).toBe(400);
    expect((await finish(token, uniqueName('free'), 'admin')).statusCode).toBe(400);
    // Two completions at once: one account.
    const names = [uniqueName('race'), uniqueName('race')];
    const answers = await Promise.all(names.map((n) => finish(token, n)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 400]);
    const made = await t.app.ctx.db.selectFrom('users').select('id').where('username', 'in', names).execute();
    expect(made).toHaveLength(1);
  });

  it('ends a Discord session like any other: logout revokes it', async () => {
    const account = newAccount();
    const { location } = await trip(account);
    await finish(signupToken(location), uniqueName('out'));
    const signedIn = await trip(account);
    const refresh = cookieOf(signedIn.answer.headers['set-cookie'], 'rp_refresh');
    const session = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `rp_refresh=${refresh}` } });
    const token = session.json().token as string;
    const next = cookieOf(session.headers['set-cookie'], 'rp_refresh');
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}`, cookie: `rp_refresh=${next}` },
    });
    expect((await t.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `rp_refresh=${next}` } })).statusCode).toBe(
      401,
    );
  });

  it('lets only the browser Discord sent back finish a sign-up, so nobody can plant their Discord account on someone else', async () => {
    const { location } = await trip(newAccount());
    const token = signupToken(location);
    const noCookie = await t.app.inject({ method: 'POST', url: '/api/auth/discord/signup/info', payload: { token } });
    expect(noCookie.json()).toMatchObject({ error: DISCORD_MSG.signupExpired });
    const otherBrowser = await t.app.inject({
      method: 'POST',
      url: '/api/auth/discord/signup',
      headers: { cookie: `rp_discord_signup=${'z'.repeat(43)}` },
      payload: { token, username: uniqueName('victim'), role: 'player' },
    });
    expect(otherBrowser.json()).toMatchObject({ error: DISCORD_MSG.signupExpired });
    expect((await finish(token, uniqueName('owner'))).statusCode).toBe(201);
  });

  it('asks for the current password to link, refuses admins and a second link, and tells the mailbox of every change', async () => {
    const user = await createUser(t.app);
    const account = newAccount();
    const start = (payload: object, headers = user.headers) =>
      t.app.inject({ method: 'POST', url: '/api/users/discord/link', headers, payload });
    expect((await start({})).json()).toMatchObject({ error: DISCORD_MSG.passwordToLink });
    expect((await start({ currentPassword: 'not-the-password' })).json()).toMatchObject({ error: MSG.currentPasswordWrong });
    const admin = await createUser(t.app, { role: 'admin' });
    expect((await start({ currentPassword: TEST_PASSWORD }, admin.headers)).statusCode).toBe(403);
    const mails = smtp.mails.length;
    expect((await trip(account, { link: true, headers: user.headers })).location).toBe('/profile?discord=linked');
    expect((await start({ currentPassword: TEST_PASSWORD })).json()).toMatchObject({ error: DISCORD_MSG.unlinkFirst });
    await t.app.inject({ method: 'DELETE', url: '/api/users/discord', headers: user.headers });
    const subjects = () => smtp.mails.filter((m) => m.to.includes(user.row.email!)).map((m) => m.headers['subject']);
    for (let seen = mails + 1; seen < mails + 8 && subjects().length < 2; seen++) await smtp.waitFor(seen);
    expect(subjects()).toEqual(expect.arrayContaining(['Discord was linked to your account', 'Discord was unlinked from your account']));
    // The Discord account's age stays after unlinking: the hold rules still see it.
    const row = await t.app.ctx.db
      .selectFrom('users')
      .select(['discordId', 'discordCreatedAt'])
      .where('id', '=', user.row.id)
      .executeTakeFirstOrThrow();
    expect(row.discordId).toBeNull();
    expect(row.discordCreatedAt).not.toBeNull();
  });

  /** A link begun and approved on Discord, its return to the callback left for later. */
  async function beginLink(account: FakeDiscordUser, headers: Record<string, string>) {
    discord.signInAs(account);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/users/discord/link',
      headers,
      payload: { currentPassword: TEST_PASSWORD },
    });
    expect(started.statusCode, started.body).toBe(200);
    const binding = cookieOf(started.headers['set-cookie'], 'rp_discord');
    const consent = await fetch(new URL(started.json().url), { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    return async () =>
      (await t.app.inject({ url: `${back.pathname}${back.search}`, headers: { cookie: `rp_discord=${binding}` } })).headers.location;
  }
  const linkedDiscordOf = async (userId: number) =>
    t.app.ctx.db.selectFrom('users').select(['discordId', 'discordCreatedAt']).where('id', '=', userId).executeTakeFirstOrThrow();

  it('links on the return from Discord only while no Discord account is linked: of two links begun at once, the first back wins', async () => {
    const user = await createUser(t.app);
    const [a, b] = [newAccount(), newAccount()];
    const first = await beginLink(a, user.headers);
    const second = await beginLink(b, user.headers);
    expect(await first()).toBe('/profile?discord=linked');
    // Both began while nothing was linked; the second may not replace the first unseen.
    expect(await second()).toBe('/profile?discordError=linked');
    expect((await linkedDiscordOf(user.row.id)).discordId).toBe(a.id);
  });

  it('ends a link begun before a password change: the old password no longer links anything', async () => {
    const user = await createUser(t.app);
    const account = newAccount();
    const pending = await beginLink(account, user.headers);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      headers: user.headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'a-new-password-42' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await pending()).toBe('/profile?discordError=state');
    expect((await linkedDiscordOf(user.row.id)).discordId).toBeNull();
    // Nor is the Discord account taken: begun again by the owner, it links.
    const headers = { authorization: `Bearer ${changed.json().token}` };
    discord.signInAs(account);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/users/discord/link',
      headers,
      payload: { currentPassword: 'a-new-password-42' },
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('keeps the youngest Discord age an account ever linked: an old Discord account linked later does not free its held votes', async () => {
    const user = await createUser(t.app);
    const young = newAccount({ ageMs: DAY });
    expect((await trip(young, { link: true, headers: user.headers })).location).toBe('/profile?discord=linked');
    const youngAge = (await linkedDiscordOf(user.row.id)).discordCreatedAt;
    expect(Date.now() - youngAge!.getTime()).toBeLessThan(2 * DAY);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users/discord', headers: user.headers })).statusCode).toBe(200);
    const old = newAccount({ ageMs: 400 * DAY });
    expect((await trip(old, { link: true, headers: user.headers })).location).toBe('/profile?discord=linked');
    const after = await linkedDiscordOf(user.row.id);
    expect(after.discordId).toBe(old.id);
    expect(after.discordCreatedAt!.getTime()).toBe(youngAge!.getTime());
    // An account whose first link is old takes that age.
    const other = await createUser(t.app);
    const elder = newAccount({ ageMs: 400 * DAY });
    await trip(elder, { link: true, headers: other.headers });
    expect(Date.now() - (await linkedDiscordOf(other.row.id)).discordCreatedAt!.getTime()).toBeGreaterThan(300 * DAY);
  });

  it('lets people log in with Discord in maintenance mode, as with a password, but not link', async () => {
    const admin = await createUser(t.app, { role: 'admin' });
    const user = await createUser(t.app);
    const maintenance = (on: boolean) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: admin.headers, payload: { maintenanceMode: on } });
    expect((await maintenance(true)).statusCode).toBe(200);
    try {
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/discord/start', payload: {} })).statusCode).toBe(200);
      const link = await t.app.inject({
        method: 'POST',
        url: '/api/users/discord/link',
        headers: user.headers,
        payload: { currentPassword: TEST_PASSWORD },
      });
      expect(link.statusCode).toBe(503);
    } finally {
      expect((await maintenance(false)).statusCode).toBe(200);
    }
  });

  it('keeps no throwaway mailbox from Discord', async () => {
    const account = newAccount({ email: `someone@mailinator.com` });
    const { location } = await trip(account);
    expect((await info(signupToken(location))).json()).toMatchObject({ email: null, emailVerified: false });
    const created = await finish(signupToken(location), uniqueName('throwaway'));
    expect(created.json().user).toMatchObject({ email: null, emailConfirmed: false });
  });
});

describe('linking Discord under tight limits', () => {
  it('counts guesses of the password to link per account, from any address, as the password change does', async () => {
    const discord = await startFakeDiscord(CLIENT);
    const t = await createTestApp({
      env: { DISCORD_CLIENT_ID: CLIENT.clientId, DISCORD_CLIENT_SECRET: CLIENT.clientSecret, DISCORD_API_URL: discord.url },
      build: { rateLimits: { passwordChangePerIp: { max: 10, windowMs: 60_000 }, passwordChangePerUser: { max: 3, windowMs: 60_000 } } },
    });
    try {
      const user = await createUser(t.app);
      const guess = (i: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/users/discord/link',
          headers: user.headers,
          remoteAddress: `203.0.113.${i + 1}`,
          payload: { currentPassword: `guess-${i}-guess` },
        });
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await guess(i)).statusCode);
      expect(codes).toEqual([400, 400, 400, 429]);
      expect((await guess(4)).json()).toMatchObject({ error: 'Too many attempts. Please wait and try again.' });
    } finally {
      await t.close();
      await discord.close();
    }
  });
});

describe('without a Discord application', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('offers no Discord sign-in: every route answers 404', async () => {
    expect((await t.app.inject({ url: '/api/auth/discord' })).json()).toEqual({ enabled: false });
    const start = await t.app.inject({ method: 'POST', url: '/api/auth/discord/start', payload: {} });
    expect(start.statusCode).toBe(404);
    expect(start.json()).toMatchObject({ error: DISCORD_MSG.notConfigured });
    expect((await t.app.inject({ url: '/api/auth/discord/callback?code=a&state=b' })).statusCode).toBe(404);
  });
});

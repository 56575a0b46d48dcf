import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD, uniqueName } from './helpers/factories';
import { startSmtpServer } from './helpers/smtp';
import { confirmTokenFor, registerAndConfirm } from './helpers/confirmed-accounts';

const CONFIRM_FIRST = 'Confirm your e-mail address to join, vote or review: open the link we sent you, or send it again.';

describe('one real person, one vote: a confirmed e-mail address', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let serverId: number;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ env: { SMTP_URL: smtp.url } });
    const owner = await createUser(t.app, { role: 'server_owner' });
    serverId = (await createServer(t.app, owner.row.id)).id;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const post = (url: string, headers: object, payload: object = {}) =>
    t.app.inject({ method: 'POST', url, headers: headers as Record<string, string>, payload });
  const register = async (email?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { username: uniqueName('player'), password: TEST_PASSWORD, role: 'player', ...(email === undefined ? {} : { email }) },
    });
    return { res, headers: { authorization: `Bearer ${res.json().token}` } };
  };
  const me = async (headers: object) => (await t.app.inject({ url: '/api/user', headers: headers as Record<string, string> })).json();

  it('refuses joins, likes, dislikes, reviews and daily votes until the mailed link is opened; then each counts at once', async () => {
    const address = `${uniqueName('p')}@mail.example.com`;
    const { res, headers } = await register(address);
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({ email: address, emailConfirmed: false });
    for (const [url, body] of [
      [`/api/servers/${serverId}/join`, {}],
      [`/api/servers/${serverId}/like`, {}],
      [`/api/servers/${serverId}/dislike`, { review: 'meh' }],
      [`/api/servers/${serverId}/vote`, { playerName: 'Steve' }],
    ] as const) {
      const refused = await post(url, headers, body);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toMatchObject({ error: CONFIRM_FIRST });
    }
    expect((await t.app.inject({ url: `/api/servers/${serverId}` })).json()).toMatchObject({ likes: 0, dislikes: 0, totalJoins: 0 });

    const confirmed = await post('/api/users/confirm-email', {}, { token: await confirmTokenFor(smtp, address) });
    expect(confirmed.json()).toEqual({ message: 'E-mail address confirmed.' });
    expect(await me(headers)).toMatchObject({ email: address, emailConfirmed: true });
    expect((await post(`/api/servers/${serverId}/join`, headers)).json().totalJoins).toBe(1);
    expect((await post(`/api/servers/${serverId}/like`, headers, { review: 'Great staff' })).json().likes).toBe(1);
    expect((await post(`/api/servers/${serverId}/vote`, headers, { playerName: 'Steve' })).statusCode).toBe(200);
  });

  it('answers a missing server 404 and an own server as before, whatever the address', async () => {
    const { headers } = await register();
    expect((await post('/api/servers/999999999/like', headers)).statusCode).toBe(404);
    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { username: uniqueName('owner'), password: TEST_PASSWORD, role: 'server_owner' },
    });
    const ownerHeaders = { authorization: `Bearer ${owner.json().token}` };
    const own = await createServer(t.app, Number(owner.json().user.id));
    const res = await post(`/api/servers/${own.id}/like`, ownerHeaders);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('You cannot join or vote on your own server.');
    expect((await post(`/api/servers/${serverId}/like`, headers)).json()).toMatchObject({ error: CONFIRM_FIRST });
  });

  it('sends the link again: the newest link works, the earlier one no longer; a confirmed account is told so', async () => {
    const { headers } = await register();
    expect((await post('/api/users/confirm-email/resend', headers)).json()).toMatchObject({ error: 'Email required' });
    const address = `${uniqueName('p')}@mail.example.com`;
    expect((await post('/api/users/update-email', headers, { email: address })).statusCode).toBe(200);
    const first = await confirmTokenFor(smtp, address);
    const mailsBefore = smtp.mails.length;
    const again = await post('/api/users/confirm-email/resend', headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: 'We sent the confirmation link again. Open it within 24 hours.' });
    await smtp.waitFor(mailsBefore + 1);
    const second = await confirmTokenFor(smtp, address);
    expect(second).not.toBe(first);
    expect((await post('/api/users/confirm-email', {}, { token: first })).statusCode).toBe(400);
    expect((await post('/api/users/confirm-email', {}, { token: second })).statusCode).toBe(200);
    const done = await post('/api/users/confirm-email/resend', headers);
    expect(done.statusCode).toBe(409);
    expect(done.json()).toMatchObject({ error: 'Your e-mail address is already confirmed.' });
    expect((await post('/api/users/confirm-email/resend', {})).statusCode).toBe(401);
  });

  it('lets an unconfirmed account correct its address without the old one being told', async () => {
    const typo = `${uniqueName('p')}@mail.exmaple.com`;
    const { headers } = await register(typo);
    const right = typo.replace('exmaple', 'example');
    expect((await post('/api/users/update-email', headers, { email: right, currentPassword: TEST_PASSWORD })).json()).toEqual({
      message: 'E-mail saved. We sent you a link to confirm it.',
      email: right,
    });
    expect(await me(headers)).toMatchObject({ email: right, emailConfirmed: false });
    expect(smtp.mails.filter((m) => m.to.includes(typo) && /being changed/.test(m.headers.subject ?? ''))).toHaveLength(0);
    await post('/api/users/confirm-email', {}, { token: await confirmTokenFor(smtp, right) });
    expect(await me(headers)).toMatchObject({ email: right, emailConfirmed: true });
  });

  it('keeps one account per mailbox, however the address is spelled, and refuses disposable domains', async () => {
    const base = uniqueName('mbx').replace(/_/g, '');
    await registerAndConfirm(t.app, smtp, { email: `${base}@gmail.com` });
    const { headers } = await register();
    for (const spelling of [
      `${base.toUpperCase()}@GMAIL.COM`,
      `${base}+lists@gmail.com`,
      `${base.slice(0, 3)}.${base.slice(3)}@googlemail.com`,
    ]) {
      const res = await post('/api/users/update-email', headers, { email: spelling });
      expect(res.statusCode, spelling).toBe(409);
      expect(res.json()).toMatchObject({ error: 'This e-mail address is already used by another account.' });
    }
    for (const disposable of ['x@mailinator.com', 'x@yopmail.com', 'x@sub.33mail.com']) {
      const res = await post('/api/users/update-email', headers, { email: disposable });
      expect(res.statusCode, disposable).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Disposable e-mail addresses are not accepted. Please use your own address.' });
    }
    expect(await me(headers)).toMatchObject({ email: null, emailConfirmed: false });
  });

  it('lets only the first of two accounts waiting on one mailbox confirm it', async () => {
    const address = `${uniqueName('race')}@mail.example.com`;
    const a = await register();
    const b = await register();
    expect((await post('/api/users/update-email', a.headers, { email: address })).statusCode).toBe(200);
    const tokenA = await confirmTokenFor(smtp, address);
    const tagged = address.replace('@', '+b@');
    expect((await post('/api/users/update-email', b.headers, { email: tagged })).statusCode).toBe(200);
    const tokenB = await confirmTokenFor(smtp, tagged);
    const [first, second] = await Promise.all([
      post('/api/users/confirm-email', {}, { token: tokenA }),
      post('/api/users/confirm-email', {}, { token: tokenB }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const confirmedCount = [await me(a.headers), await me(b.headers)].filter((u) => u.emailConfirmed).length;
    expect(confirmedCount).toBe(1);
  });
});

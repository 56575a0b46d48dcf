import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverT } from '../src/server/i18n/translate';
import { LOCALES } from '../src/shared/i18n/locales';
import { MSG } from '../src/shared/messages';
import { createServer, createUser, TEST_PASSWORD, type TestUser } from './helpers/factories';
import { decodeHeader, startSmtpServer } from './helpers/smtp';
import { createTestApp, type TestApp } from './helpers/test-app';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

describe('a user’s language, saved on the account, and what the server writes in it', () => {
  let t: TestApp;
  let smtp: Smtp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'rp@example.test' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const setLocale = (user: TestUser | undefined, locale: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/users/locale', headers: user?.headers ?? {}, payload: { locale } });
  const mailTo = async (address: string, before: number) => {
    const mails = await smtp.waitFor(before + 1);
    return mails.slice(before).find((m) => m.to.includes(address))!;
  };

  it('saves one of the site’s languages on the account; anything else is refused with the reason', async () => {
    const user = await createUser(t.app);
    expect((await t.app.inject({ url: '/api/user', headers: user.headers })).json()).toMatchObject({ locale: null });

    const saved = await setLocale(user, 'pt-BR');
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ id: String(user.row.id), locale: 'pt-BR' });
    expect((await t.app.inject({ url: '/api/user', headers: user.headers })).json()).toMatchObject({ locale: 'pt-BR' });

    for (const wrong of ['xx', 'pt', 'PT-BR', 'de-DE', '', ' de', 42, null, ['de'], { de: true }]) {
      const res = await setLocale(user, wrong);
      expect(res.statusCode, JSON.stringify(wrong)).toBe(400);
      expect(res.json()).toMatchObject({ error: MSG.localeInvalid, code: 'localeInvalid' });
    }
    const missing = await t.app.inject({ method: 'PUT', url: '/api/users/locale', headers: user.headers, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect((await setLocale(undefined, 'de')).statusCode).toBe(401);
    // Still the choice it saved.
    expect((await t.app.inject({ url: '/api/user', headers: user.headers })).json()).toMatchObject({ locale: 'pt-BR' });
  });

  it('mails a password reset in the account’s language, its link opening the site in it; English without a choice', async () => {
    const br = await createUser(t.app);
    await setLocale(br, 'pt-BR');
    const plain = await createUser(t.app);
    const pt = serverT('pt-BR');

    let before = smtp.mails.length;
    await t.app.inject({ method: 'POST', url: '/api/reset-password/request', payload: { username: br.row.username } });
    const mail = await mailTo(br.row.email!, before);
    expect(decodeHeader(mail.headers.subject)).toBe(pt('email.reset.subject'));
    expect(decodeHeader(mail.headers.subject)).not.toBe(serverT('en')('email.reset.subject'));
    expect(mail.text).toContain(pt('email.greeting', { username: br.row.username }));
    expect(mail.text).toMatch(/\/login\?reset=[\w-]+&lang=pt-BR/);

    before = smtp.mails.length;
    await t.app.inject({ method: 'POST', url: '/api/reset-password/request', payload: { username: plain.row.username } });
    const english = await mailTo(plain.row.email!, before);
    expect(decodeHeader(english.headers.subject)).toBe('Reset your password');
    expect(english.text).toContain(`Hello ${plain.row.username},`);
    expect(english.text).not.toContain('lang=');
  });

  it('a new account keeps the language its registration page was in: its confirmation e-mail is in it; none asked, none saved', async () => {
    const username = `neu_${Date.now().toString(36)}`;
    const before = smtp.mails.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' },
      payload: { username, password: TEST_PASSWORD, role: 'player', email: `${username}@example.test` },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ user: { locale: 'de' } });
    const mail = await mailTo(`${username}@example.test`, before);
    expect(decodeHeader(mail.headers.subject)).toBe(serverT('de')('email.confirm.subject'));
    expect(mail.text).toMatch(/&lang=de/);

    const chosen = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'accept-language': 'de', cookie: 'rp_lang=tr' },
      payload: { username: `${username}_tr`, password: TEST_PASSWORD, role: 'player' },
    });
    expect(chosen.json()).toMatchObject({ user: { locale: 'tr' } });
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'accept-language': 'ja' },
      payload: { username: `${username}_ja`, password: TEST_PASSWORD, role: 'player' },
    });
    expect(none.json()).toMatchObject({ user: { locale: null } });
  });

  it('writes the reset e-mail in each of the seven languages', async () => {
    for (const locale of LOCALES) {
      const user = await createUser(t.app);
      await setLocale(user, locale);
      const before = smtp.mails.length;
      await t.app.inject({ method: 'POST', url: '/api/reset-password/request', payload: { username: user.row.username } });
      const mail = await mailTo(user.row.email!, before);
      const tr = serverT(locale);
      expect(decodeHeader(mail.headers.subject), locale).toBe(tr('email.reset.subject'));
      expect(mail.text, locale).toContain(tr('email.greeting', { username: user.row.username }));
      if (locale !== 'en') expect(tr('email.reset.subject'), locale).not.toBe(serverT('en')('email.reset.subject'));
    }
  });

  it('switching the language changes the next e-mail: a new address is confirmed in German', async () => {
    const user = await createUser(t.app, { email: null });
    await setLocale(user, 'de');
    const before = smtp.mails.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/update-email',
      headers: user.headers,
      payload: { email: `${user.row.username}.neu@example.test`, currentPassword: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const mail = await mailTo(`${user.row.username}.neu@example.test`, before);
    expect(decodeHeader(mail.headers.subject)).toBe(serverT('de')('email.confirm.subject'));
    expect(mail.text).toMatch(/confirm-email=[\w-]+&lang=de/);
  });

  it('writes each follower’s inbox notice and push in their own language', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const serverId = (await createServer(t.app, owner.row.id, { name: 'Polyglot RP' })).id;
    const fans = { en: await createUser(t.app), tr: await createUser(t.app), fr: await createUser(t.app) };
    await setLocale(fans.tr, 'tr');
    await setLocale(fans.fr, 'fr');
    for (const fan of Object.values(fans)) {
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/servers/${serverId}/follow`, headers: fan.headers })).statusCode,
      ).toBeLessThan(300);
    }
    await t.app.ctx.follows.backOnline(serverId);
    for (const [locale, fan] of Object.entries(fans)) {
      const inbox = (await t.app.inject({ url: '/api/notifications', headers: fan.headers })).json<
        Array<{ title: string; message: string }>
      >();
      const tr = serverT(locale);
      expect(
        inbox.map((n) => n.title),
        locale,
      ).toContain(tr('notice.backOnline.title', { server: 'Polyglot RP' }));
      expect(
        inbox.map((n) => n.message),
        locale,
      ).toContain(tr('notice.backOnline.message'));
    }
    expect(serverT('tr')('notice.backOnline.message')).not.toBe(serverT('en')('notice.backOnline.message'));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser, TEST_PASSWORD } from './helpers/factories';
import { startSmtpServer } from './helpers/smtp';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

describe('changing the e-mail address', () => {
  let t: TestApp;
  let smtp: Smtp;
  let clock: Date | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ env: { SMTP_URL: smtp.url }, build: { now: () => clock ?? new Date() } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const change = (headers: object, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/users/update-email', headers: headers as Record<string, string>, payload });
  const confirm = (token: string) => t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token } });
  const emailOf = async (headers: object) =>
    (await t.app.inject({ url: '/api/user', headers: headers as Record<string, string> })).json().email as string | null;
  const mailTo = async (address: string) => {
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      const mail = smtp.mails.findLast((m) => m.to.includes(address));
      if (mail) return mail;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no mail to ${address}`);
  };
  const linkToken = (text: string) => /confirm-email=([\w-]+)/.exec(text)?.[1] ?? '';

  it('asks for the current password', async () => {
    const user = await createUser(t.app);
    const missing = await change(user.headers, { email: 'new@example.test' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'All fields are required' });
    const wrong = await change(user.headers, { email: 'new@example.test', currentPassword: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'Current password is incorrect' });
    expect(await emailOf(user.headers)).toBe(user.row.email);
  });

  it('changes only when the link mailed to the new address is opened, once; the old address is told', async () => {
    const user = await createUser(t.app);
    const newEmail = `${user.row.username}.new@example.test`;
    const res = await change(user.headers, { email: newEmail, currentPassword: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Check your inbox: we sent a confirmation link to the new address. It takes effect once you open it.',
      email: user.row.email,
    });
    expect(await emailOf(user.headers)).toBe(user.row.email);

    const confirmMail = await mailTo(newEmail);
    expect(confirmMail.text).toContain('http://localhost:3000/login?confirm-email=');
    const notice = await mailTo(user.row.email!);
    expect(notice.headers.subject).toBe('Your e-mail address is being changed');
    expect(notice.text).toContain(newEmail);
    expect(notice.text).not.toContain('confirm-email=');

    const token = linkToken(confirmMail.text);
    const row = await t.app.ctx.db.selectFrom('emailChanges').selectAll().where('userId', '=', user.row.id).executeTakeFirstOrThrow();
    expect(row.tokenHash).not.toContain(token);
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    const ok = await confirm(token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: 'E-mail address confirmed.' });
    expect(await emailOf(user.headers)).toBe(newEmail);
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'This confirmation link is invalid or has expired.' });
  });

  it('refuses an expired link and one replaced by a newer request', async () => {
    const user = await createUser(t.app);
    await change(user.headers, { email: `${user.row.username}.a@example.test`, currentPassword: TEST_PASSWORD });
    const first = linkToken((await mailTo(`${user.row.username}.a@example.test`)).text);
    await change(user.headers, { email: `${user.row.username}.b@example.test`, currentPassword: TEST_PASSWORD });
    const second = linkToken((await mailTo(`${user.row.username}.b@example.test`)).text);
    expect((await confirm(first)).statusCode).toBe(400);
    clock = new Date(Date.now() + 25 * 60 * 60_000);
    try {
      expect((await confirm(second)).statusCode).toBe(400);
    } finally {
      clock = undefined;
    }
    expect(await emailOf(user.headers)).toBe(user.row.email);
  });

  it('saves a first address at once without the password, unconfirmed until its link is opened', async () => {
    const user = await createUser(t.app, { email: null });
    const address = `${user.row.username}.first@example.test`;
    const res = await change(user.headers, { email: address });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'E-mail saved. We sent you a link to confirm it.', email: address });
    expect(await emailOf(user.headers)).toBe(address);
    const confirmedAt = async () =>
      (await t.app.ctx.db.selectFrom('users').select('emailConfirmedAt').where('id', '=', user.row.id).executeTakeFirstOrThrow())
        .emailConfirmedAt;
    expect(await confirmedAt()).toBeNull();

    expect((await confirm(linkToken((await mailTo(address)).text))).statusCode).toBe(200);
    expect(await confirmedAt()).toBeInstanceOf(Date);

    // Now there is an address to protect: changing it asks for the password.
    const again = await change(user.headers, { email: `${user.row.username}.other@example.test` });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'All fields are required' });
    expect(await emailOf(user.headers)).toBe(address);
  });

  it('stores an address with quotes verbatim', async () => {
    const user = await createUser(t.app, { email: null });
    await change(user.headers, { email: "o'brien@example.com", currentPassword: TEST_PASSWORD });
    const token = linkToken((await mailTo("o'brien@example.com")).text);
    expect((await confirm(token)).statusCode).toBe(200);
    expect(await emailOf(user.headers)).toBe("o'brien@example.com");
  });
});

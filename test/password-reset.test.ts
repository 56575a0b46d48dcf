import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser, TEST_PASSWORD } from './helpers/factories';
import { startSmtpServer } from './helpers/smtp';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

describe('password reset through a real SMTP server (decisions §4)', () => {
  let t: TestApp;
  let smtp: Smtp;
  const later = new Date(Date.now() + 61 * 60_000);
  let clock: Date | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'rp@example.test' }, build: { now: () => clock ?? new Date() } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const request = (username: string) => t.app.inject({ method: 'POST', url: '/api/reset-password/request', payload: { username } });
  const reset = (payload: object) => t.app.inject({ method: 'POST', url: '/api/reset-password', payload });
  const codeFrom = (text: string) =>
    /reset code[^:]*: (\S+)/i.exec(text)?.[1] ?? /code in the Reset Password dialog: (\S+)/.exec(text)?.[1];

  it('answers the same for known, unknown and address-less users, and mails only the real one', async () => {
    const withMail = await createUser(t.app);
    const noMail = await createUser(t.app, { email: null });
    const before = smtp.mails.length;
    const answers = await Promise.all([request(withMail.row.username), request('nobody_at_all'), request(noMail.row.username)]);
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(answers[0]!.json());
    }
    const mails = await smtp.waitFor(before + 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(mails.length - before).toBe(1);
    const mail = mails.at(-1)!;
    expect(mail.to).toEqual([withMail.row.email]);
    expect(mail.from).toBe('rp@example.test');
    expect(mail.text).toContain('http://localhost:3000/login?reset=');
  });

  it('sets a new password with the mailed code once, and ends every older session', async () => {
    const user = await createUser(t.app);
    const before = smtp.mails.length;
    await request(user.row.username);
    const mail = (await smtp.waitFor(before + 1)).at(-1)!;
    const code = codeFrom(mail.text);
    expect(code).toMatch(/^[\w-]{20,}$/);

    const done = await reset({ token: code, newPassword: 'brand-new-password' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: 'Password updated. You can log in now.' });

    expect((await t.app.inject({ url: '/api/user', headers: user.headers })).statusCode).toBe(401);
    const oldLogin = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.row.username, password: TEST_PASSWORD },
    });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.row.username, password: 'brand-new-password' },
    });
    expect(newLogin.statusCode).toBe(200);

    const reuse = await reset({ token: code, newPassword: 'another-password' });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ error: 'This reset code is invalid or has expired.' });
  });

  it('uses a code only once even when two requests race', async () => {
    const user = await createUser(t.app);
    const before = smtp.mails.length;
    await request(user.row.username);
    const code = codeFrom((await smtp.waitFor(before + 1)).at(-1)!.text);
    const results = await Promise.all([
      reset({ token: code, newPassword: 'first-password-x' }),
      reset({ token: code, newPassword: 'second-password-x' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('refuses an expired code', async () => {
    const user = await createUser(t.app);
    const before = smtp.mails.length;
    await request(user.row.username);
    const code = codeFrom((await smtp.waitFor(before + 1)).at(-1)!.text);
    clock = later;
    try {
      const res = await reset({ token: code, newPassword: 'too-late-password' });
      expect(res.statusCode).toBe(400);
    } finally {
      clock = undefined;
    }
  });

  it('changes nothing for {username, newPassword} without a valid token', async () => {
    const user = await createUser(t.app);
    for (const payload of [
      { username: user.row.username, newPassword: 'hijacked-password' },
      { username: user.row.username, newPassword: 'hijacked-password', token: 'made-up-token-value' },
    ]) {
      const res = await reset(payload);
      expect(res.statusCode).toBe(400);
    }
    const missing = await reset({ username: user.row.username, newPassword: 'hijacked-password' });
    expect(missing.json()).toEqual({ error: 'All fields are required.' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.row.username, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/user', headers: user.headers })).statusCode).toBe(200);
  });

  it('checks the new password like registration does', async () => {
    const res = await reset({ token: 'whatever-token-value', newPassword: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Password must be 8 to 128 characters' });
  });
});

describe('mail without SMTP_URL', () => {
  it('writes each message as an .eml file to DATA_DIR/outbox', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const t = await createTestApp();
    try {
      const user = await createUser(t.app);
      await t.app.inject({ method: 'POST', url: '/api/reset-password/request', payload: { username: user.row.username } });
      const outbox = path.join(t.dataDir, 'outbox');
      const until = Date.now() + 5000;
      while ((!fs.existsSync(outbox) || fs.readdirSync(outbox).length === 0) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 20));
      const files = fs.readdirSync(outbox);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const raw = fs.readFileSync(path.join(outbox, files[0]!), 'utf8');
      expect(raw).toContain(`To: ${user.row.email}`);
      expect(raw).toContain('Subject: Reset your password');
    } finally {
      await t.close();
    }
  });
});

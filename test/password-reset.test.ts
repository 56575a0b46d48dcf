import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser, TEST_PASSWORD } from './helpers/factories';
import { startSmtpServer } from './helpers/smtp';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

describe('password reset through a real SMTP server', () => {
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
    expect(reuse.json()).toMatchObject({ error: 'This reset code is invalid or has expired.' });
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
    expect(missing.json()).toMatchObject({ error: 'All fields are required.' });
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
    expect(res.json()).toMatchObject({ error: 'Password must be 8 to 128 characters' });
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

describe('guessing reset codes', () => {
  let t: TestApp;
  let smtp: Smtp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      env: { SMTP_URL: smtp.url },
      build: { rateLimits: { resetConfirmPerIp: { max: 8, windowMs: 60_000 }, resetConfirmPerUser: { max: 20, windowMs: 60_000 } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const codeFor = async (username: string, email: string) => {
    await t.app.inject({ method: 'POST', url: '/api/reset-password/request', payload: { username } });
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      const mail = smtp.mails.findLast((m) => m.to.includes(email));
      const code = mail && /Reset Password dialog: (\S+)/.exec(mail.text)?.[1];
      if (code) return code;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no reset mail to ${email}`);
  };
  const reset = (token: string, ip: string, newPassword = 'brand-new-password') =>
    t.app.inject({ method: 'POST', url: '/api/reset-password', remoteAddress: ip, payload: { token, newPassword } });
  /** The same code with its secret half changed: aimed at that code, but wrong. */
  const wrongVersionOf = (code: string, i: number) => code.slice(0, 12) + `wrong${i}`.padEnd(24, 'x');

  it('burns a code after five wrong tries: the right code on the sixth fails', async () => {
    const a = await createUser(t.app);
    const code = await codeFor(a.row.username, a.row.email!);
    for (let i = 0; i < 5; i++) expect((await reset(wrongVersionOf(code, i), `10.20.${i}.1`)).statusCode).toBe(400);
    const sixth = await reset(code, '10.20.9.1');
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json()).toMatchObject({ error: 'This reset code is invalid or has expired.' });
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: a.row.username, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
  });

  it("counts wrong codes per account: A's failures never block B, and a code naming no one burns nothing", async () => {
    const a = await createUser(t.app);
    const b = await createUser(t.app);
    const codeA = await codeFor(a.row.username, a.row.email!);
    const codeB = await codeFor(b.row.username, b.row.email!);
    for (let i = 0; i < 5; i++) await reset(wrongVersionOf(codeA, i), `10.21.${i}.1`);
    // Made-up codes name no code at all, so they count only against the client that sent them.
    for (let i = 0; i < 4; i++) expect((await reset(`x${i}`.padEnd(36, 'y'), '10.21.9.9')).statusCode).toBe(400);
    expect((await reset(codeB, '10.21.100.1')).statusCode).toBe(200);
  });

  it('still limits each client', async () => {
    const codes = [];
    for (let i = 0; i < 9; i++) codes.push((await reset(`z${i}`.padEnd(36, 'q'), '10.22.0.1')).statusCode);
    expect(codes.slice(0, 8).every((c) => c === 400)).toBe(true);
    expect(codes[8]).toBe(429);
    const c = await createUser(t.app);
    expect((await reset(await codeFor(c.row.username, c.row.email!), '10.22.0.2')).statusCode).toBe(200);
  });
});

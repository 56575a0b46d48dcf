import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createUser, type TestUser } from './helpers/factories';
import { startSmtpServer } from './helpers/smtp';
import { openTestDatabase } from './helpers/test-db';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;
const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return check();
};

describe('mass e-mail through a real SMTP server', () => {
  let smtp: Smtp;
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ env: { SMTP_URL: smtp.url }, build: { emailsPerSecond: 200, queue: { pollingIntervalSeconds: 0.5 } } });
    admin = await createUser(t.app, { role: 'admin' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const send = (payload: object, user: TestUser = admin) =>
    t.app.inject({ method: 'POST', url: '/api/admin/send-email', headers: user.headers, payload });
  const campaign = async (id: string) => (await t.app.inject({ url: `/api/admin/email-campaigns/${id}`, headers: admin.headers })).json();

  it('is for admins only and needs subject, content and target', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    expect((await send({ subject: 's', content: 'c', target: 'owners' }, owner)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/admin/send-email', payload: { subject: 's', content: 'c', target: 'owners' } }))
        .statusCode,
    ).toBe(401);
    expect((await send({ content: 'c', target: 'owners' })).json()).toMatchObject({ error: 'Subject is required' });
    expect((await send({ subject: 's', content: ' ', target: 'owners' })).json()).toMatchObject({ error: 'Content is required' });
    expect((await send({ subject: 's', content: 'c', target: 'admins' })).json()).toMatchObject({ error: 'Choose owners or players' });
  });

  it('mails owners only, skips and counts those without an address or unsubscribed, and honours the unsubscribe link next time', async () => {
    const owners = await Promise.all(Array.from({ length: 3 }, () => createUser(t.app, { role: 'server_owner' })));
    const noMail = await createUser(t.app, { role: 'server_owner', email: null });
    // An address typed but never confirmed may be anyone's: no campaign goes there.
    const unconfirmed = await createUser(t.app, { role: 'server_owner', confirmed: false });
    await createUser(t.app); // a player: not a recipient
    const ownerCount = (await t.app.ctx.db.selectFrom('users').select('id').where('role', '=', 'server_owner').execute()).length;
    const before = smtp.mails.length;
    const res = await send({ subject: 'Owner news', content: 'New dashboard features are live.', target: 'owners' });
    expect(res.statusCode).toBe(202);
    const id = res.json().id as string;
    expect(res.json()).toMatchObject({ total: ownerCount, skipped: 2 });
    expect(await waitFor(async () => (await campaign(id)).status === 'done')).toBe(true);
    const done = await campaign(id);
    expect(done).toMatchObject({ sent: ownerCount - 2, skipped: 2, failed: 0 });
    const mails = smtp.mails.slice(before);
    expect(mails.map((m) => m.to[0]).sort()).toEqual(
      owners
        .map((o) => o.row.email)
        .concat(
          (
            await t.app.ctx.db
              .selectFrom('users')
              .select('email')
              .where('role', '=', 'server_owner')
              .where('email', 'is not', null)
              .where('emailConfirmedAt', 'is not', null)
              .execute()
          )
            .map((u) => u.email!)
            .filter((e) => !owners.some((o) => o.row.email === e)),
        )
        .sort(),
    );
    expect(mails.some((m) => m.to[0] === noMail.row.username)).toBe(false);
    expect(mails.some((m) => m.to[0] === unconfirmed.row.email)).toBe(false);
    const mail = mails.find((m) => m.to[0] === owners[0]!.row.email)!;
    expect(mail.headers.subject).toBe('Owner news');
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const oneClick = /<([^>]+)>/.exec(mail.headers['list-unsubscribe']!)![1]!;
    expect(oneClick).toMatch(/^http:\/\/localhost:3000\/api\/unsubscribe\?token=/);
    expect(mail.text).toContain('New dashboard features are live.');
    const pageLink = /Unsubscribe: (\S+)/.exec(mail.text)![1]!;
    expect(pageLink).toMatch(/^http:\/\/localhost:3000\/unsubscribe\?token=/);

    // RFC 8058 one-click: the mail client posts a form to the header's URL.
    const url = new URL(oneClick);
    const click = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(click.statusCode).toBe(200);
    expect(click.json()).toEqual({ message: 'You will get no more e-mails like this.' });
    // The page link's token, posted by the web page.
    const token = new URL(pageLink).searchParams.get('token')!;
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/unsubscribe',
          payload: { token: token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) },
        })
      ).statusCode,
    ).toBe(400);
    const second = owners[1]!;
    const secondMail = mails.find((m) => m.to[0] === second.row.email)!;
    const secondToken = new URL(/Unsubscribe: (\S+)/.exec(secondMail.text)![1]!).searchParams.get('token')!;
    expect((await t.app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { token: secondToken } })).statusCode).toBe(200);

    const again = await send({ subject: 'Second', content: 'More news', target: 'owners' });
    // No address, not confirmed, and the two who unsubscribed.
    expect(again.json().skipped).toBe(4);
    const beforeSecond = smtp.mails.length;
    expect(await waitFor(async () => (await campaign(again.json().id)).status === 'done')).toBe(true);
    const recipients = smtp.mails.slice(beforeSecond).map((m) => m.to[0]);
    expect(recipients).not.toContain(owners[0]!.row.email);
    expect(recipients).not.toContain(second.row.email);
    expect(recipients).toContain(owners[2]!.row.email);
  });

  it('mails players only', async () => {
    const player = await createUser(t.app);
    const owner = await createUser(t.app, { role: 'server_owner' });
    const before = smtp.mails.length;
    const res = await send({ subject: 'Players', content: 'Hi players', target: 'players' });
    expect(
      await waitFor(async () => (await campaign(res.json().id)).status === 'done'),
      JSON.stringify([await campaign(res.json().id), t.errors, res.json()]),
    ).toBe(true);
    const recipients = smtp.mails.slice(before).map((m) => m.to[0]);
    expect(recipients).toContain(player.row.email);
    expect(recipients).not.toContain(owner.row.email);
  });
});

describe('a mass e-mail stopped half-way', () => {
  it('reaches every recipient exactly once after the sender is stopped and started again', async () => {
    const smtp = await startSmtpServer();
    const database = await openTestDatabase();
    const options = {
      env: { SMTP_URL: smtp.url, JWT_SECRET: 'shared-secret-of-both-instances-0123456789' },
      build: { database, emailsPerSecond: 10, queue: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 } },
    };
    const first = await createTestApp(options);
    try {
      const admin = await createUser(first.app, { role: 'admin' });
      const players = await Promise.all(Array.from({ length: 10 }, () => createUser(first.app)));
      const res = await first.app.inject({
        method: 'POST',
        url: '/api/admin/send-email',
        headers: admin.headers,
        payload: { subject: 'Half', content: 'Way', target: 'players' },
      });
      expect(res.statusCode).toBe(202);
      expect(await waitFor(() => smtp.mails.length >= 3)).toBe(true);
      await first.close();
      const partial = smtp.mails.length;
      expect(partial).toBeLessThan(10);

      const second = await createTestApp(options);
      try {
        const id = res.json().id as string;
        const state = async () => (await second.app.inject({ url: `/api/admin/email-campaigns/${id}`, headers: admin.headers })).json();
        const jobs = async () =>
          (await second.app.ctx.db.selectFrom('emailDeliveries').select(['userId', 'status']).execute()).map((d) => d.status).join(',');
        expect(
          await waitFor(async () => (await state()).status === 'done', 30_000),
          JSON.stringify([await state(), await jobs(), partial, smtp.mails.length]),
        ).toBe(true);
        const recipients = smtp.mails.map((m) => m.to[0]).sort();
        expect(recipients).toEqual(players.map((p) => p.row.email).sort());
        expect((await second.app.inject({ url: `/api/admin/email-campaigns/${id}`, headers: admin.headers })).json()).toMatchObject({
          total: 10,
          sent: 10,
          skipped: 0,
          failed: 0,
        });
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
      await smtp.close();
    }
  }, 90_000);
});

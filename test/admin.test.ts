import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, TEST_PASSWORD, type TestUser } from './helpers/factories';
import { file, makeImage, multipart } from './helpers/multipart';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.app, { role: 'admin' });
});
afterAll(() => t.close());

const get = (url: string, user?: TestUser) => t.app.inject({ url: `/api${url}`, headers: user?.headers });
const ADMIN_ROUTES: Array<[string, string]> = [
  ['GET', '/admin/users'],
  ['GET', '/admin/analytics'],
  ['GET', '/admin/revenue'],
  ['GET', '/admin/popular-filters'],
  ['GET', '/admin/settings'],
  ['PUT', '/admin/settings'],
  ['DELETE', '/admin/users/1'],
  ['DELETE', '/admin/servers/1'],
  ['POST', '/admin/send-email'],
  ['GET', '/admin/email-campaigns'],
  ['GET', '/admin/email-campaigns/1'],
  ['GET', '/admin/reports'],
  ['POST', '/admin/reports/1/resolve'],
];

/** 401 `{error}` without a token, 403 to each of `others`. */
async function expectRefused(method: string, url: string, payload: unknown, others: TestUser[]): Promise<void> {
  const send = (user?: TestUser) =>
    t.app.inject({
      method: method as 'GET',
      url: `/api${url}`,
      headers: user?.headers,
      ...(payload ? { payload: payload as object } : {}),
    });
  const anonymous = await send();
  expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
  expect(anonymous.json()).toMatchObject({ error: expect.any(String) });
  for (const user of others) expect((await send(user)).statusCode, `${method} ${url} as ${user.row.role}`).toBe(403);
}

describe('admin access', () => {
  it('answers 401 without a token and 403 to players and owners on every admin route', async () => {
    const player = await createUser(t.app);
    const owner = await createUser(t.app, { role: 'server_owner' });
    for (const [method, url] of ADMIN_ROUTES) {
      const payload =
        method === 'PUT'
          ? { maintenanceMode: true }
          : url.endsWith('send-email')
            ? { subject: 's', content: 'c', target: 'owners' }
            : url.endsWith('resolve')
              ? { action: 'dismiss' }
              : undefined;
      await expectRefused(method, url, payload, [player, owner]);
    }
    expect((await get('/admin/settings', admin)).json()).toEqual({ enableBoosting: true, enableReviews: true, maintenanceMode: false });
  });

  it('answers 401 and 403 before reading the request: malformed bodies, queries and ids tell a stranger nothing', async () => {
    const player = await createUser(t.app);
    const owner = await createUser(t.app, { role: 'server_owner' });
    const malformed: Array<[string, string, unknown]> = [
      ['PUT', '/admin/settings', { maintenanceMode: 'yes' }],
      ['PUT', '/admin/settings', {}],
      ['POST', '/admin/fraud/actions', { action: 'void' }],
      ['POST', '/admin/send-email', {}],
      ['POST', '/admin/reports/abc/resolve', { action: 'nonsense' }],
      ['POST', '/notifications', {}],
      ['DELETE', '/admin/users/abc', undefined],
      ['DELETE', '/admin/servers/abc', undefined],
      ['GET', '/admin/users?limit=abc', undefined],
      ['GET', '/admin/email-campaigns/999999999', undefined],
      ['GET', '/admin/fraud/servers/abc', undefined],
    ];
    for (const [method, url, payload] of malformed) await expectRefused(method, url, payload, [player, owner]);
    // An admin still gets the route's own answer to the same input.
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: admin.headers,
      payload: { maintenanceMode: 'yes' },
    });
    expect(settings.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/admin/users/abc', headers: admin.headers })).statusCode).toBe(404);
  });
});

describe('admin data', () => {
  it('searches and pages users', async () => {
    const name = `findme_${process.pid}`;
    await createUser(t.app, { username: name, role: 'server_owner' });
    const res = await get(`/admin/users?q=${name}`, admin);
    expect(res.json()).toEqual([expect.objectContaining({ username: name, role: 'server_owner', servers: 0 })]);
    expect(res.headers['x-total-count']).toBe('1');
    const past = await get(`/admin/users?q=${name}&offset=5`, admin);
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('1');
    expect(Number((await get('/admin/users?limit=1', admin)).headers['x-total-count'])).toBeGreaterThan(2);
    expect((await get('/admin/users?role=admin', admin)).json().every((u: { role: string }) => u.role === 'admin')).toBe(true);
  });

  it('reports revenue by type over a day, a week and a month, from paid payments only', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const db = t.app.ctx.db;
    const days = (n: number) => new Date(Date.now() - n * 86400_000);
    await db
      .insertInto('payments')
      .values([
        { userId: owner.row.id, type: 'playerBoost', amountCents: 200, createdAt: days(0) },
        { userId: owner.row.id, type: 'ownerBoost', amountCents: 375, createdAt: days(3) },
        { userId: owner.row.id, type: 'subscription', amountCents: 2500, createdAt: days(20) },
        { userId: owner.row.id, type: 'serverOfTheWeekend', amountCents: 10000, createdAt: days(40) },
        { userId: owner.row.id, type: 'ownerBoost', amountCents: 9999, createdAt: days(1), status: 'refunded' },
      ])
      .execute();
    const revenue = (await get('/admin/revenue', admin)).json();
    expect(revenue.daily).toEqual({ playerBoost: 2, ownerBoost: 0, subscription: 0, serverOfTheWeekend: 0 });
    expect(revenue.weekly).toEqual({ playerBoost: 2, ownerBoost: 3.75, subscription: 0, serverOfTheWeekend: 0 });
    expect(revenue.monthly).toEqual({ playerBoost: 2, ownerBoost: 3.75, subscription: 25, serverOfTheWeekend: 0 });
    expect(revenue.series).toHaveLength(30);
  });

  it('lists the top 10 filters players searched in the last 30 days', async () => {
    const db = t.app.ctx.db;
    await db
      .insertInto('searchLog')
      .values([
        ...Array.from({ length: 5 }, (_, i) => ({ filter: 'Serious RP', viewer: `n:10.0.${i}.0/24` })),
        ...Array.from({ length: 3 }, (_, i) => ({ filter: 'FiveM (GTA V)', viewer: `u:${i}` })),
        { filter: 'English', viewer: 'n:10.9.9.0/24', createdAt: new Date(Date.now() - 40 * 86400_000), day: '2020-01-01' },
      ])
      .execute();
    const top = (await get('/admin/popular-filters', admin)).json();
    expect(top.slice(0, 2)).toEqual([
      { filter: 'Serious RP', count: 5 },
      { filter: 'FiveM (GTA V)', count: 3 },
    ]);
    expect(top.find((f: { filter: string }) => f.filter === 'English')).toBeUndefined();
  });

  it('counts users by role, servers, votes, joins, boosts and signups', async () => {
    const analytics = (await get('/admin/analytics', admin)).json();
    expect(analytics.users.admin).toBeGreaterThanOrEqual(1);
    expect(analytics.signups).toHaveLength(30);
    expect(analytics.signups.at(-1).count).toBeGreaterThan(0);
    expect(analytics).toHaveProperty('pushPromotions');
  });
});

describe('deleting', () => {
  it('deletes a user who voted and joined: their servers and files go, other counters stay equal to rows', async () => {
    const owner = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const server = await createServer(t.app, owner.row.id);
    const voter = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const voterServer = await createServer(t.app, voter.row.id);
    const body = multipart([file('banner', await makeImage())]);
    const banner = (
      await t.app.inject({
        method: 'POST',
        url: `/api/servers/${voterServer.id}/upload-banner`,
        headers: { ...voter.headers, ...body.headers },
        payload: body.payload,
      })
    ).json().banner as string;
    const bannerFile = path.join(t.dataDir, 'uploads', banner.replace('/uploads/', ''));
    expect(fs.existsSync(bannerFile)).toBe(true);
    const others = await Promise.all([createUser(t.app), createUser(t.app)]);
    for (const u of [voter, ...others]) {
      await t.app.inject({ method: 'POST', url: `/api/servers/${server.id}/like`, headers: u.headers });
      await t.app.inject({ method: 'POST', url: `/api/servers/${server.id}/join`, headers: u.headers });
    }
    expect(
      await t.app.ctx.db.selectFrom('servers').select(['likes', 'totalJoins']).where('id', '=', server.id).executeTakeFirstOrThrow(),
    ).toEqual({ likes: 3, totalJoins: 3 });

    const res = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${voter.row.id}`, headers: admin.headers });
    expect(res.statusCode).toBe(204);
    const after = await t.app.ctx.db
      .selectFrom('servers')
      .select(['likes', 'totalJoins'])
      .where('id', '=', server.id)
      .executeTakeFirstOrThrow();
    const votes = await t.app.ctx.db.selectFrom('votes').select('id').where('serverId', '=', server.id).execute();
    const joins = await t.app.ctx.db.selectFrom('joins').select('id').where('serverId', '=', server.id).execute();
    expect(after).toEqual({ likes: votes.length, totalJoins: joins.length });
    expect(after).toEqual({ likes: 2, totalJoins: 2 });
    expect(await t.app.ctx.db.selectFrom('servers').select('id').where('id', '=', voterServer.id).execute()).toEqual([]);
    expect(fs.existsSync(bannerFile)).toBe(false);
    expect((await get('/user', voter)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${voter.row.id}`, headers: admin.headers })).statusCode).toBe(
      404,
    );
  });

  it('never deletes the admin themself', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${admin.row.id}`, headers: admin.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'You cannot delete your own account.' });
  });

  it('deletes a server with its media', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/servers/${server.id}`, headers: admin.headers })).statusCode).toBe(204);
    expect((await get(`/servers/${server.id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/servers/${server.id}`, headers: admin.headers })).statusCode).toBe(404);
  });
});

describe('feature toggles', () => {
  it('maintenance mode refuses non-admin writes with 503, keeps reads and admins working', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    await t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: admin.headers, payload: { maintenanceMode: true } });
    try {
      const write = await t.app.inject({
        method: 'POST',
        url: '/api/servers',
        headers: owner.headers,
        payload: { name: 'During maintenance' },
      });
      expect(write.statusCode).toBe(503);
      expect(write.json()).toMatchObject({ error: 'The site is in maintenance mode. Please try again later.' });
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/register',
            payload: { username: 'late_comer', password: 'long-enough-pw', role: 'player' },
          })
        ).statusCode,
      ).toBe(503);
      expect((await get('/servers')).statusCode).toBe(200);
      // Sessions still renew and end: a token running out during maintenance logs nobody out.
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: owner.row.username, password: TEST_PASSWORD },
      });
      expect(login.statusCode).toBe(200);
      const cookie = String([login.headers['set-cookie']].flat().find((c) => String(c).startsWith('rp_refresh='))).split(';')[0]!;
      const renewed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie } });
      expect(renewed.statusCode).toBe(200);
      const next = String([renewed.headers['set-cookie']].flat().find((c) => String(c).startsWith('rp_refresh='))).split(';')[0]!;
      const logout = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie: next, authorization: `Bearer ${renewed.json().token}` },
      });
      expect(logout.statusCode).toBeLessThan(300);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/notifications',
            headers: admin.headers,
            payload: { userType: 'player', title: 'Back soon', message: 'Maintenance' },
          })
        ).statusCode,
      ).toBe(201);
    } finally {
      const off = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: admin.headers,
        payload: { maintenanceMode: false },
      });
      expect(off.json().maintenanceMode).toBe(false);
    }
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/servers', headers: owner.headers, payload: { name: 'After maintenance' } }))
        .statusCode,
    ).toBe(201);
  });

  it('reviews off hides the reviews and refuses new ones; votes still count', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const early = await createUser(t.app);
    await t.app.inject({ method: 'POST', url: `/api/servers/${server.id}/like`, headers: early.headers, payload: { review: 'Lovely' } });
    await t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: admin.headers, payload: { enableReviews: false } });
    try {
      expect((await get(`/servers/${server.id}`)).json()).toMatchObject({ reviews: [], reviewsTotal: 0, likes: 1 });
      expect((await get(`/servers/${server.id}/reviews`)).json()).toEqual([]);
      const player = await createUser(t.app);
      const refused = await t.app.inject({
        method: 'POST',
        url: `/api/servers/${server.id}/like`,
        headers: player.headers,
        payload: { review: 'Nope' },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'Reviews are turned off right now.' });
      expect((await t.app.inject({ method: 'POST', url: `/api/servers/${server.id}/like`, headers: player.headers })).statusCode).toBe(200);
    } finally {
      await t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: admin.headers, payload: { enableReviews: true } });
    }
    expect((await get(`/servers/${server.id}`)).json().reviews.map((r: { review: string | null }) => r.review)).toContain('Lovely');
  });
});

describe('testimonials', () => {
  it('takes one per owner, 1 to 300 characters after trimming, and lists them with the server', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    await createServer(t.app, owner.row.id, { name: 'Quoted City' });
    const post = (user: TestUser, content: unknown) =>
      t.app.inject({ method: 'POST', url: '/api/testimonials', headers: user.headers, payload: { content } });
    expect((await post(owner, '   ')).json()).toMatchObject({ error: 'Testimonial cannot be empty.' });
    expect((await post(owner, 'x'.repeat(301))).json()).toMatchObject({ error: 'Testimonial cannot exceed 300 characters.' });
    const overAfterTrim = await post(owner, `  ${'y'.repeat(298)} <b>! `);
    expect(overAfterTrim.statusCode).toBe(400);
    const good = await post(owner, '  Best list for <b>RP</b> servers!  ');
    expect(good.statusCode).toBe(201);
    expect(good.json()).toMatchObject({ testimonial: 'Best list for <b>RP</b> servers!', serverName: 'Quoted City' });
    const again = await post(owner, 'Twice');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'Testimonial already exists' });
    const player = await createUser(t.app);
    expect((await post(player, 'Hi')).statusCode).toBe(403);
    const list = (await get('/testimonials')).json();
    expect(list[0]).toMatchObject({
      testimonial: 'Best list for <b>RP</b> servers!',
      serverName: 'Quoted City',
      serverId: expect.any(String),
    });
    const race = await createUser(t.app, { role: 'server_owner' });
    const results = await Promise.all(Array.from({ length: 5 }, () => post(race, 'Racing')));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });
});

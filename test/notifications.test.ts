import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { startPushEndpoint } from './helpers/push-endpoint';
import type { DatabaseHandle } from '../src/server/db/database';
import { openTestDatabase } from './helpers/test-db';

type Endpoint = Awaited<ReturnType<typeof startPushEndpoint>>;
let endpoint: Endpoint;
let t: TestApp;

beforeAll(async () => {
  endpoint = await startPushEndpoint();
  t = await createTestApp({
    env: { PUSH_ENDPOINT_HOSTS: endpoint.host },
    build: { pushAgent: endpoint.agent, queue: { pollingIntervalSeconds: 0.5 } },
  });
});
afterAll(async () => {
  await t.close();
  await endpoint.close();
});

const post = (app: TestApp, url: string, user: TestUser | undefined, payload?: object) =>
  app.app.inject({ method: 'POST', url: `/api${url}`, headers: user?.headers, ...(payload ? { payload } : {}) });
const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 15_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return check();
};

describe('push subscriptions', () => {
  it('stores one per browser: the same endpoint again replaces, never duplicates', async () => {
    const player = await createUser(t.app);
    const other = await createUser(t.app);
    const sub = endpoint.subscription();
    expect((await post(t, '/notifications/save-subscription', player, sub)).statusCode).toBe(201);
    expect((await post(t, '/push/subscribe', player, { subscription: sub })).statusCode).toBe(201);
    expect((await post(t, '/push/subscribe', other, { subscription: sub })).statusCode).toBe(201);
    const rows = await t.app.ctx.db.selectFrom('pushSubscriptions').select(['userId']).where('endpoint', '=', sub.endpoint).execute();
    expect(rows).toEqual([{ userId: other.row.id }]);
    expect((await t.app.inject({ url: '/api/push/public-key' })).json().publicKey).toMatch(/^[\w-]{80,}$/);
  });

  it('accepts only https endpoints of known push services, and needs login', async () => {
    const player = await createUser(t.app);
    const keys = endpoint.subscription().keys;
    for (const url of [
      'http://fcm.googleapis.com/fcm/send/x',
      'https://evil.example/push',
      'https://169.254.169.254/latest',
      'https://user:pw@fcm.googleapis.com/x',
      'not a url',
    ]) {
      const res = await post(t, '/push/subscribe', player, { subscription: { endpoint: url, keys } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ error: 'This push service is not supported.' });
    }
    expect(
      (await post(t, '/push/subscribe', player, { subscription: { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys } }))
        .statusCode,
    ).toBe(201);
    expect(
      (await post(t, '/push/subscribe', undefined, { subscription: { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys } }))
        .statusCode,
    ).toBe(401);
    expect((await post(t, '/push/subscribe', player, { subscription: { endpoint: 'https://fcm.googleapis.com/x' } })).statusCode).toBe(400);
    await t.app.ctx.db.deleteFrom('pushSubscriptions').where('endpoint', 'like', 'https://fcm.googleapis.com/%').execute();
  });

  it('keeps the 10 most recently registered browsers per user, also when 25 register at once', async () => {
    const endpointsOf = async (user: TestUser) =>
      (await t.app.ctx.db.selectFrom('pushSubscriptions').select('endpoint').where('userId', '=', user.row.id).execute()).map(
        (r) => r.endpoint,
      );
    const player = await createUser(t.app);
    const browsers = Array.from({ length: 12 }, () => endpoint.subscription());
    for (const browser of browsers) expect((await post(t, '/push/subscribe', player, { subscription: browser })).statusCode).toBe(201);
    expect((await endpointsOf(player)).sort()).toEqual(
      browsers
        .slice(2)
        .map((b) => b.endpoint)
        .sort(),
    );
    // Registering a kept browser again makes it the newest: the next new one replaces another.
    await post(t, '/notifications/save-subscription', player, browsers[2]!);
    await post(t, '/push/subscribe', player, { subscription: endpoint.subscription() });
    expect(await endpointsOf(player)).toContain(browsers[2]!.endpoint);
    expect(await endpointsOf(player)).not.toContain(browsers[3]!.endpoint);

    const busy = await createUser(t.app);
    const burst = await Promise.all(
      Array.from({ length: 25 }, () => post(t, '/push/subscribe', busy, { subscription: endpoint.subscription() })),
    );
    expect(burst.map((r) => r.statusCode)).toEqual(Array(25).fill(201));
    expect(await endpointsOf(busy)).toHaveLength(10);
  });
});

describe('inbox', () => {
  it("lists the caller's own notifications, newest first; an empty list without a token", async () => {
    const admin = await createUser(t.app, { role: 'admin' });
    const player = await createUser(t.app);
    const other = await createUser(t.app);
    expect(
      (
        await post(t, '/notifications', admin, {
          targetUserId: String(player.row.id),
          title: 'First',
          message: 'Hello <b>there</b>',
          link: '/home',
        })
      ).statusCode,
    ).toBe(201);
    await post(t, '/notifications', admin, { targetUserId: String(player.row.id), title: 'Second', message: 'Again' });
    const inbox = (await t.app.inject({ url: '/api/notifications', headers: player.headers })).json();
    expect(inbox.map((n: { title: string }) => n.title)).toEqual(['Second', 'First']);
    expect(inbox[1]).toMatchObject({ message: 'Hello <b>there</b>', link: '/home', read: false, _id: inbox[1].id });
    expect((await t.app.inject({ url: '/api/notifications', headers: other.headers })).json()).toEqual([]);
    const past = await t.app.inject({ url: '/api/notifications?offset=5', headers: player.headers });
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('2');
    expect((await t.app.inject({ url: '/api/notifications' })).json()).toEqual([]);
    await post(t, `/notifications/${inbox[0].id}/read`, player);
    expect(
      (await t.app.inject({ url: '/api/notifications', headers: player.headers })).json().map((n: { read: boolean }) => n.read),
    ).toEqual([true, false]);
    // Someone else's notification is not theirs to mark: 404, and it stays as it was.
    const foreign = await post(t, `/notifications/${inbox[1].id}/read`, other);
    expect(foreign.statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: '/api/notifications', headers: player.headers })).json().map((n: { read: boolean }) => n.read),
    ).toEqual([true, false]);
    // Marking one's own notification again is fine.
    expect((await post(t, `/notifications/${inbox[0].id}/read`, player)).statusCode).toBe(200);
    await post(t, '/notifications/all/read', player);
    expect(
      (await t.app.inject({ url: '/api/notifications', headers: player.headers })).json().every((n: { read: boolean }) => n.read),
    ).toBe(true);
  });

  it('lets admins write to a role; nobody else; links only to this site', async () => {
    const admin = await createUser(t.app, { role: 'admin' });
    const owners = await Promise.all([createUser(t.app, { role: 'server_owner' }), createUser(t.app, { role: 'server_owner' })]);
    const res = await post(t, '/notifications', admin, { userType: 'server_owner', title: 'Owners', message: 'News' });
    expect(res.statusCode).toBe(201);
    expect(res.json().created).toBeGreaterThanOrEqual(2);
    for (const o of owners) expect((await t.app.inject({ url: '/api/notifications', headers: o.headers })).json()[0].title).toBe('Owners');
    const player = await createUser(t.app);
    expect((await post(t, '/notifications', player, { userType: 'player', title: 'x', message: 'y' })).statusCode).toBe(403);
    expect((await post(t, '/notifications', owners[0], { userType: 'player', title: 'x', message: 'y' })).statusCode).toBe(403);
    expect((await post(t, '/notifications', undefined, { userType: 'player', title: 'x', message: 'y' })).statusCode).toBe(401);
    for (const link of ['https://evil.example', '//evil.example', 'javascript:alert(1)']) {
      const bad = await post(t, '/notifications', admin, { userType: 'player', title: 'x', message: 'y', link });
      expect(bad.statusCode, link).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'Links must be paths on this site, like /servers/12' });
    }
    expect((await post(t, '/notifications', admin, { title: 'x', message: 'y' })).json()).toMatchObject({
      error: 'Choose either one user (targetUserId) or a role (userType)',
    });
  });
});

describe('push promotions (send-mass)', () => {
  it('follows the plan: none without a plan, 2 a day on Pro even for 10 parallel sends, 4 on Premium', async () => {
    const free = await createUser(t.app, { role: 'server_owner' });
    const freeServer = await createServer(t.app, free.row.id);
    const refused = await post(t, '/notifications/send-mass', free, { serverId: String(freeServer.id) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'Push promotions need the Pro or Premium plan.' });

    const pro = await createUser(t.app, { role: 'server_owner', plan: 'Pro' });
    const proServer = await createServer(t.app, pro.row.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(t, '/notifications/send-mass', pro, { serverId: String(proServer.id), playerCount: 5 })),
    );
    expect(results.filter((r) => r.statusCode === 202)).toHaveLength(2);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(8);
    expect(results.find((r) => r.statusCode === 429)!.json()).toMatchObject({
      error: 'You have used all push promotions for the last 24 hours.',
    });
    expect((await t.app.inject({ url: '/api/notifications/push-count', headers: pro.headers })).json()).toEqual({ count: 2, limit: 2 });

    const premium = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const premiumServer = await createServer(t.app, premium.row.id);
    const codes = [];
    for (let i = 0; i < 5; i++)
      codes.push((await post(t, '/notifications/send-mass', premium, { serverId: String(premiumServer.id) })).statusCode);
    expect(codes).toEqual([202, 202, 202, 202, 429]);
  });

  it('is for the owner of that server only; checks the player count', async () => {
    const a = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const b = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const bServer = await createServer(t.app, b.row.id, { currentPlayers: 42 });
    const other = await post(t, '/notifications/send-mass', a, { serverId: String(bServer.id) });
    expect(other.statusCode).toBe(403);
    const player = await createUser(t.app);
    expect((await post(t, '/notifications/send-mass', player, { serverId: String(bServer.id) })).statusCode).toBe(403);
    for (const playerCount of [-1, 1.5, 'ten', '3e2', true]) {
      const res = await post(t, '/notifications/send-mass', b, { serverId: String(bServer.id), playerCount });
      expect(res.statusCode, String(playerCount)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Player count must be a non-negative whole number' });
    }
    const empty = await post(t, '/notifications/send-mass', b, { serverId: String(bServer.id), playerCount: '' });
    expect(empty.json().playerCount).toBe(42);
    const typed = await post(t, '/notifications/send-mass', b, { serverId: String(bServer.id), playerCount: '7' });
    expect(typed.json().playerCount).toBe(7);
    expect(
      (await t.app.ctx.db.selectFrom('servers').select('currentPlayers').where('id', '=', bServer.id).executeTakeFirstOrThrow())
        .currentPlayers,
    ).toBe(42);
  });

  it('delivers real, encrypted web push to every player who allowed it, and inbox notices to players who joined; 404 and 410 forget the subscription', async () => {
    const owner = await createUser(t.app, { role: 'server_owner', plan: 'Pro' });
    const server = await createServer(t.app, owner.row.id, { name: 'Push City' });
    const fan = await createUser(t.app);
    const joiner = await createUser(t.app);
    const gonePlayer = await createUser(t.app);
    const ownerBrowser = endpoint.subscription();
    const fanBrowser = endpoint.subscription();
    const goneBrowser = endpoint.subscription(410);
    const unknownBrowser = endpoint.subscription(404);
    const failingBrowser = endpoint.subscription(500);
    await post(t, '/push/subscribe', fan, { subscription: fanBrowser });
    await post(t, '/push/subscribe', gonePlayer, { subscription: goneBrowser });
    await post(t, '/push/subscribe', gonePlayer, { subscription: unknownBrowser });
    await post(t, '/push/subscribe', gonePlayer, { subscription: failingBrowser });
    await post(t, '/push/subscribe', owner, { subscription: ownerBrowser });
    await post(t, `/servers/${server.id}/join`, joiner);

    const res = await post(t, '/notifications/send-mass', owner, {
      serverId: String(server.id),
      playerCount: 12,
      isEvent: true,
      eventName: 'Bank heist',
      eventTime: '20:00 UTC',
    });
    expect(res.statusCode).toBe(202);
    expect(await waitFor(() => fanBrowser.received.length === 1)).toBe(true);
    expect(fanBrowser.received[0]).toEqual({
      title: 'Push City: Bank heist',
      body: 'Bank heist at 20:00 UTC. 12 players online now.',
      url: `/servers/${server.id}`,
      tag: expect.stringMatching(/^promotion-\d+$/),
    });
    expect(ownerBrowser.received).toEqual([]);
    const request = endpoint.requests.find((r) => fanBrowser.endpoint.endsWith(r.id))!;
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    expect(String(request.headers.authorization)).toMatch(/^vapid t=/);
    expect(
      await waitFor(
        async () =>
          !(await t.app.ctx.db
            .selectFrom('pushSubscriptions')
            .select('id')
            .where('endpoint', 'in', [goneBrowser.endpoint, unknownBrowser.endpoint])
            .executeTakeFirst()),
      ),
    ).toBe(true);
    // Any other failure is retried later, never a reason to forget the browser.
    expect(await waitFor(() => endpoint.requests.some((r) => failingBrowser.endpoint.endsWith(r.id)))).toBe(true);
    expect(
      await t.app.ctx.db.selectFrom('pushSubscriptions').select('id').where('endpoint', '=', failingBrowser.endpoint).executeTakeFirst(),
    ).toBeDefined();

    const inbox = (await t.app.inject({ url: '/api/notifications', headers: joiner.headers })).json();
    expect(inbox[0]).toMatchObject({ title: 'Push City: Bank heist', link: `/servers/${server.id}` });
    expect((await t.app.inject({ url: '/api/notifications', headers: fan.headers })).json()).toEqual([]);
  });
});

describe('a fan-out that stops half-way', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('reaches every recipient exactly once after the worker is stopped and another starts', async () => {
    const local = await startPushEndpoint();
    const options = (runWorkers: boolean) => ({
      env: { PUSH_ENDPOINT_HOSTS: local.host },
      build: { database, pushAgent: local.agent, runWorkers, queue: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 } },
    });
    const first = await createTestApp(options(true));
    const owner = await createUser(first.app, { role: 'server_owner', plan: 'Pro' });
    const server = await createServer(first.app, owner.row.id);
    const browsers: Array<ReturnType<typeof local.subscription>> = [];
    for (let i = 0; i < 12; i++) {
      const player = await createUser(first.app);
      const browser = local.subscription();
      await post(first, '/push/subscribe', player, { subscription: browser });
      browsers.push(browser);
    }
    let closing: Promise<void> | undefined;
    local.onDelivery((count) => {
      if (count === 4) closing = first.close();
    });
    expect((await post(first, '/notifications/send-mass', owner, { serverId: String(server.id) })).statusCode).toBe(202);
    expect(await waitFor(() => closing !== undefined)).toBe(true);
    await closing;
    const partial = browsers.filter((b) => b.received.length > 0).length;
    expect(partial).toBeGreaterThanOrEqual(4);
    expect(partial).toBeLessThan(12);

    const second = await createTestApp(options(true));
    try {
      expect(await waitFor(() => browsers.every((b) => b.received.length >= 1), 30_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 1000));
      expect(browsers.map((b) => b.received.length)).toEqual(Array(12).fill(1));
    } finally {
      await second.close();
      await local.close();
    }
  }, 90_000);
});

describe('push subscription registration limits', () => {
  it('answers 429 with Retry-After past the per-user limit, counted across both routes, and per client', async () => {
    const limited = await createTestApp({
      env: { PUSH_ENDPOINT_HOSTS: endpoint.host },
      build: {
        rateLimits: { pushSubscribePerUser: { max: 3, windowMs: 60_000 }, pushSubscribePerIp: { max: 7, windowMs: 60_000 } },
      },
    });
    try {
      const player = await createUser(limited.app);
      const statuses = [];
      for (const url of ['/notifications/save-subscription', '/push/subscribe', '/notifications/save-subscription', '/push/subscribe']) {
        const sub = endpoint.subscription();
        statuses.push((await post(limited, url, player, url === '/push/subscribe' ? { subscription: sub } : sub)).statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
      const refused = await post(limited, '/push/subscribe', player, { subscription: endpoint.subscription() });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toHaveProperty('error');

      // Another account from the same address gets the rest of its allowance (7, refused tries included), then 429.
      const other = await createUser(limited.app);
      const fromSameClient = [];
      for (let i = 0; i < 3; i++)
        fromSameClient.push((await post(limited, '/push/subscribe', other, { subscription: endpoint.subscription() })).statusCode);
      expect(fromSameClient).toEqual([201, 201, 429]);
      expect(await limited.app.ctx.db.selectFrom('pushSubscriptions').select('id').execute()).toHaveLength(5);
    } finally {
      await limited.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOST_PACKAGES } from '../src/shared/limits';
import { boostPackageCents } from '../src/shared/schemas/payments';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';

let t: TestApp;
/** Set to look at the app on another day; unset, the real clock. */
let clock: Date | undefined;
beforeAll(async () => {
  t = await createTestApp({ build: { now: () => clock ?? new Date() } });
});
afterAll(() => t.close());

const post = (url: string, user: TestUser | undefined, payload?: object) =>
  t.app.inject({ method: 'POST', url: `/api${url}`, headers: user?.headers, ...(payload ? { payload } : {}) });
const sessionId = (url: string) => url.replace('/checkout/', '');
const serverRow = (id: number) => t.app.ctx.db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const pay = (user: TestUser, url: string) => post(`/checkout/${sessionId(url)}/complete`, user);

async function ownerWithServer(plan: '' | 'Pro' | 'Premium' = '') {
  const owner = await createUser(t.app, { role: 'server_owner', plan });
  const server = await createServer(t.app, owner.row.id);
  return { owner, server };
}

describe('prices, decided by the server', () => {
  it('charges every package its price, 25 % less on Premium, in cents', async () => {
    const expected = { 10: [500, 375], 25: [1000, 750], 50: [2000, 1500], 200: [5000, 3750], 1000: [10000, 7500] } as const;
    for (const plan of ['', 'Premium'] as const) {
      const { owner, server } = await ownerWithServer(plan);
      for (const pack of BOOST_PACKAGES) {
        const res = await post('/boost-session', owner, { serverId: String(server.id), amount: pack.boosts, price: 1 });
        expect(res.statusCode).toBe(200);
        const row = await t.app.ctx.db
          .selectFrom('checkoutSessions')
          .selectAll()
          .where('id', '=', sessionId(res.json().url))
          .executeTakeFirstOrThrow();
        const cents = expected[pack.boosts][plan === 'Premium' ? 1 : 0];
        expect(row).toMatchObject({ kind: 'ownerBoost', quantity: pack.boosts, amountCents: cents, serverId: server.id });
        expect(boostPackageCents(pack.boosts, plan === 'Premium')).toBe(cents);
      }
      const quote = (await t.app.inject({ url: '/api/payments/quote', headers: owner.headers })).json();
      expect(quote.packages.map((p: { amount: number }) => p.amount)).toEqual(
        plan === 'Premium' ? [3.75, 7.5, 15, 37.5, 75] : [5, 10, 20, 50, 100],
      );
    }
    const player = await createUser(t.app);
    const { server } = await ownerWithServer();
    const single = await post('/boost-single-session', player, { serverId: String(server.id), amount: 0.01 });
    expect(
      (
        await t.app.ctx.db
          .selectFrom('checkoutSessions')
          .select('amountCents')
          .where('id', '=', sessionId(single.json().url))
          .executeTakeFirstOrThrow()
      ).amountCents,
    ).toBe(200);
    const { owner } = await ownerWithServer();
    const pro = await post('/subscribe-session', owner, { plan: 'Pro' });
    const premium = await post('/subscribe-session', owner, { plan: 'Premium' });
    const weekend = await post('/weekend-session', owner, { serverId: String((await createServer(t.app, owner.row.id)).id) });
    const cents = async (url: string) =>
      (await t.app.ctx.db.selectFrom('checkoutSessions').select('amountCents').where('id', '=', sessionId(url)).executeTakeFirstOrThrow())
        .amountCents;
    expect([await cents(pro.json().url), await cents(premium.json().url), await cents(weekend.json().url)]).toEqual([1000, 2500, 10000]);
  });
});

describe('checkout rules and messages', () => {
  it('answers the user-facing messages for missing choices', async () => {
    const { owner } = await ownerWithServer();
    const cases: Array<[string, object, string]> = [
      ['/subscribe-session', {}, 'Please select a plan'],
      ['/subscribe-session', { plan: 'Gold' }, 'Please select a plan'],
      ['/boost-session', { amount: 10 }, 'Select a server to boost'],
      ['/boost-session', { serverId: '1' }, 'Select a boost package'],
      ['/boost-session', { serverId: '1', amount: 11 }, 'Select a boost package'],
      ['/weekend-session', {}, 'Select a server'],
    ];
    for (const [url, payload, error] of cases) {
      const res = await post(url, owner, payload);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ error });
    }
    const player = await createUser(t.app);
    expect((await post('/boost-single-session', player, {})).json()).toMatchObject({ error: 'Select a server to boost' });
  });

  it('lets only players boost for $2, never their own; owners buy for their own servers only', async () => {
    const { owner, server } = await ownerWithServer();
    const { server: other } = await ownerWithServer();
    const byOwner = await post('/boost-single-session', owner, { serverId: String(other.id) });
    expect(byOwner.statusCode).toBe(403);
    expect(byOwner.json()).toMatchObject({ error: 'Only players can boost.' });
    expect((await post('/boost-single-session', undefined, { serverId: String(server.id) })).statusCode).toBe(401);
    for (const [url, payload] of [
      ['/boost-session', { serverId: String(other.id), amount: 10 }],
      ['/weekend-session', { serverId: String(other.id) }],
    ] as const) {
      const res = await post(url, owner, payload);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'You can only manage your own servers.' });
    }
    const player = await createUser(t.app);
    expect((await post('/subscribe-session', player, { plan: 'Pro' })).statusCode).toBe(403);
    expect((await post('/weekend-session', player, { serverId: String(server.id) })).statusCode).toBe(403);
    expect((await post('/boost-single-session', player, { serverId: '999999' })).statusCode).toBe(404);
  });

  it("ignores a userId in the body: the buyer is the token's user", async () => {
    const { owner, server } = await ownerWithServer();
    const { owner: victim } = await ownerWithServer();
    const res = await post('/weekend-session', owner, { serverId: String(server.id), userId: String(victim.row.id) });
    const row = await t.app.ctx.db
      .selectFrom('checkoutSessions')
      .select('userId')
      .where('id', '=', sessionId(res.json().url))
      .executeTakeFirstOrThrow();
    expect(row.userId).toBe(owner.row.id);
  });

  it('refuses boost sessions while the admin has boosting turned off', async () => {
    const { owner, server } = await ownerWithServer();
    const player = await createUser(t.app);
    await t.app.ctx.settings.update({ enableBoosting: false });
    try {
      for (const res of [
        await post('/boost-single-session', player, { serverId: String(server.id) }),
        await post('/boost-session', owner, { serverId: String(server.id), amount: 10 }),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ error: 'Boosting is turned off right now.' });
      }
      expect((await t.app.inject({ url: '/api/payments/quote', headers: owner.headers })).json().boostingEnabled).toBe(false);
    } finally {
      await t.app.ctx.settings.update({ enableBoosting: true });
    }
  });

  it('keeps return paths on this site', async () => {
    const player = await createUser(t.app);
    const { server } = await ownerWithServer();
    for (const [given, kept] of [
      ['https://evil.example/steal', '/payments'],
      ['//evil.example', '/payments'],
      ['/servers/1/../../x', '/payments'],
      [`/servers/${server.id}`, `/servers/${server.id}`],
    ]) {
      const res = await post('/boost-single-session', player, { serverId: String(server.id), returnPath: given });
      const row = await t.app.ctx.db
        .selectFrom('checkoutSessions')
        .select('returnPath')
        .where('id', '=', sessionId(res.json().url))
        .executeTakeFirstOrThrow();
      expect(row.returnPath, given).toBe(kept);
    }
  });
});

describe('the built-in test checkout', () => {
  it('credits a player boost once, however often Pay is pressed, also concurrently', async () => {
    const { server } = await ownerWithServer();
    const player = await createUser(t.app);
    const { url } = (await post('/boost-single-session', player, { serverId: String(server.id) })).json();
    expect(url).toMatch(/^\/checkout\/cs_local_[0-9a-f]{32}$/);
    const view = await t.app.inject({ url: `/api${url}`, headers: player.headers });
    expect(view.json()).toMatchObject({ kind: 'playerBoost', amount: 2, status: 'open', returnPath: `/servers/${server.id}` });
    expect((await serverRow(server.id)).totalBoosts).toBe(0); // opening a checkout buys nothing

    const results = await Promise.all(Array.from({ length: 10 }, () => pay(player, url)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(results.filter((r) => r.json().credited)).toHaveLength(1);
    const row = await serverRow(server.id);
    expect(row.totalBoosts).toBe(1);
    expect(row.lastBoostedAt).toBeInstanceOf(Date);
    const payments = (await t.app.inject({ url: '/api/user/payments', headers: player.headers })).json();
    expect(payments).toEqual([
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        type: 'playerBoost',
        amount: 2,
        serverId: String(server.id),
        serverName: row.name,
        status: 'paid',
      },
    ]);
    const detail = (await t.app.inject({ url: `/api/servers/${server.id}` })).json();
    expect(detail).toMatchObject({ boosts: 1, totalBoosts: 1 });
    const hot = (await t.app.inject({ url: '/api/servers?sort=hot&limit=100' })).json() as Array<{ id: string }>;
    expect(hot.map((s) => s.id)).toContain(String(server.id));
  });

  it('credits an owner package, a plan and weekends; a second weekend purchase books the weekend after', async () => {
    const { owner, server } = await ownerWithServer();
    const boost = (await post('/boost-session', owner, { serverId: String(server.id), amount: 25 })).json().url;
    await pay(owner, boost);
    expect((await serverRow(server.id)).totalBoosts).toBe(25);

    const plan = (await post('/subscribe-session', owner, { plan: 'Premium' })).json().url;
    expect((await t.app.inject({ url: '/api/user', headers: owner.headers })).json().subscriptionPlan).toBe('');
    await pay(owner, plan);
    expect((await t.app.inject({ url: '/api/user', headers: owner.headers })).json().subscriptionPlan).toBe('Premium');
    expect((await t.app.inject({ url: '/api/user/subscription', headers: owner.headers })).json()).toMatchObject({
      plan: 'Premium',
      status: 'active',
    });

    const quote = (await t.app.inject({ url: '/api/payments/quote', headers: owner.headers })).json();
    const first = (await post('/weekend-session', owner, { serverId: String(server.id) })).json().url;
    const second = (await post('/weekend-session', owner, { serverId: String(server.id) })).json().url;
    await pay(owner, first);
    await pay(owner, second);
    const bookings = await t.app.ctx.db
      .selectFrom('weekendBookings')
      .select('weekendStart')
      .where('serverId', '=', server.id)
      .orderBy('weekendStart')
      .execute();
    expect(bookings.map((b) => b.weekendStart)).toEqual([
      quote.weekend.nextFreeWeekend,
      new Date(Date.parse(`${quote.weekend.nextFreeWeekend}T00:00:00Z`) + 7 * 86400_000).toISOString().slice(0, 10),
    ]);
    expect((await t.app.inject({ url: `/api/checkout/${sessionId(first)}`, headers: owner.headers })).json().weekendStart).toBe(
      bookings[0]!.weekendStart,
    );
    // Featured from the Tuesday before its weekend (while a weekend runs, the booking is for the next one).
    clock = new Date(Date.parse(`${bookings[0]!.weekendStart}T12:00:00Z`) - 3 * 86400_000);
    try {
      expect((await t.app.inject({ url: '/api/server-of-the-weekend' })).json()?.id).toBe(String(server.id));
    } finally {
      clock = undefined;
    }

    const history = await t.app.inject({ url: '/api/user/payments?limit=2', headers: owner.headers });
    expect(history.headers['x-total-count']).toBe('4');
    expect(history.json().map((p: { type: string }) => p.type)).toEqual(['serverOfTheWeekend', 'serverOfTheWeekend']);
    const past = await t.app.inject({ url: '/api/user/payments?limit=2&offset=10', headers: owner.headers });
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('4');
  });

  it('buys nothing on Cancel or when the browser just comes back; pays nothing twice after Cancel', async () => {
    const { owner, server } = await ownerWithServer();
    const url = (await post('/boost-session', owner, { serverId: String(server.id), amount: 10 })).json().url;
    const cancel = await post(`/checkout/${sessionId(url)}/cancel`, owner);
    expect(cancel.json()).toEqual({ returnPath: '/payments' });
    const after = await pay(owner, url);
    expect(after.statusCode).toBe(409);
    expect(after.json()).toMatchObject({ error: 'This checkout is no longer open.' });
    expect((await serverRow(server.id)).totalBoosts).toBe(0);
    expect((await t.app.inject({ url: '/api/user/payments', headers: owner.headers })).json()).toEqual([]);
  });

  it("keeps other people's checkouts out of reach", async () => {
    const { owner, server } = await ownerWithServer();
    const stranger = await createUser(t.app, { role: 'server_owner' });
    const url = (await post('/boost-session', owner, { serverId: String(server.id), amount: 10 })).json().url;
    expect((await t.app.inject({ url: `/api${url}`, headers: stranger.headers })).statusCode).toBe(404);
    expect((await pay(stranger, url)).statusCode).toBe(404);
    expect((await post(`/checkout/${sessionId(url)}/cancel`, stranger)).statusCode).toBe(404);
    expect((await pay(owner, '/checkout/cs_local_unknown')).statusCode).toBe(404);
    expect((await serverRow(server.id)).totalBoosts).toBe(0);
  });

  it('cancels a subscription: plan none', async () => {
    const { owner } = await ownerWithServer();
    expect((await post('/cancel-subscription', owner)).json()).toMatchObject({ error: 'You have no subscription to cancel.' });
    await pay(owner, (await post('/subscribe-session', owner, { plan: 'Pro' })).json().url);
    expect((await post('/subscribe-session', owner, { plan: 'Pro' })).statusCode).toBe(409);
    const res = await post('/cancel-subscription', owner);
    expect(res.json()).toEqual({ plan: '' });
    expect((await t.app.inject({ url: '/api/user', headers: owner.headers })).json().subscriptionPlan).toBe('');
    expect((await t.app.inject({ url: '/api/user/subscription', headers: owner.headers })).json()).toEqual({
      plan: '',
      status: 'none',
      currentPeriodEnd: null,
    });
  });
});

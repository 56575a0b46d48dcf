import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, user: TestUser | undefined, payload?: object) =>
  t.app.inject({ method: 'POST', url: `/api${url}`, headers: user?.headers, ...(payload ? { payload } : {}) });
const spend = (user: TestUser | undefined, serverId: number | string, amount: unknown) =>
  post('/boost-credits', user, { serverId: String(serverId), amount });
const balances = async (user: TestUser) =>
  (await t.app.inject({ url: '/api/user/boost-credits', headers: user.headers })).json<Array<{ serverId: string; balance: number }>>();
const serverRow = (id: number | string) =>
  t.app.ctx.db.selectFrom('servers').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
const boostRows = (serverId: number | string) =>
  t.app.ctx.db.selectFrom('boosts').selectAll().where('serverId', '=', Number(serverId)).execute();

/** A Premium owner with a server created through the API, so it starts with its credits. */
async function premiumServer() {
  const owner = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
  const res = await post('/servers', owner, { name: `Premium ${owner.row.id}` });
  expect(res.statusCode).toBe(201);
  return { owner, serverId: res.json<{ id: string }>().id };
}

describe('Premium boost credits: a balance spent before paying', () => {
  it('starts a Premium server with 100 credits as a balance, not as boosts; other plans with none', async () => {
    const { owner, serverId } = await premiumServer();
    expect(await balances(owner)).toEqual([{ serverId, balance: 100 }]);
    expect(await serverRow(serverId)).toMatchObject({ totalBoosts: 0, boostCredits: 100, lastBoostedAt: null });
    const pro = await createUser(t.app, { role: 'server_owner', plan: 'Pro' });
    const proServer = (await post('/servers', pro, { name: 'Pro City' })).json<{ id: string }>().id;
    expect(await balances(pro)).toEqual([{ serverId: proServer, balance: 0 }]);
    // A player owns nothing: an empty list, not an error.
    expect(await balances(await createUser(t.app))).toEqual([]);
    expect((await t.app.inject({ url: '/api/user/boost-credits' })).statusCode).toBe(401);
  });

  it('spends credits on a package: the boosts count at once, no payment is recorded', async () => {
    const { owner, serverId } = await premiumServer();
    const res = await spend(owner, serverId, 25);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ serverId, spent: 25, balance: 75, totalBoosts: 25 });
    const row = await serverRow(serverId);
    expect(row).toMatchObject({ totalBoosts: 25, boostCredits: 75 });
    expect(row.lastBoostedAt).toBeInstanceOf(Date);
    expect(await boostRows(serverId)).toEqual([
      expect.objectContaining({ amount: 25, source: 'premium_credit', paymentId: null, userId: owner.row.id, revokedAt: null }),
    ]);
    const payments = await t.app.ctx.db.selectFrom('payments').select('id').where('userId', '=', owner.row.id).execute();
    expect(payments).toEqual([]);
    // The server now counts as boosted: it leads the Hot list.
    const hot = (await t.app.inject({ url: '/api/servers?sort=hot&limit=1' })).json<Array<{ id: string }>>();
    expect(hot[0]?.id).toBe(serverId);
    expect(await balances(owner)).toEqual([{ serverId, balance: 75 }]);
  });

  it('refuses a package the balance does not cover, and changes nothing', async () => {
    const { owner, serverId } = await premiumServer();
    expect((await spend(owner, serverId, 50)).statusCode).toBe(200);
    const res = await spend(owner, serverId, 200);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: MSG.notEnoughBoostCredits });
    expect(await serverRow(serverId)).toMatchObject({ totalBoosts: 50, boostCredits: 50 });
    expect((await spend(owner, serverId, 50)).json()).toMatchObject({ balance: 0, totalBoosts: 100 });
    expect((await spend(owner, serverId, 10)).json()).toMatchObject({ error: MSG.notEnoughBoostCredits });
    expect(await boostRows(serverId)).toHaveLength(2);
  });

  it('takes only package sizes', async () => {
    const { owner, serverId } = await premiumServer();
    for (const amount of [0, -10, 7, 10.5, '10abc', 1e9, null, 'ten']) {
      const res = await spend(owner, serverId, amount);
      expect(res.statusCode, String(amount)).toBe(400);
    }
    expect((await post('/boost-credits', owner, { serverId })).statusCode).toBe(400);
    expect((await post('/boost-credits', owner, { amount: 10 })).json()).toMatchObject({ error: MSG.selectServerToBoost });
    expect(await serverRow(serverId)).toMatchObject({ totalBoosts: 0, boostCredits: 100 });
  });

  it("never spends someone else's credits, whatever the caller or the id", async () => {
    const { serverId } = await premiumServer();
    const otherOwner = await createUser(t.app, { role: 'server_owner', plan: 'Premium' });
    const player = await createUser(t.app);
    const admin = await createUser(t.app, { role: 'admin' });
    expect((await spend(undefined, serverId, 10)).statusCode).toBe(401);
    expect((await spend(otherOwner, serverId, 10)).statusCode).toBe(403);
    expect((await spend(player, serverId, 10)).json()).toMatchObject({ error: MSG.onlyOwnersBuy });
    expect((await spend(admin, serverId, 10)).statusCode).toBe(403);
    for (const id of ['999999999', '0', '-1', `${serverId} `, `${serverId}.0`, '1e3', 'abc']) {
      const res = await spend(otherOwner, id, 10);
      expect([403, 404], id).toContain(res.statusCode);
    }
    expect(await serverRow(serverId)).toMatchObject({ totalBoosts: 0, boostCredits: 100 });
  });

  it('spends each credit once under a burst of parallel requests', async () => {
    const { owner, serverId } = await premiumServer();
    const results = await Promise.all(Array.from({ length: 30 }, () => spend(owner, serverId, 10)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c !== 200).every((c) => c === 409)).toBe(true);
    expect(await serverRow(serverId)).toMatchObject({ totalBoosts: 100, boostCredits: 0 });
    const rows = await boostRows(serverId);
    expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(100);
    expect(
      results
        .filter((r) => r.statusCode === 200)
        .map((r) => r.json<{ balance: number }>().balance)
        .sort((a, b) => a - b),
    ).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
  });

  it('keeps credits while an admin has boosting turned off', async () => {
    const { owner, serverId } = await premiumServer();
    await t.app.ctx.settings.update({ enableBoosting: false });
    try {
      expect((await spend(owner, serverId, 10)).json()).toMatchObject({ error: MSG.boostingDisabled });
    } finally {
      await t.app.ctx.settings.update({ enableBoosting: true });
    }
    expect(await serverRow(serverId)).toMatchObject({ totalBoosts: 0, boostCredits: 100 });
  });

  it('leaves a server made outside the API (no plan) with no credits', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    expect((await spend(owner, server.id, 10)).json()).toMatchObject({ error: MSG.notEnoughBoostCredits });
  });
});

describe('boost credits with the list and page caches on', () => {
  let cached: TestApp;
  beforeAll(async () => {
    cached = await createTestApp({ build: { listCacheTtlMs: 60_000 } });
  });
  afterAll(() => cached.close());

  it('shows the boosts on the cached server page and Hot list at once after a spend', async () => {
    const owner = await createUser(cached.app, { role: 'server_owner', plan: 'Premium' });
    const created = await cached.app.inject({
      method: 'POST',
      url: '/api/servers',
      headers: owner.headers,
      payload: { name: 'Cached City' },
    });
    const serverId = created.json<{ id: string }>().id;
    const page = async () => (await cached.app.inject({ url: `/api/servers/${serverId}` })).json<{ totalBoosts: number }>().totalBoosts;
    const hot = async () =>
      (await cached.app.inject({ url: '/api/servers?sort=hot&limit=5' })).json<Array<{ id: string }>>().map((s) => s.id);
    expect(await page()).toBe(0);
    expect(await hot()).not.toContain(serverId);
    const spent = await cached.app.inject({
      method: 'POST',
      url: '/api/boost-credits',
      headers: owner.headers,
      payload: { serverId, amount: 10 },
    });
    expect(spent.statusCode).toBe(200);
    expect(await page()).toBe(10);
    expect((await hot())[0]).toBe(serverId);
  });
});

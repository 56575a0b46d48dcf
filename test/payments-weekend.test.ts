import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';

let t: TestApp;
let clock = new Date('2026-11-23T12:00:00Z');
const at = (iso: string) => {
  clock = new Date(iso);
};

beforeAll(async () => {
  t = await createTestApp({
    build: {
      now: () => clock,
      // Generous for every other action; checkout sessions: 3 a user, so the limit shows.
      rateLimits: { checkoutPerIp: { max: 1000, windowMs: 60_000 }, checkoutPerUser: { max: 3, windowMs: 60_000 } },
    },
  });
});
afterAll(() => t.close());

const post = (url: string, user: TestUser, payload?: object) =>
  t.app.inject({ method: 'POST', url: `/api${url}`, headers: user.headers, ...(payload ? { payload } : {}) });

async function weekendBuyer() {
  const owner = await createUser(t.app, { role: 'server_owner' });
  const server = await createServer(t.app, owner.row.id);
  const open = async () => {
    const res = await post('/weekend-session', owner, { serverId: String(server.id) });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().url as string).replace('/checkout/', '');
  };
  const pay = async (id: string) => {
    const res = await post(`/checkout/${id}/complete`, owner);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { weekendStart: string | null; notice: string | null; credited: boolean };
  };
  const view = async (id: string) => (await t.app.inject({ url: `/api/checkout/${id}`, headers: owner.headers })).json();
  return { owner, server, open, pay, view };
}

describe('Server of the Weekend is never sold once that weekend has started', () => {
  it('on Saturday offers and books the following weekend, never the running one', async () => {
    const buyer = await weekendBuyer();
    at('2026-11-28T12:00:00Z'); // Saturday of the weekend that starts Friday 2026-11-27
    const quote = (await t.app.inject({ url: '/api/payments/quote', headers: buyer.owner.headers })).json();
    expect(quote.weekend.nextFreeWeekend).toBe('2026-12-04');
    const id = await buyer.open();
    expect((await buyer.view(id)).weekendStart).toBe('2026-12-04');
    expect(await buyer.pay(id)).toMatchObject({ credited: true, weekendStart: '2026-12-04', notice: null });
  });

  it('treats Friday 00:00 UTC as started and Thursday 23:59 as not', async () => {
    const early = await weekendBuyer();
    at('2027-03-04T23:59:59Z'); // Thursday
    expect(await early.pay(await early.open())).toMatchObject({ weekendStart: '2027-03-05' });
    const late = await weekendBuyer();
    at('2027-03-12T00:00:00Z'); // Friday, the second the weekend starts
    expect(await late.pay(await late.open())).toMatchObject({ weekendStart: '2027-03-19' });
  });

  it('a checkout opened on Thursday and paid on Saturday books the next weekend that has not started, and says so', async () => {
    const buyer = await weekendBuyer();
    at('2027-01-07T20:00:00Z'); // Thursday
    const id = await buyer.open();
    expect((await buyer.view(id)).weekendStart).toBe('2027-01-08');
    at('2027-01-09T10:00:00Z'); // Saturday: the offered weekend is running
    expect((await buyer.view(id)).weekendStart).toBe('2027-01-15');
    const paid = await buyer.pay(id);
    expect(paid).toMatchObject({ credited: true, weekendStart: '2027-01-15', notice: MSG.weekendMoved });
    expect(await buyer.view(id)).toMatchObject({ status: 'complete', weekendStart: '2027-01-15', notice: MSG.weekendMoved });
    // Paying again answers the same booking and credits nothing.
    expect(await buyer.pay(id)).toMatchObject({ credited: false, weekendStart: '2027-01-15', notice: MSG.weekendMoved });
    const bookings = await t.app.ctx.db
      .selectFrom('weekendBookings')
      .select('weekendStart')
      .where('serverId', '=', buyer.server.id)
      .execute();
    expect(bookings).toEqual([{ weekendStart: '2027-01-15' }]);
  });

  it('when another buyer takes the offered weekend first, the later payment gets the weekend after, with the notice', async () => {
    const first = await weekendBuyer();
    const second = await weekendBuyer();
    at('2027-05-03T09:00:00Z'); // Monday
    const a = await first.open();
    const b = await second.open();
    expect((await second.view(b)).weekendStart).toBe('2027-05-07');
    expect(await second.pay(b)).toMatchObject({ weekendStart: '2027-05-07', notice: null });
    expect(await first.pay(a)).toMatchObject({ weekendStart: '2027-05-14', notice: MSG.weekendMoved });
  });
});

describe('checkout sessions are rate-limited per user', () => {
  it('answers 429 with Retry-After after the limit, for that user only', async () => {
    at('2027-06-01T09:00:00Z');
    const owner = await createUser(t.app, { role: 'server_owner' });
    const other = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const calls = [
      () => post('/boost-session', owner, { serverId: String(server.id), amount: 10 }),
      () => post('/weekend-session', owner, { serverId: String(server.id) }),
      () => post('/subscribe-session', owner, { plan: 'Pro' }),
    ];
    for (const call of calls) expect((await call()).statusCode).toBe(200);
    const limited = await post('/boost-session', owner, { serverId: String(server.id), amount: 25 });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: MSG.tooMany });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post('/subscribe-session', owner, { plan: 'Premium' })).statusCode).toBe(429);
    expect((await post('/subscribe-session', other, { plan: 'Premium' })).statusCode).toBe(200);
    const player = await createUser(t.app);
    for (let i = 0; i < 3; i++) expect((await post('/boost-single-session', player, { serverId: String(server.id) })).statusCode).toBe(200);
    expect((await post('/boost-single-session', player, { serverId: String(server.id) })).statusCode).toBe(429);
    const sessions = await t.app.ctx.db.selectFrom('checkoutSessions').select('id').where('userId', '=', owner.row.id).execute();
    expect(sessions).toHaveLength(3);
  });
});

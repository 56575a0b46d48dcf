import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { startFakeStripe } from './helpers/fake-stripe';

const WEBHOOK_SECRET = 'whsec_test_secret_for_local_webhooks';
let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakeStripe>>;
const stripe = new Stripe('sk_test_local');
let sequence = 0;

beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createTestApp({ env: { STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const post = (url: string, user: TestUser | undefined, payload?: object) =>
  t.app.inject({ method: 'POST', url: `/api${url}`, headers: user?.headers, ...(payload ? { payload } : {}) });

function event(type: string, object: object, options: { id?: string; created?: number } = {}) {
  return {
    id: options.id ?? `evt_${process.pid}_${++sequence}`,
    object: 'event',
    type,
    created: options.created ?? Math.floor(Date.now() / 1000),
    data: { object },
  };
}

function deliver(body: object, options: { secret?: string; timestamp?: number; signature?: string } = {}) {
  const payload = JSON.stringify(body);
  const header =
    options.signature ??
    stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
}

async function boughtBoosts(amount = 10) {
  const owner = await createUser(t.app, { role: 'server_owner' });
  const server = await createServer(t.app, owner.row.id);
  const res = await post('/boost-session', owner, { serverId: String(server.id), amount });
  expect(res.statusCode).toBe(200);
  const sessionId = fake.requests.at(-1)!;
  const row = await t.app.ctx.db
    .selectFrom('checkoutSessions')
    .selectAll()
    .where('userId', '=', owner.row.id)
    .orderBy('createdAt', 'desc')
    .executeTakeFirstOrThrow();
  return { owner, server, url: res.json().url as string, checkoutId: row.id, request: sessionId };
}

const totalBoosts = async (id: number) =>
  (await t.app.ctx.db.selectFrom('servers').select('totalBoosts').where('id', '=', id).executeTakeFirstOrThrow()).totalBoosts;
const completed = (checkoutId: string, intent = `pi_${checkoutId.slice(-10)}`) =>
  event('checkout.session.completed', {
    id: checkoutId,
    object: 'checkout.session',
    mode: 'payment',
    payment_status: 'paid',
    payment_intent: intent,
  });

describe('Stripe Checkout through the real stripe package', () => {
  it('creates the session at Stripe with the server-decided price, metadata and an idempotency key', async () => {
    const { url, request, checkoutId, server, owner } = await boughtBoosts(50);
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    expect(checkoutId).toMatch(/^cs_test_/);
    expect(request.path).toBe('/v1/checkout/sessions');
    expect(request.authorization).toBe('Bearer sk_test_local');
    expect(request.idempotencyKey).toMatch(/^checkout-[0-9a-f-]{36}$/);
    expect(request.params).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '2000',
      'line_items[0][price_data][currency]': 'usd',
      'metadata[kind]': 'ownerBoost',
      'metadata[serverId]': String(server.id),
      'metadata[userId]': String(owner.row.id),
      'metadata[quantity]': '50',
      success_url: 'http://localhost:3000/payments?checkout=success',
    });
    const sub = await post('/subscribe-session', owner, { plan: 'Premium' });
    expect(sub.statusCode).toBe(200);
    expect(fake.requests.at(-1)!.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][unit_amount]': '2500',
    });
  });

  it("answers 'Stripe session creation failed' when Stripe refuses, and stores no session", async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    fake.failNextRequest();
    const res = await post('/boost-session', owner, { serverId: String(server.id), amount: 10 });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ error: 'Stripe session creation failed' });
    expect(await t.app.ctx.db.selectFrom('checkoutSessions').select('id').where('userId', '=', owner.row.id).execute()).toEqual([]);
    t.takeErrors();
  });

  it('refuses the built-in test checkout when keys are set', async () => {
    const { owner, checkoutId, server } = await boughtBoosts();
    const res = await post(`/checkout/${checkoutId}/complete`, owner);
    expect(res.statusCode).toBe(403);
    expect(await totalBoosts(server.id)).toBe(0);
  });

  it('credits nothing on a redirect with no webhook, a bad signature or a stale timestamp', async () => {
    const { checkoutId, server } = await boughtBoosts();
    expect((await deliver(completed(checkoutId), { secret: 'whsec_wrong' })).statusCode).toBe(400);
    expect((await deliver(completed(checkoutId), { timestamp: Math.floor(Date.now() / 1000) - 3600 })).statusCode).toBe(400);
    expect((await deliver(completed(checkoutId), { signature: 'garbage' })).statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(completed(checkoutId)),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await totalBoosts(server.id)).toBe(0);
    expect(await t.app.ctx.db.selectFrom('webhookEvents').select('id').execute()).toEqual([]);
  });

  it('credits once for the same event twice, ten times at once, or a second event for the same session', async () => {
    const { checkoutId, server, owner } = await boughtBoosts(25);
    const body = completed(checkoutId);
    expect((await deliver(body)).statusCode).toBe(200);
    expect((await deliver(body)).statusCode).toBe(200);
    await Promise.all(Array.from({ length: 10 }, () => deliver(body)));
    await deliver(event('checkout.session.async_payment_succeeded', body.data.object));
    expect(await totalBoosts(server.id)).toBe(25);
    const payments = await t.app.ctx.db.selectFrom('payments').selectAll().where('userId', '=', owner.row.id).execute();
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ type: 'ownerBoost', amountCents: 1000, status: 'paid' });

    const again = await boughtBoosts(10);
    const racing = completed(again.checkoutId);
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(racing)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await totalBoosts(again.server.id)).toBe(10);
  });

  it('waits for the money of a delayed payment method', async () => {
    const { checkoutId, server } = await boughtBoosts(10);
    await deliver(
      event('checkout.session.completed', {
        id: checkoutId,
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'unpaid',
        payment_intent: 'pi_delayed',
      }),
    );
    expect(await totalBoosts(server.id)).toBe(0);
    await deliver(
      event('checkout.session.async_payment_succeeded', {
        id: checkoutId,
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        payment_intent: 'pi_delayed',
      }),
    );
    expect(await totalBoosts(server.id)).toBe(10);
  });

  it('takes back boosts and the weekend on a refund or a dispute, once', async () => {
    const { checkoutId, server } = await boughtBoosts(50);
    await deliver(completed(checkoutId, 'pi_refund_me'));
    expect(await totalBoosts(server.id)).toBe(50);
    const refund = event('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: 'pi_refund_me', refunded: true });
    await deliver(refund);
    await deliver(refund);
    const row = await t.app.ctx.db
      .selectFrom('servers')
      .select(['totalBoosts', 'lastBoostedAt'])
      .where('id', '=', server.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ totalBoosts: 0, lastBoostedAt: null });
    expect(
      (
        await t.app.ctx.db
          .selectFrom('payments')
          .select('status')
          .where('stripePaymentIntentId', '=', 'pi_refund_me')
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('refunded');

    const owner = await createUser(t.app, { role: 'server_owner' });
    const weekendServer = await createServer(t.app, owner.row.id);
    await post('/weekend-session', owner, { serverId: String(weekendServer.id) });
    const weekendCheckout = (
      await t.app.ctx.db.selectFrom('checkoutSessions').select('id').where('userId', '=', owner.row.id).executeTakeFirstOrThrow()
    ).id;
    await deliver(completed(weekendCheckout, 'pi_weekend'));
    expect(await t.app.ctx.db.selectFrom('weekendBookings').select('status').where('serverId', '=', weekendServer.id).execute()).toEqual([
      { status: 'active' },
    ]);
    await deliver(event('charge.dispute.created', { id: 'dp_1', object: 'dispute', payment_intent: 'pi_weekend' }));
    expect(await t.app.ctx.db.selectFrom('weekendBookings').select('status').where('serverId', '=', weekendServer.id).execute()).toEqual([
      { status: 'revoked' },
    ]);
  });

  it('follows customer.subscription events in any order: deleted before created ends canceled', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const sub = (status: string) => ({
      id: 'sub_order_test',
      object: 'subscription',
      status,
      metadata: { userId: String(owner.row.id), plan: 'Premium' },
      items: { data: [{ current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400 }] },
    });
    const base = Math.floor(Date.now() / 1000);
    await deliver(event('customer.subscription.deleted', sub('canceled'), { created: base + 10 }));
    await deliver(event('customer.subscription.created', sub('active'), { created: base }));
    await deliver(event('customer.subscription.updated', sub('active'), { created: base + 5 }));
    expect((await t.app.inject({ url: '/api/user', headers: owner.headers })).json().subscriptionPlan).toBe('');
    const rows = await t.app.ctx.db
      .selectFrom('subscriptions')
      .select(['status'])
      .where('stripeSubscriptionId', '=', 'sub_order_test')
      .execute();
    expect(rows).toEqual([{ status: 'canceled' }]);

    const fresh = await createUser(t.app, { role: 'server_owner' });
    const live = {
      id: 'sub_live_test',
      object: 'subscription',
      status: 'active',
      metadata: { userId: String(fresh.row.id), plan: 'Pro' },
      items: { data: [] },
    };
    await deliver(event('customer.subscription.created', live));
    expect((await t.app.inject({ url: '/api/user', headers: fresh.headers })).json().subscriptionPlan).toBe('Pro');
    await deliver(
      event('invoice.paid', {
        id: 'in_1',
        object: 'invoice',
        amount_paid: 1000,
        parent: { subscription_details: { subscription: 'sub_live_test', metadata: { userId: String(fresh.row.id) } } },
      }),
    );
    await deliver(
      event('invoice.paid', {
        id: 'in_1',
        object: 'invoice',
        amount_paid: 1000,
        parent: { subscription_details: { subscription: 'sub_live_test' } },
      }),
    );
    const paid = (await t.app.inject({ url: '/api/user/payments', headers: fresh.headers })).json();
    expect(paid).toEqual([expect.objectContaining({ type: 'subscription', amount: 10 })]);

    // Cancelling here cancels at Stripe too.
    const cancel = await post('/cancel-subscription', fresh);
    expect(cancel.json()).toEqual({ plan: '' });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/v1/subscriptions/sub_live_test' });
  });

  it('acknowledges events it does not use', async () => {
    expect((await deliver(event('customer.created', { id: 'cus_1', object: 'customer' }))).statusCode).toBe(200);
  });
});

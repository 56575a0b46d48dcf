import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';
import { createServer, createUser, type TestUser } from './helpers/factories';
import { startFakeStripe } from './helpers/fake-stripe';
import {
  WEBHOOK_SECRET,
  deliverEvent,
  fullRefund,
  paidCheckout,
  paidInvoice,
  stripeEvent,
  subscriptionObject,
} from './helpers/stripe-events';

let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakeStripe>>;

beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createTestApp({ env: { STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** An owner's boost package checkout, started through the API and not paid yet. */
async function startBoostCheckout(owner: TestUser, serverId: number, amount: number) {
  await t.app.inject({
    method: 'POST',
    url: '/api/boost-session',
    headers: owner.headers,
    payload: { serverId: String(serverId), amount },
  });
  return t.app.ctx.db.selectFrom('checkoutSessions').select('id').where('userId', '=', owner.row.id).executeTakeFirstOrThrow();
}

const deliver = async (body: object) => {
  const res = await deliverEvent(t, body);
  expect(res.statusCode, res.body).toBe(200);
};
const planOf = async (user: TestUser) => (await t.app.inject({ url: '/api/user', headers: user.headers })).json().subscriptionPlan;
const paymentsOf = (userId: number) =>
  t.app.ctx.db.selectFrom('payments').select(['type', 'status', 'stripeInvoiceId']).where('userId', '=', userId).execute();
const totalBoosts = async (id: number) =>
  (await t.app.ctx.db.selectFrom('servers').select('totalBoosts').where('id', '=', id).executeTakeFirstOrThrow()).totalBoosts;
const unique = () => `${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

/** An owner with a live Stripe subscription paid by one invoice, paid with `intent`. */
async function subscribedOwner(plan: 'Pro' | 'Premium' = 'Premium') {
  const owner = await createUser(t.app, { role: 'server_owner' });
  const id = unique();
  const ids = { subscription: `sub_${id}`, invoice: `in_${id}`, intent: `pi_${id}` };
  const base = Math.floor(Date.now() / 1000) - 60;
  await deliver(
    stripeEvent('customer.subscription.created', subscriptionObject(ids.subscription, owner.row.id, plan, 'active'), { created: base }),
  );
  await deliver(paidInvoice(ids.invoice, ids.subscription, owner.row.id, plan, plan === 'Pro' ? 1000 : 2500));
  fake.setInvoicePayment(ids.intent, ids.invoice);
  expect(await planOf(owner)).toBe(plan);
  return { owner, ids, base };
}

describe('refunds and disputes of subscription invoices', () => {
  it('a full refund of the invoice ends the plan, stops billing at Stripe, and later events do not revive it', async () => {
    const { owner, ids, base } = await subscribedOwner();
    await deliver(fullRefund(ids.intent));
    expect(await planOf(owner)).toBe('');
    expect(await paymentsOf(owner.row.id)).toEqual([{ type: 'subscription', status: 'refunded', stripeInvoiceId: ids.invoice }]);
    // The charge names no invoice: the app asked Stripe which invoice the payment intent paid.
    expect(fake.requests.some((r) => r.path === '/v1/invoice_payments' && r.method === 'GET')).toBe(true);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/subscriptions/${ids.subscription}` });
    // Stripe may still say `active` afterwards (an update sent before it saw the cancel).
    await deliver(
      stripeEvent('customer.subscription.updated', subscriptionObject(ids.subscription, owner.row.id, 'Premium', 'active'), {
        created: base + 3600,
      }),
    );
    expect(await planOf(owner)).toBe('');
    expect((await t.app.inject({ url: '/api/user/subscription', headers: owner.headers })).json()).toMatchObject({
      plan: '',
      status: 'none',
    });
  });

  it('a dispute of the invoice ends the plan too, once however often it is delivered', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const id = unique();
    await deliver(stripeEvent('customer.subscription.created', subscriptionObject(`sub_${id}`, owner.row.id, 'Pro', 'active')));
    // This invoice names its payment intent (an expanded `payments` list): no lookup needed.
    const invoice = paidInvoice(`in_${id}`, `sub_${id}`, owner.row.id, 'Pro', 1000);
    (invoice.data.object as Record<string, unknown>).payments = {
      data: [{ payment: { type: 'payment_intent', payment_intent: `pi_${id}` } }],
    };
    await deliver(invoice);
    expect(await planOf(owner)).toBe('Pro');
    const dispute = stripeEvent('charge.dispute.created', { id: `dp_${id}`, object: 'dispute', payment_intent: `pi_${id}` });
    const results = await Promise.all(Array.from({ length: 5 }, () => deliverEvent(t, dispute)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await planOf(owner)).toBe('');
    expect(await paymentsOf(owner.row.id)).toEqual([{ type: 'subscription', status: 'disputed', stripeInvoiceId: `in_${id}` }]);
    expect(fake.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/sub_${id}`)).toHaveLength(1);
  });

  it('a partial refund takes nothing back', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const checkout = await startBoostCheckout(owner, server.id, 10);
    const intent = `pi_${unique()}`;
    await deliver(paidCheckout(checkout.id, intent));
    await deliver(stripeEvent('charge.refunded', { id: `ch_${intent}`, object: 'charge', payment_intent: intent, refunded: false }));
    expect(await totalBoosts(server.id)).toBe(10);
    await deliver(fullRefund(intent));
    expect(await totalBoosts(server.id)).toBe(0);
  });
});

describe('refunds delivered before the payment they refund', () => {
  it('a boost refunded before its checkout completes ends with nothing credited', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const checkout = await startBoostCheckout(owner, server.id, 25);
    const intent = `pi_${unique()}`;
    await deliver(fullRefund(intent));
    await deliver(paidCheckout(checkout.id, intent));
    expect(await totalBoosts(server.id)).toBe(0);
    expect(await paymentsOf(owner.row.id)).toEqual([{ type: 'ownerBoost', status: 'refunded', stripeInvoiceId: null }]);
    const boosts = await t.app.ctx.db.selectFrom('boosts').select('revokedAt').where('serverId', '=', server.id).execute();
    expect(boosts).toEqual([{ revokedAt: expect.any(Date) }]);
  });

  it('a subscription invoice refunded before invoice.paid and subscription.created ends canceled', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const id = unique();
    fake.setInvoicePayment(`pi_${id}`, `in_${id}`);
    const base = Math.floor(Date.now() / 1000) - 60;
    await deliver(fullRefund(`pi_${id}`));
    await deliver(paidInvoice(`in_${id}`, `sub_${id}`, owner.row.id, 'Premium', 2500));
    await deliver(
      stripeEvent('customer.subscription.updated', subscriptionObject(`sub_${id}`, owner.row.id, 'Premium', 'active'), {
        created: base + 5,
      }),
    );
    await deliver(
      stripeEvent('customer.subscription.created', subscriptionObject(`sub_${id}`, owner.row.id, 'Premium', 'active'), { created: base }),
    );
    expect(await planOf(owner)).toBe('');
    expect(await paymentsOf(owner.row.id)).toEqual([{ type: 'subscription', status: 'refunded', stripeInvoiceId: `in_${id}` }]);
    expect(
      await t.app.ctx.db.selectFrom('subscriptions').select('status').where('stripeSubscriptionId', '=', `sub_${id}`).execute(),
    ).toEqual([{ status: 'canceled' }]);
  });
});

describe('a subscription checkout activates the plan only once it is paid', () => {
  it('completed but unpaid gives no plan; the paid invoice gives it', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/subscribe-session', headers: owner.headers, payload: { plan: 'Pro' } })).statusCode,
    ).toBe(200);
    const checkout = await t.app.ctx.db
      .selectFrom('checkoutSessions')
      .select('id')
      .where('userId', '=', owner.row.id)
      .executeTakeFirstOrThrow();
    const id = unique();
    const session = { id: checkout.id, object: 'checkout.session', mode: 'subscription', subscription: `sub_${id}`, payment_intent: null };
    await deliver(stripeEvent('checkout.session.completed', { ...session, payment_status: 'unpaid' }));
    // Stripe creates the subscription `incomplete` until the first invoice is paid.
    await deliver(stripeEvent('customer.subscription.created', subscriptionObject(`sub_${id}`, owner.row.id, 'Pro', 'incomplete')));
    expect(await planOf(owner)).toBe('');
    await deliver(paidInvoice(`in_${id}`, `sub_${id}`, owner.row.id, 'Pro', 1000));
    expect(await planOf(owner)).toBe('Pro');
    await deliver(stripeEvent('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' }));
    expect(await planOf(owner)).toBe('Pro');
    expect(await paymentsOf(owner.row.id)).toEqual([{ type: 'subscription', status: 'paid', stripeInvoiceId: `in_${id}` }]);
  });

  it('completed and unpaid, then async_payment_succeeded alone, activates it', async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    await t.app.inject({ method: 'POST', url: '/api/subscribe-session', headers: owner.headers, payload: { plan: 'Premium' } });
    const checkout = await t.app.ctx.db
      .selectFrom('checkoutSessions')
      .select('id')
      .where('userId', '=', owner.row.id)
      .executeTakeFirstOrThrow();
    const session = { id: checkout.id, object: 'checkout.session', mode: 'subscription', subscription: `sub_${unique()}` };
    await deliver(stripeEvent('checkout.session.completed', { ...session, payment_status: 'unpaid' }));
    expect(await planOf(owner)).toBe('');
    await deliver(stripeEvent('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' }));
    expect(await planOf(owner)).toBe('Premium');
  });
});

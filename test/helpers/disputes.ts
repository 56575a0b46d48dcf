import { expect } from 'vitest';
import { createServer, createUser, type TestUser } from './factories';
import { startFakeStripe } from './fake-stripe';
import { WEBHOOK_SECRET, deliverEvent, paidCheckout, stripeEvent } from './stripe-events';
import { createTestApp, type TestApp } from './test-app';

/** A Stripe dispute event about the charge of `intent`, in Stripe's shape. */
function disputeEvent(type: string, disputeId: string, intent: string, status: string) {
  return stripeEvent(type, {
    id: disputeId,
    object: 'dispute',
    amount: 1000,
    currency: 'usd',
    charge: `ch_${intent}`,
    payment_intent: intent,
    reason: 'fraudulent',
    status,
  });
}

/** `charge.dispute.created`: the cardholder disputes the charge. */
export const disputeCreated = (disputeId: string, intent: string) =>
  disputeEvent('charge.dispute.created', disputeId, intent, 'needs_response');

/** `charge.dispute.closed` with Stripe's closing status. */
export const disputeClosed = (disputeId: string, intent: string, status: 'won' | 'lost' | 'warning_closed') =>
  disputeEvent('charge.dispute.closed', disputeId, intent, status);

export const unique = () => `${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

/**
 * An app with Stripe keys against the local fake Stripe, and a clock that is the real time
 * unless a test moves it (`setClock`): weekends and plan periods end by the app's clock.
 */
export async function disputeWorld() {
  const fake = await startFakeStripe();
  let clock: Date | null = null;
  const t: TestApp = await createTestApp({
    env: { STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url },
    build: { now: () => clock ?? new Date() },
  });
  const db = t.app.ctx.db;

  /** Delivers a signed event; Stripe must get a 200. */
  const deliver = async (body: object) => {
    const res = await deliverEvent(t, body);
    expect(res.statusCode, res.body).toBe(200);
  };

  /** A checkout of `kind` opened through the API by `buyer`, paid through the webhook with a new intent. */
  const bought = async (buyer: TestUser, url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url: `/api${url}`, headers: buyer.headers, payload });
    expect(res.statusCode, res.body).toBe(200);
    const checkout = await db
      .selectFrom('checkoutSessions')
      .select('id')
      .where('userId', '=', buyer.row.id)
      .orderBy('createdAt', 'desc')
      .executeTakeFirstOrThrow();
    const intent = `pi_${unique()}`;
    return { checkoutId: checkout.id, intent, paid: paidCheckout(checkout.id, intent) };
  };

  /** An owner's server and a boost package for it, paid. */
  const paidBoosts = async (amount = 25) => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const purchase = await bought(owner, '/boost-session', { serverId: String(server.id), amount });
    await deliver(purchase.paid);
    return { owner, server, ...purchase };
  };

  /** An owner's server booked as Server of the Weekend, paid; answers the weekend booked. */
  const paidWeekend = async () => {
    const owner = await createUser(t.app, { role: 'server_owner' });
    const server = await createServer(t.app, owner.row.id);
    const purchase = await bought(owner, '/weekend-session', { serverId: String(server.id) });
    await deliver(purchase.paid);
    const weekend = (await activeWeekendsOf(server.id))[0]!;
    return { owner, server, weekend, ...purchase };
  };

  const activeWeekendsOf = async (serverId: number) =>
    (
      await db
        .selectFrom('weekendBookings')
        .select('weekendStart')
        .where('serverId', '=', serverId)
        .where('status', '=', 'active')
        .orderBy('id')
        .execute()
    ).map((b) => b.weekendStart);

  return {
    t,
    fake,
    deliver,
    bought,
    paidBoosts,
    paidWeekend,
    activeWeekendsOf,
    setClock: (at: Date | null) => {
      clock = at;
    },
    server: (id: number) =>
      db.selectFrom('servers').select(['totalBoosts', 'lastBoostedAt']).where('id', '=', id).executeTakeFirstOrThrow(),
    /** The status of the payment Stripe names by this payment intent or invoice id. */
    statusOf: async (stripeId: string) =>
      (
        await db
          .selectFrom('payments')
          .select('status')
          .where((eb) => eb.or([eb('stripePaymentIntentId', '=', stripeId), eb('stripeInvoiceId', '=', stripeId)]))
          .executeTakeFirstOrThrow()
      ).status,
    planOf: async (user: TestUser) => (await t.app.inject({ url: '/api/user', headers: user.headers })).json().subscriptionPlan as string,
    /** The user's inbox notices about won disputes (their links go to the payments page). */
    disputeNotices: async (user: TestUser) =>
      (await t.app.inject({ url: '/api/notifications', headers: user.headers }))
        .json<Array<{ title: string; message: string; link: string | null }>>()
        .filter((n) => n.link === '/payments'),
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}

export type DisputeWorld = Awaited<ReturnType<typeof disputeWorld>>;

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './helpers/factories';
import { disputeClosed, disputeCreated, disputeWorld, unique, type DisputeWorld } from './helpers/disputes';
import { stripeEvent, subscriptionObject } from './helpers/stripe-events';

let w: DisputeWorld;
beforeAll(async () => {
  w = await disputeWorld();
});
afterEach(() => w.setClock(null));
afterAll(() => w.close());

const DAY_MS = 86400_000;

/** The admin's revenue of the last 30 days for one payment type, in dollars. */
async function monthlyRevenue(type: 'ownerBoost' | 'serverOfTheWeekend' | 'subscription') {
  const admin = await createUser(w.t.app, { role: 'admin' });
  const res = await w.t.app.inject({ url: '/api/admin/revenue', headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().monthly[type] as number;
}

describe('a dispute we win gives back what it took', () => {
  it('boosts count again with the time they were first credited; the payment is paid and revenue again; the buyer is told in their language', async () => {
    const { owner, server, intent } = await w.paidBoosts(25);
    const credited = await w.server(server.id);
    expect(credited.totalBoosts).toBe(25);
    await w.t.app.ctx.db.updateTable('users').set({ locale: 'de' }).where('id', '=', owner.row.id).execute();
    const revenueBefore = await monthlyRevenue('ownerBoost');

    const dispute = `dp_${unique()}`;
    await w.deliver(disputeCreated(dispute, intent));
    expect(await w.server(server.id)).toEqual({ totalBoosts: 0, lastBoostedAt: null });
    expect(await w.statusOf(intent)).toBe('disputed');
    expect(await monthlyRevenue('ownerBoost')).toBeCloseTo(revenueBefore - 10);

    await w.deliver(disputeClosed(dispute, intent, 'won'));
    // The same boosts, not new ones: their credit time (Hot, the 7-day count) is the first one.
    expect(await w.server(server.id)).toEqual(credited);
    expect(await w.statusOf(intent)).toBe('paid');
    expect(await monthlyRevenue('ownerBoost')).toBeCloseTo(revenueBefore);
    const notices = await w.disputeNotices(owner);
    expect(notices).toHaveLength(1);
    // German writes the amount its way (a no-break space before the sign).
    expect(notices[0]!.title).toBe('Anfechtung deiner Zahlung über 10,00\u00a0$ abgeschlossen');
    expect(notices[0]!.message).toContain('25 Boosts');
    expect(notices[0]!.message).toContain(server.name);
  });

  it('a Server of the Weekend still ahead is booked again', async () => {
    const { owner, server, weekend, intent } = await w.paidWeekend();
    const dispute = `dp_${unique()}`;
    await w.deliver(disputeCreated(dispute, intent));
    expect(await w.activeWeekendsOf(server.id)).toEqual([]);
    await w.deliver(disputeClosed(dispute, intent, 'won'));
    expect(await w.activeWeekendsOf(server.id)).toEqual([weekend]);
    expect(await w.statusOf(intent)).toBe('paid');
    const [notice] = await w.disputeNotices(owner);
    expect(notice!.title).toBe('Dispute of your $100.00 payment closed');
    expect(notice!.message).toContain(`${server.name} is Server of the Weekend again`);
  });

  it('a weekend sold again while disputed: the first free weekend after it instead; the new buyer keeps theirs', async () => {
    const first = await w.paidWeekend();
    const dispute = `dp_${unique()}`;
    await w.deliver(disputeCreated(dispute, first.intent));
    const second = await w.paidWeekend();
    expect(second.weekend).toBe(first.weekend);
    const quote = (await w.t.app.inject({ url: '/api/payments/quote', headers: first.owner.headers })).json();
    await w.deliver(disputeClosed(dispute, first.intent, 'won'));
    expect(await w.activeWeekendsOf(second.server.id)).toEqual([first.weekend]);
    const moved = await w.activeWeekendsOf(first.server.id);
    expect(moved).toEqual([quote.weekend.nextFreeWeekend]);
    expect(moved[0]! > first.weekend).toBe(true);
    expect((await w.disputeNotices(first.owner))[0]!.message).toContain('was sold to another server');
  });

  it('a weekend already over is not given back: the payment is recorded as paid and the owner told', async () => {
    const { owner, server, weekend, intent } = await w.paidWeekend();
    const dispute = `dp_${unique()}`;
    await w.deliver(disputeCreated(dispute, intent));
    // Monday 00:00 UTC after that weekend: it has ended.
    w.setClock(new Date(Date.parse(`${weekend}T00:00:00Z`) + 3 * DAY_MS));
    await w.deliver(disputeClosed(dispute, intent, 'won'));
    expect(await w.activeWeekendsOf(server.id)).toEqual([]);
    expect(await w.statusOf(intent)).toBe('paid');
    expect((await w.disputeNotices(owner))[0]!.message).toContain('is over, so it cannot be given back');
  });
});

describe('a plan a won dispute gives back', () => {
  /** An owner whose Premium subscription's invoice (paid with a known intent) is disputed: plan gone, subscription ended at Stripe. */
  async function disputedSubscriber(options: { intentOnInvoice: boolean } = { intentOnInvoice: true }) {
    const owner = await createUser(w.t.app, { role: 'server_owner' });
    const id = unique();
    const ids = { sub: `sub_${id}`, invoice: `in_${id}`, intent: `pi_${id}`, dispute: `dp_${id}` };
    await w.deliver(stripeEvent('customer.subscription.created', subscriptionObject(ids.sub, owner.row.id, 'Premium', 'active')));
    // Without the intent on the invoice, the dispute events find the invoice by asking Stripe.
    w.fake.setInvoicePayment(ids.intent, ids.invoice);
    await w.deliver(
      stripeEvent('invoice.paid', {
        id: ids.invoice,
        object: 'invoice',
        amount_paid: 2500,
        parent: { subscription_details: { subscription: ids.sub, metadata: { userId: String(owner.row.id), plan: 'Premium' } } },
        ...(options.intentOnInvoice ? { payments: { data: [{ payment: { type: 'payment_intent', payment_intent: ids.intent } }] } } : {}),
      }),
    );
    expect(await w.planOf(owner)).toBe('Premium');
    await w.deliver(disputeCreated(ids.dispute, ids.intent));
    expect(await w.planOf(owner)).toBe('');
    expect(w.fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/subscriptions/${ids.sub}` });
    const periodEnd = (
      await w.t.app.ctx.db
        .selectFrom('subscriptions')
        .select('currentPeriodEnd')
        .where('stripeSubscriptionId', '=', ids.sub)
        .executeTakeFirstOrThrow()
    ).currentPeriodEnd!;
    return { owner, ids, periodEnd };
  }

  const subscriptionRows = (userId: number) =>
    w.t.app.ctx.db
      .selectFrom('subscriptions')
      .select(['plan', 'status', 'stripeSubscriptionId', 'currentPeriodEnd'])
      .where('userId', '=', userId)
      .orderBy('id')
      .execute();

  it('comes back until the end of the period paid, without reviving the Stripe subscription, and then ends by itself', async () => {
    const { owner, ids, periodEnd } = await disputedSubscriber();
    const stripeCalls = w.fake.requests.length;
    await w.deliver(disputeClosed(ids.dispute, ids.intent, 'won'));
    expect(await w.planOf(owner)).toBe('Premium');
    expect(await w.statusOf(ids.intent)).toBe('paid');
    expect((await w.t.app.inject({ url: '/api/user/subscription', headers: owner.headers })).json()).toEqual({
      plan: 'Premium',
      status: 'active',
      currentPeriodEnd: periodEnd.toISOString(),
    });
    // Stripe's subscription stays canceled and nothing asked Stripe to bill again.
    expect(w.fake.requests.length).toBe(stripeCalls);
    expect(await subscriptionRows(owner.row.id)).toEqual([
      { plan: 'Premium', status: 'canceled', stripeSubscriptionId: ids.sub, currentPeriodEnd: periodEnd },
      { plan: 'Premium', status: 'active', stripeSubscriptionId: null, currentPeriodEnd: periodEnd },
    ]);
    expect((await w.disputeNotices(owner))[0]!.message).toMatch(/^The payment stands, so your Premium plan is back until .+ UTC, the end/);
    // A stale update about the ended subscription, sent before the dispute closed, changes nothing.
    await w.deliver(
      stripeEvent('customer.subscription.updated', subscriptionObject(ids.sub, owner.row.id, 'Premium', 'active'), {
        created: Math.floor(Date.now() / 1000) - 3600,
      }),
    );
    expect((await subscriptionRows(owner.row.id))[0]!.status).toBe('canceled');

    w.setClock(new Date(periodEnd.getTime() - 1000));
    expect(await w.t.app.ctx.fulfilment.endLapsedPlans()).toBe(0);
    w.setClock(new Date(periodEnd.getTime() + 1000));
    expect(await w.t.app.ctx.fulfilment.endLapsedPlans()).toBe(1);
    expect(await w.planOf(owner)).toBe('');
    expect((await subscriptionRows(owner.row.id)).map((s) => s.status)).toEqual(['canceled', 'canceled']);
  });

  it('is only recorded when the period paid is already over', async () => {
    const { owner, ids, periodEnd } = await disputedSubscriber({ intentOnInvoice: false });
    w.setClock(new Date(periodEnd.getTime() + DAY_MS));
    await w.deliver(disputeClosed(ids.dispute, ids.intent, 'won'));
    expect(await w.planOf(owner)).toBe('');
    expect(await w.statusOf(ids.invoice)).toBe('paid');
    expect((await subscriptionRows(owner.row.id)).map((s) => s.status)).toEqual(['canceled']);
    expect((await w.disputeNotices(owner))[0]!.message).toContain('the period it paid for your Premium plan ended on');
  });

  it('can be cancelled by its owner at once, without asking Stripe', async () => {
    const { owner, ids } = await disputedSubscriber();
    await w.deliver(disputeClosed(ids.dispute, ids.intent, 'won'));
    expect(await w.planOf(owner)).toBe('Premium');
    const stripeCalls = w.fake.requests.length;
    const res = await w.t.app.inject({ method: 'POST', url: '/api/cancel-subscription', headers: owner.headers });
    expect(res.json()).toEqual({ plan: '' });
    expect(await w.planOf(owner)).toBe('');
    expect(w.fake.requests.length).toBe(stripeCalls);
  });

  it('is not added on top of a plan the owner bought since', async () => {
    const { owner, ids } = await disputedSubscriber();
    await w.deliver(stripeEvent('customer.subscription.created', subscriptionObject(`sub_${unique()}`, owner.row.id, 'Pro', 'active')));
    expect(await w.planOf(owner)).toBe('Pro');
    await w.deliver(disputeClosed(ids.dispute, ids.intent, 'won'));
    expect(await w.planOf(owner)).toBe('Pro');
    expect(await w.statusOf(ids.intent)).toBe('paid');
    expect((await w.disputeNotices(owner))[0]!.message).toContain('You have a plan now');
  });
});

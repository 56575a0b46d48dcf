import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverEvent, fullRefund, stripeEvent } from './helpers/stripe-events';
import { disputeClosed, disputeCreated, disputeWorld, unique, type DisputeWorld } from './helpers/disputes';

let w: DisputeWorld;
beforeAll(async () => {
  w = await disputeWorld();
});
afterAll(() => w.close());

describe('a closed dispute gives back only what it took, once', () => {
  it('lost gives nothing back; the same dispute won later on appeal does', async () => {
    const { owner, server, intent } = await w.paidBoosts(10);
    const dispute = `dp_${unique()}`;
    await w.deliver(disputeCreated(dispute, intent));
    await w.deliver(disputeClosed(dispute, intent, 'lost'));
    expect((await w.server(server.id)).totalBoosts).toBe(0);
    expect(await w.statusOf(intent)).toBe('disputed');
    expect(await w.disputeNotices(owner)).toEqual([]);
    await w.deliver(disputeClosed(dispute, intent, 'won'));
    expect((await w.server(server.id)).totalBoosts).toBe(10);
    expect(await w.statusOf(intent)).toBe('paid');
  });

  it('the same won event delivered at once and again, or a second event for the same dispute, gives back once', async () => {
    const { owner, server, intent } = await w.paidBoosts(50);
    const dispute = `dp_${unique()}`;
    await w.deliver(disputeCreated(dispute, intent));
    const won = disputeClosed(dispute, intent, 'won');
    const results = await Promise.all(Array.from({ length: 6 }, () => deliverEvent(w.t, won)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    await w.deliver(won);
    await w.deliver(disputeClosed(dispute, intent, 'won'));
    expect((await w.server(server.id)).totalBoosts).toBe(50);
    const boosts = await w.t.app.ctx.db.selectFrom('boosts').select(['amount', 'revokedAt']).where('serverId', '=', server.id).execute();
    expect(boosts).toEqual([{ amount: 50, revokedAt: null }]);
    expect(await w.statusOf(intent)).toBe('paid');
    expect(await w.disputeNotices(owner)).toHaveLength(1);
  });

  it('a dispute and its win arriving at the same moment end with the purchase kept', async () => {
    const { server, intent } = await w.paidBoosts(10);
    const dispute = `dp_${unique()}`;
    const results = await Promise.all([
      deliverEvent(w.t, disputeCreated(dispute, intent)),
      deliverEvent(w.t, disputeClosed(dispute, intent, 'won')),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await w.server(server.id)).totalBoosts).toBe(10);
    expect(await w.statusOf(intent)).toBe('paid');
  });

  it('a disputed payment also refunded gives nothing back when the dispute is won', async () => {
    const { owner, server, intent } = await w.paidBoosts(25);
    const dispute = `dp_${unique()}`;
    await w.deliver(disputeCreated(dispute, intent));
    await w.deliver(fullRefund(intent));
    expect(await w.statusOf(intent)).toBe('refunded');
    await w.deliver(disputeClosed(dispute, intent, 'won'));
    expect((await w.server(server.id)).totalBoosts).toBe(0);
    expect(await w.statusOf(intent)).toBe('refunded');
    expect(await w.disputeNotices(owner)).toEqual([]);
  });

  it('a refund and a dispute both delivered before their payment: the payment lands refunded and the win gives nothing', async () => {
    const { owner, server } = await w.paidWeekend();
    const purchase = await w.bought(owner, '/weekend-session', { serverId: String(server.id) });
    const dispute = `dp_${unique()}`;
    await w.deliver(disputeCreated(dispute, purchase.intent));
    await w.deliver(fullRefund(purchase.intent));
    await w.deliver(purchase.paid);
    expect(await w.statusOf(purchase.intent)).toBe('refunded');
    await w.deliver(disputeClosed(dispute, purchase.intent, 'won'));
    expect(await w.statusOf(purchase.intent)).toBe('refunded');
    const bookings = await w.t.app.ctx.db
      .selectFrom('weekendBookings')
      .innerJoin('payments', 'payments.id', 'weekendBookings.paymentId')
      .select('weekendBookings.status')
      .where('payments.stripePaymentIntentId', '=', purchase.intent)
      .execute();
    expect(bookings).toEqual([{ status: 'revoked' }]);
  });
});

describe('a win delivered before its dispute', () => {
  it('changes nothing, and the dispute arriving after it takes nothing', async () => {
    const { owner, server, intent } = await w.paidBoosts(10);
    const before = await w.server(server.id);
    const dispute = `dp_${unique()}`;
    await w.deliver(disputeClosed(dispute, intent, 'won'));
    expect(await w.server(server.id)).toEqual(before);
    expect(await w.statusOf(intent)).toBe('paid');
    await w.deliver(disputeCreated(dispute, intent));
    expect(await w.server(server.id)).toEqual(before);
    expect(await w.statusOf(intent)).toBe('paid');
    expect(await w.disputeNotices(owner)).toEqual([]);
  });

  it('a dispute and its win both before the payment: the payment lands paid and credits its boosts', async () => {
    const { owner, server } = await w.paidBoosts(10);
    const purchase = await w.bought(owner, '/boost-session', { serverId: String(server.id), amount: 25 });
    const dispute = `dp_${unique()}`;
    await w.deliver(disputeCreated(dispute, purchase.intent));
    await w.deliver(disputeClosed(dispute, purchase.intent, 'won'));
    await w.deliver(purchase.paid);
    expect((await w.server(server.id)).totalBoosts).toBe(35);
    expect(await w.statusOf(purchase.intent)).toBe('paid');
  });

  it('an inquiry closed without a chargeback gives back like a win', async () => {
    const { server, intent } = await w.paidBoosts(10);
    const dispute = `dp_${unique()}`;
    await w.deliver(
      stripeEvent('charge.dispute.created', { id: dispute, object: 'dispute', payment_intent: intent, status: 'warning_needs_response' }),
    );
    expect((await w.server(server.id)).totalBoosts).toBe(0);
    await w.deliver(disputeClosed(dispute, intent, 'warning_closed'));
    expect((await w.server(server.id)).totalBoosts).toBe(10);
  });
});

import type { Executor } from '../../db/transaction';
import type { CheckoutsRepository } from './checkouts.repository';
import type { CreditsRepository } from './credits.repository';
import { disputeWonNotice, type GivenBack } from './dispute-notice';
import { IN_OUR_FAVOUR } from './dispute-outcomes';
import type { PaymentsRepository, StripePaymentRef } from './payments.repository';
import type { reversals } from './reversals';
import type { SubscriptionsRepository } from './subscriptions.repository';
import type { WeekendCalendar } from './weekends';

interface Deps {
  now: () => Date;
  checkouts: Pick<CheckoutsRepository, 'findServerName'>;
  payments: PaymentsRepository;
  subscriptions: SubscriptionsRepository;
  credits: CreditsRepository;
  weekends: Pick<WeekendCalendar, 'book'>;
  reversal: Pick<ReturnType<typeof reversals>, 'lock'>;
  refreshPlan: (tx: Executor, userId: number) => Promise<void>;
}

/** A `charge.dispute.closed`: the dispute, how it ended, and the payment it was about. */
export interface ClosedDispute extends StripePaymentRef {
  disputeId: string;
  status: string;
  eventAt: Date;
}

type RestoredPayment = NonNullable<Awaited<ReturnType<PaymentsRepository['markRestored']>>>;

const DAY_MS = 86400_000;
/** Monday 00:00 UTC after the weekend that starts on `friday`. */
const weekendEnd = (friday: string) => Date.parse(`${friday}T00:00:00Z`) + 3 * DAY_MS;
const monthAfter = (at: Date) => {
  const end = new Date(at);
  end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
};

/**
 * A dispute closed in our favour gives back what its `created` took (docs/decisions/056-dispute-won.md):
 * boosts count again from when they were first credited, a weekend not over is booked again, a
 * plan comes back for the period already paid. Runs in the caller's transaction, after the same
 * locks as a reversal, so it happens once and never crosses the dispute's own `created`.
 */
export function wonDisputes({ now, checkouts, payments, subscriptions, credits, weekends, reversal, refreshPlan }: Deps) {
  const serverName = async (tx: Executor, serverId: number) => (await checkouts.findServerName(serverId, tx))?.name ?? '';

  /** Its boosts, counted again from when they were first credited (the Hot list and 7-day counts follow that time). */
  const giveBackBoosts = async (tx: Executor, paymentId: number): Promise<GivenBack> => {
    const rows = await credits.restoreBoostsOfPayment(paymentId, tx);
    for (const b of rows) await credits.giveBackBoosts(b.serverId, b.amount, tx);
    if (!rows[0]) return { kind: 'recorded' };
    return { kind: 'boosts', server: await serverName(tx, rows[0].serverId), boosts: rows.reduce((n, b) => n + b.amount, 0) };
  };

  /** The weekend it had booked: again if not over and still free, else the next free one; a past one is only recorded. */
  const giveBackWeekend = async (tx: Executor, paymentId: number, userId: number | null): Promise<GivenBack> => {
    const booked = await credits.revokedWeekendOfPayment(paymentId, tx);
    if (!booked) return { kind: 'recorded' };
    const server = await serverName(tx, booked.serverId);
    if (weekendEnd(booked.weekendStart) <= now().getTime()) return { kind: 'weekendPassed', server, weekend: booked.weekendStart };
    const booking = { serverId: booked.serverId, userId, paymentId };
    const again = await credits.bookWeekend(booking, booked.weekendStart, tx);
    if (again) return { kind: 'weekend', server, weekend: again };
    // Sold to someone else while the payment was disputed: the first free weekend after it, as a checkout paid late gets.
    const moved = await weekends.book(booking, now(), booked.weekendStart, tx);
    return { kind: 'weekendMoved', server, weekend: moved, booked: booked.weekendStart };
  };

  /**
   * The plan until the end of the period paid. The Stripe subscription the dispute ended stays
   * ended (Stripe cannot revive a canceled one), so the plan is a row of its own that ends by itself.
   */
  const giveBackPlan = async (tx: Executor, payment: RestoredPayment, eventAt: Date): Promise<GivenBack> => {
    const { stripeSubscriptionId: stripeId, userId } = payment;
    if (!stripeId || !userId) return { kind: 'recorded' };
    await payments.lockKeys([`sub:${stripeId}`], tx);
    const stripeSub = await subscriptions.findByStripeId(stripeId, tx);
    if (!stripeSub) return { kind: 'recorded' };
    // Stale events about the ended subscription, older than this close, change nothing any more.
    if (!stripeSub.lastEventAt || stripeSub.lastEventAt < eventAt) await subscriptions.update(stripeSub.id, { lastEventAt: eventAt }, tx);
    // Another payment of it refunded or still disputed keeps it ended.
    if (await payments.subscriptionReversed(stripeId, tx)) return { kind: 'recorded' };
    const { plan } = stripeSub;
    const end = stripeSub.currentPeriodEnd ?? monthAfter(payment.createdAt);
    if (end.getTime() <= now().getTime()) return { kind: 'planPassed', plan, end };
    if ((await subscriptions.liveOf(userId, tx)).length > 0) return { kind: 'planHeld', plan };
    await subscriptions.insertUntil({ userId, plan, endsAt: end, lastEventAt: eventAt }, now(), tx);
    await refreshPlan(tx, userId);
    return { kind: 'plan', plan, end };
  };

  /** Gives back what the payment bought and tells its buyer. */
  const giveBack = async (tx: Executor, paymentId: number, eventAt: Date): Promise<void> => {
    const payment = await payments.markRestored(paymentId, tx);
    if (!payment) return;
    const given =
      payment.type === 'subscription'
        ? await giveBackPlan(tx, payment, eventAt)
        : payment.type === 'serverOfTheWeekend'
          ? await giveBackWeekend(tx, paymentId, payment.userId)
          : await giveBackBoosts(tx, paymentId);
    if (!payment.userId) return;
    const notice = disputeWonNotice(await payments.localeOf(payment.userId, tx), payment.amountCents, given);
    await payments.notify(payment.userId, notice, tx);
  };

  return {
    /**
     * Records how a dispute ended; one closed in our favour gives back what its payment bought,
     * once. Lost, or for a payment also refunded, it gives nothing. Won before its payment was
     * recorded, the dispute waiting for that payment is dropped, so the payment lands untouched.
     */
    async close(tx: Executor, dispute: ClosedDispute): Promise<void> {
      const ref = { paymentIntentId: dispute.paymentIntentId, invoiceId: dispute.invoiceId };
      await reversal.lock(tx, ref);
      const changed = await payments.recordDisputeClose(
        { id: dispute.disputeId, paymentIntentId: dispute.paymentIntentId, status: dispute.status },
        now(),
        tx,
      );
      if (!changed || !IN_OUR_FAVOUR.includes(dispute.status) || (!ref.paymentIntentId && !ref.invoiceId)) return;
      const payment = await payments.findForUpdate(ref, tx);
      if (!payment) await payments.dropWaitingDisputes(ref, tx);
      // Paid: its dispute's `created` has not arrived (and now never takes anything); refunded: the money went back.
      else if (payment.status === 'disputed') await giveBack(tx, payment.id, dispute.eventAt);
    },

    /** Ends the plans given back until a time that has come; answers how many. */
    async endLapsedPlans(tx: Executor): Promise<number> {
      const ended = await subscriptions.endLapsed(now(), tx);
      for (const userId of new Set(ended.map((e) => e.userId))) await refreshPlan(tx, userId);
      return ended.length;
    },
  };
}

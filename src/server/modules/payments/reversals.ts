import type { Executor } from '../../db/transaction';
import type { CreditsRepository } from './credits.repository';
import type { PaymentsRepository, ReversalStatus, StripePaymentRef } from './payments.repository';
import type { SubscriptionsRepository } from './subscriptions.repository';

interface Deps {
  now: () => Date;
  payments: PaymentsRepository;
  subscriptions: SubscriptionsRepository;
  credits: CreditsRepository;
}

/** What a reversal ended besides boosts and weekends: the Stripe subscription to stop billing. */
export interface Reversed {
  endedSubscriptionId: string | null;
}

/**
 * Refunds and disputes take back what their payment bought: boosts, a weekend, or the plan a
 * subscription invoice paid for. One that arrives before its payment waits and is applied when
 * the payment is recorded, so the order Stripe delivers them in does not change the end state
 * (docs/decisions/013-payments-and-refunds.md). Every call runs in the caller's transaction.
 */
export function reversals({ now, payments, subscriptions, credits }: Deps) {
  /**
   * Serialises a payment and its reversal arriving at once: each side locks the ids it knows
   * before looking for the other, so neither can miss a row the other has not committed yet.
   */
  const lock = (tx: Executor, ref: StripePaymentRef) =>
    payments.lockKeys([ref.paymentIntentId && `pi:${ref.paymentIntentId}`, ref.invoiceId && `in:${ref.invoiceId}`], tx);

  /** Ends a Stripe subscription whose invoice was taken back; later events cannot revive it. */
  const endSubscription = async (tx: Executor, stripeSubscriptionId: string, userId: number | null) => {
    await payments.lockKeys([`sub:${stripeSubscriptionId}`], tx);
    const ended = await subscriptions.endStripe(stripeSubscriptionId, now(), tx);
    for (const userIdOf of new Set([...ended.map((e) => e.userId), ...(userId ? [userId] : [])]))
      await subscriptions.refreshUserPlan(userIdOf, now(), tx);
  };

  /** Takes back the boosts, weekend or plan a payment bought; counters follow the remaining rows. */
  const revoke = async (tx: Executor, paymentId: number, status: ReversalStatus): Promise<Reversed> => {
    const payment = await payments.markReversed(paymentId, status, tx);
    const revoked = await credits.revokeBoostsOfPayment(paymentId, now(), tx);
    for (const b of revoked) await credits.takeBackBoosts(b.serverId, b.amount, tx);
    await credits.revokeWeekendOfPayment(paymentId, tx);
    if (payment.type === 'subscription' && payment.stripeSubscriptionId) {
      await endSubscription(tx, payment.stripeSubscriptionId, payment.userId);
      return { endedSubscriptionId: payment.stripeSubscriptionId };
    }
    return { endedSubscriptionId: null };
  };

  return {
    revoke,
    lock,

    /**
     * A refund or dispute from Stripe, named by its payment intent and, for a subscription
     * invoice, the invoice. A payment not recorded yet gets the reversal when it is. A dispute
     * whose close in our favour arrived first takes nothing (docs/decisions/056-dispute-won.md).
     */
    async reverse(tx: Executor, ref: StripePaymentRef, status: ReversalStatus, disputeId?: string | null): Promise<Reversed> {
      const none = { endedSubscriptionId: null };
      if (!ref.paymentIntentId && !ref.invoiceId) return none;
      await lock(tx, ref);
      if (status === 'disputed' && disputeId && (await payments.disputeClosedInOurFavour(disputeId, tx))) return none;
      const payment = await payments.findForUpdate(ref, tx);
      if (payment?.status === 'paid') return revoke(tx, payment.id, status);
      // A disputed payment refunded too: nothing more to take back, but the money went back, so
      // winning the dispute later must give nothing back.
      if (payment?.status === 'disputed' && status === 'refunded') await payments.markReversed(payment.id, 'refunded', tx);
      if (!payment) await payments.recordWaitingReversal(ref, status, tx);
      return none;
    },

    /** Applies a reversal that arrived before this payment (called after `lock` and recording it). */
    async applyWaiting(tx: Executor, payment: { id: number } & StripePaymentRef): Promise<Reversed> {
      if (!payment.paymentIntentId && !payment.invoiceId) return { endedSubscriptionId: null };
      const waiting = await payments.takeWaitingReversals(payment, tx);
      if (waiting.length === 0) return { endedSubscriptionId: null };
      // A refund outweighs a dispute in the record: the money went back, so winning the dispute
      // later must give nothing back.
      return revoke(tx, payment.id, waiting.some((w) => w.status === 'refunded') ? 'refunded' : 'disputed');
    },

    /** True when a payment of this Stripe subscription was taken back: it must stay ended. */
    subscriptionReversed: (tx: Executor, stripeSubscriptionId: string) => payments.subscriptionReversed(stripeSubscriptionId, tx),
  };
}

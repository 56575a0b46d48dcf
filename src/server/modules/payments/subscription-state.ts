import type { Executor } from '../../db/transaction';
import type { PaymentsRepository } from './payments.repository';
import type { Reversed, reversals } from './reversals';
import type { SubscriptionsRepository } from './subscriptions.repository';

interface Deps {
  now: () => Date;
  payments: PaymentsRepository;
  subscriptions: SubscriptionsRepository;
  reversal: Pick<ReturnType<typeof reversals>, 'lock' | 'applyWaiting' | 'subscriptionReversed'>;
  refreshPlan: (tx: Executor, userId: number) => Promise<void>;
}

/** A subscription's state as an event or a payment reports it. */
export interface SubscriptionChange {
  userId: number;
  plan: 'Pro' | 'Premium';
  status: 'active' | 'past_due' | 'canceled';
  stripeSubscriptionId: string | null;
  eventAt: Date;
  currentPeriodEnd?: Date | null;
}

/** A paid Stripe subscription invoice. */
export interface PaidInvoice {
  invoiceId: string;
  stripeSubscriptionId: string | null;
  paymentIntentId: string | null;
  amountCents: number;
  userId: number | null;
  plan: 'Pro' | 'Premium' | null;
  eventAt: Date;
}

/** Subscription state and invoices, inside the fulfilment service's transactions. */
export function subscriptionState({ now, payments, subscriptions, reversal, refreshPlan }: Deps) {
  /**
   * Records a subscription's state. Events carry their time: a state older than the one stored
   * is ignored, so deleted-before-created ends canceled whatever the order of arrival. A
   * subscription with a refunded or disputed invoice stays canceled whatever Stripe says next.
   */
  const applySubscription = async (tx: Executor, s: SubscriptionChange): Promise<void> => {
    const at = now();
    const stripeId = s.stripeSubscriptionId;
    if (stripeId) {
      await payments.lockKeys([`sub:${stripeId}`], tx);
      if (s.status !== 'canceled' && (await reversal.subscriptionReversed(tx, stripeId))) s = { ...s, status: 'canceled' };
      const existing = await subscriptions.findByStripeId(stripeId, tx);
      if (existing && existing.lastEventAt && existing.lastEventAt > s.eventAt) return;
      if (existing?.status === 'canceled' && existing.lastEventAt && existing.lastEventAt.getTime() === s.eventAt.getTime()) return;
      if (existing) {
        await subscriptions.update(
          existing.id,
          {
            plan: s.plan,
            status: s.status,
            lastEventAt: s.eventAt,
            updatedAt: at,
            currentPeriodEnd: s.currentPeriodEnd ?? existing.currentPeriodEnd,
            canceledAt: s.status === 'canceled' ? at : null,
          },
          tx,
        );
      } else {
        await subscriptions.insertStripe(
          {
            userId: s.userId,
            plan: s.plan,
            status: s.status,
            stripeSubscriptionId: stripeId,
            lastEventAt: s.eventAt,
            currentPeriodEnd: s.currentPeriodEnd ?? null,
            canceledAt: s.status === 'canceled' ? at : null,
            createdAt: at,
            updatedAt: at,
          },
          tx,
        );
      }
    } else {
      // The test checkout: one local subscription a user, replaced by a new plan.
      await subscriptions.cancelAllOf(s.userId, at, tx);
      await subscriptions.insertLocal(
        {
          userId: s.userId,
          plan: s.plan,
          status: s.status,
          stripeSubscriptionId: null,
          lastEventAt: s.eventAt,
          currentPeriodEnd: s.currentPeriodEnd ?? new Date(at.getTime() + 30 * 86400_000),
          createdAt: at,
          updatedAt: at,
        },
        tx,
      );
    }
    await refreshPlan(tx, s.userId);
  };

  /**
   * A paid Stripe subscription invoice: one payment row per invoice, tied to its subscription so
   * a refund can end the plan, and the plan active from now (the first invoice of a checkout
   * paid by a delayed method activates it here). Returns what a waiting reversal ended.
   */
  const recordInvoice = async (tx: Executor, inv: PaidInvoice): Promise<Reversed> => {
    const none: Reversed = { endedSubscriptionId: null };
    await reversal.lock(tx, { paymentIntentId: inv.paymentIntentId, invoiceId: inv.invoiceId });
    const sub = inv.stripeSubscriptionId ? await subscriptions.findOwnerByStripeId(inv.stripeSubscriptionId, tx) : undefined;
    const userId = sub?.userId ?? inv.userId;
    if (!userId || !(await subscriptions.userExists(userId, tx))) return none;
    const payment = await payments.insertInvoice(
      {
        userId,
        type: 'subscription',
        amountCents: inv.amountCents,
        stripeInvoiceId: inv.invoiceId,
        stripePaymentIntentId: inv.paymentIntentId,
        stripeSubscriptionId: inv.stripeSubscriptionId,
        createdAt: inv.eventAt,
      },
      tx,
    );
    if (!payment) return none;
    const reversed = await reversal.applyWaiting(tx, { id: payment.id, paymentIntentId: inv.paymentIntentId, invoiceId: inv.invoiceId });
    const plan = sub?.plan ?? inv.plan;
    if (!reversed.endedSubscriptionId && inv.stripeSubscriptionId && plan)
      await applySubscription(tx, {
        userId,
        plan,
        status: 'active',
        stripeSubscriptionId: inv.stripeSubscriptionId,
        eventAt: inv.eventAt,
      });
    return reversed;
  };

  return { applySubscription, recordInvoice };
}

import type { PaymentType } from '../../db/schema';
import type { Executor, InTransaction, Tx } from '../../db/transaction';
import type { CheckoutsRepository } from './checkouts.repository';
import type { BoostCredit, CreditsRepository } from './credits.repository';
import type { PaymentsRepository } from './payments.repository';
import type { SubscriptionsRepository } from './subscriptions.repository';
import { reversals, type Reversed } from './reversals';
import { subscriptionState } from './subscription-state';
import { weekendCalendar } from './weekends';
import { wonDisputes } from './won-disputes';

interface Deps {
  checkouts: CheckoutsRepository;
  payments: PaymentsRepository;
  subscriptions: SubscriptionsRepository;
  credits: CreditsRepository;
  inTransaction: InTransaction;
  now: () => Date;
  onChange: () => void;
}

export interface FulfilResult {
  /** False when this checkout was already fulfilled (or is not open): nothing was credited now. */
  credited: boolean;
  returnPath: string;
  /** The weekend booked now, for a Server of the Weekend purchase. */
  weekendStart?: string | null;
}

/** A webhook event: its id is stored with its effect, so it applies once. */
type EventRef = { id: string; type: string };

/**
 * The one place money turns into boosts, plans and weekends, for the built-in test checkout and
 * for verified Stripe webhooks alike (docs/decisions/008-one-fulfilment-path.md). Every credit
 * runs in one transaction with the check that makes it happen once: the checkout row moves from
 * open to complete, and a webhook's event id is stored in the same transaction.
 */
export function fulfilmentService({ checkouts, payments, subscriptions, credits, inTransaction, now, onChange }: Deps) {
  /** Stores a webhook event id; false when it was processed before. */
  const firstTime = async (tx: Tx, event: EventRef | undefined) => (event ? payments.recordWebhookEvent(event, tx) : true);

  /** Sets the user's plan from their newest live subscription. */
  const refreshPlan = (tx: Executor, userId: number) => subscriptions.refreshUserPlan(userId, now(), tx);

  /** Adds boosts to a server, in the caller's transaction. */
  const creditBoosts = (tx: Executor, boost: BoostCredit) => credits.creditBoosts(boost, now(), tx);

  const reversal = reversals({ now, payments, subscriptions, credits });
  const weekends = weekendCalendar(credits);
  const { applySubscription, recordInvoice } = subscriptionState({ now, payments, subscriptions, reversal, refreshPlan });
  const disputes = wonDisputes({ now, checkouts, payments, subscriptions, credits, weekends, reversal, refreshPlan });

  return {
    creditBoosts,

    /**
     * Fulfils a checkout once: payment row, then the effect of its kind. `event` is the webhook
     * event that confirmed it (absent for the test checkout); `paymentIntentId` links refunds.
     */
    async fulfil(
      checkoutId: string,
      options: {
        event?: EventRef;
        paymentIntentId?: string | null;
        stripeSubscriptionId?: string | null;
        eventAt?: Date;
      } = {},
    ): Promise<FulfilResult | undefined> {
      const result = await inTransaction(async (tx) => {
        if (!(await firstTime(tx, options.event))) return undefined;
        const session = await checkouts.completeOpen(
          checkoutId,
          { completedAt: now(), paymentIntentId: options.paymentIntentId ?? null },
          tx,
        );
        if (!session) {
          const existing = await checkouts.findReturnPath(checkoutId, tx);
          return existing ? { credited: false, returnPath: existing.returnPath } : undefined;
        }
        const kind: PaymentType = session.kind;
        const intentId = options.paymentIntentId ?? null;
        await reversal.lock(tx, { paymentIntentId: intentId, invoiceId: null });
        // Subscription payments through Stripe are recorded from invoice.paid (one row per invoice).
        const payment =
          kind === 'subscription' && session.provider === 'stripe'
            ? undefined
            : await payments.insert(
                {
                  userId: session.userId,
                  serverId: session.serverId,
                  checkoutSessionId: session.id,
                  type: kind,
                  amountCents: session.amountCents,
                  stripePaymentIntentId: intentId,
                  createdAt: now(),
                },
                tx,
              );
        let weekendStart: string | null = null;
        if ((kind === 'playerBoost' || kind === 'ownerBoost') && session.serverId) {
          await creditBoosts(tx, {
            serverId: session.serverId,
            userId: session.userId,
            paymentId: payment?.id ?? null,
            amount: session.quantity,
            source: kind === 'playerBoost' ? 'player' : 'owner',
          });
        } else if (kind === 'serverOfTheWeekend' && session.serverId && payment) {
          weekendStart = await weekends.book(
            { serverId: session.serverId, userId: session.userId, paymentId: payment.id },
            now(),
            session.weekendStart,
            tx,
          );
        } else if (kind === 'subscription' && session.plan) {
          await applySubscription(tx, {
            userId: session.userId,
            plan: session.plan,
            status: 'active',
            stripeSubscriptionId: options.stripeSubscriptionId ?? null,
            eventAt: options.eventAt ?? now(),
          });
        }
        // A refund or dispute Stripe delivered before this payment takes it back at once.
        if (payment) await reversal.applyWaiting(tx, { id: payment.id, paymentIntentId: intentId, invoiceId: null });
        return { credited: true, returnPath: session.returnPath, weekendStart };
      });
      if (result?.credited) onChange();
      return result;
    },

    applySubscription,
    recordInvoice,

    /** Runs `apply` once per webhook event id, inside the transaction that records it. */
    async once(event: EventRef, apply: (tx: Tx) => Promise<void>): Promise<boolean> {
      const done = await inTransaction(async (tx) => {
        if (!(await firstTime(tx, event))) return false;
        await apply(tx);
        return true;
      });
      if (done) onChange();
      return done;
    },

    /** True when a payment with this Stripe payment intent is recorded. */
    knowsIntent: (paymentIntentId: string): Promise<boolean> => payments.hasPaymentIntent(paymentIntentId),

    /** Takes back what a payment bought (see `reversals`). */
    revoke: reversal.revoke,
    /** A refund or dispute from Stripe, applied now or when its payment is recorded. */
    reverse: reversal.reverse,
    /** A dispute closed: one won gives back what its payment bought (see `wonDisputes`). */
    closeDispute: disputes.close,

    /**
     * Ends the plans given back after a won dispute whose paid period is over; answers how many.
     * Something must call it regularly (hourly is enough): nothing else ends such a plan.
     */
    async endLapsedPlans(): Promise<number> {
      const ended = await inTransaction((tx) => disputes.endLapsedPlans(tx));
      if (ended > 0) onChange();
      return ended;
    },
    refreshPlan,
  };
}

export type FulfilmentService = ReturnType<typeof fulfilmentService>;
export type { Reversed };

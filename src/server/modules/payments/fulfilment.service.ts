import type { Kysely } from 'kysely';
import type { Database, PaymentType } from '../../db/schema';
import { bookWeekend } from './weekends';
import { lockKeys, reversals, type Reversed } from './reversals';

interface Deps {
  db: Kysely<Database>;
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

/**
 * The one place money turns into boosts, plans and weekends (decisions §6), for the built-in
 * test checkout and for verified Stripe webhooks alike. Every credit runs in one transaction with
 * the check that makes it happen once: the checkout row moves from open to complete, and a
 * webhook's event id is stored in the same transaction.
 */
export function fulfilmentService({ db, now, onChange }: Deps) {
  /** Stores a webhook event id; false when it was processed before. */
  const firstTime = async (trx: Kysely<Database>, event: { id: string; type: string } | undefined) => {
    if (!event) return true;
    const row = await trx
      .insertInto('webhookEvents')
      .values({ id: event.id, type: event.type })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return Boolean(row);
  };

  /** Sets the user's plan from their newest live subscription. */
  const refreshPlan = async (trx: Kysely<Database>, userId: number) => {
    const live = await trx
      .selectFrom('subscriptions')
      .select('plan')
      .where('userId', '=', userId)
      .where('status', 'in', ['active', 'past_due'])
      .orderBy('updatedAt', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    await trx
      .updateTable('users')
      .set({ subscriptionPlan: live?.plan ?? '', updatedAt: now() })
      .where('id', '=', userId)
      .execute();
  };

  const creditBoosts = async (
    trx: Kysely<Database>,
    b: { serverId: number; userId: number; paymentId: number | null; amount: number; source: 'player' | 'owner' | 'premium_credit' },
  ) => {
    const at = now();
    await trx
      .insertInto('boosts')
      .values({ ...b, createdAt: at })
      .execute();
    await trx
      .updateTable('servers')
      .set((eb) => ({ totalBoosts: eb('totalBoosts', '+', b.amount), lastBoostedAt: at }))
      .where('id', '=', b.serverId)
      .execute();
  };

  const reversal = reversals({ now, refreshPlan });

  return {
    creditBoosts,

    /**
     * Fulfils a checkout once: payment row, then the effect of its kind. `event` is the webhook
     * event that confirmed it (absent for the test checkout); `paymentIntentId` links refunds.
     */
    async fulfil(
      checkoutId: string,
      options: {
        event?: { id: string; type: string };
        paymentIntentId?: string | null;
        stripeSubscriptionId?: string | null;
        eventAt?: Date;
      } = {},
    ): Promise<FulfilResult | undefined> {
      const result = await db.transaction().execute(async (trx) => {
        if (!(await firstTime(trx, options.event))) return undefined;
        const session = await trx
          .updateTable('checkoutSessions')
          .set({ status: 'complete', completedAt: now(), stripePaymentIntentId: options.paymentIntentId ?? null })
          .where('id', '=', checkoutId)
          .where('status', '=', 'open')
          .returningAll()
          .executeTakeFirst();
        if (!session) {
          const existing = await trx.selectFrom('checkoutSessions').select('returnPath').where('id', '=', checkoutId).executeTakeFirst();
          return existing ? { credited: false, returnPath: existing.returnPath } : undefined;
        }
        const kind: PaymentType = session.kind;
        const intentId = options.paymentIntentId ?? null;
        await reversal.lock(trx, { paymentIntentId: intentId, invoiceId: null });
        // Subscription payments through Stripe are recorded from invoice.paid (one row per invoice).
        const payment =
          kind === 'subscription' && session.provider === 'stripe'
            ? undefined
            : await trx
                .insertInto('payments')
                .values({
                  userId: session.userId,
                  serverId: session.serverId,
                  checkoutSessionId: session.id,
                  type: kind,
                  amountCents: session.amountCents,
                  stripePaymentIntentId: intentId,
                  createdAt: now(),
                })
                .returning('id')
                .executeTakeFirstOrThrow();
        let weekendStart: string | null = null;
        if ((kind === 'playerBoost' || kind === 'ownerBoost') && session.serverId) {
          await creditBoosts(trx, {
            serverId: session.serverId,
            userId: session.userId,
            paymentId: payment?.id ?? null,
            amount: session.quantity,
            source: kind === 'playerBoost' ? 'player' : 'owner',
          });
        } else if (kind === 'serverOfTheWeekend' && session.serverId && payment) {
          weekendStart = await bookWeekend(
            trx,
            { serverId: session.serverId, userId: session.userId, paymentId: payment.id },
            now(),
            session.weekendStart,
          );
        } else if (kind === 'subscription' && session.plan) {
          await this.applySubscription(trx, {
            userId: session.userId,
            plan: session.plan,
            status: 'active',
            stripeSubscriptionId: options.stripeSubscriptionId ?? null,
            eventAt: options.eventAt ?? now(),
          });
        }
        // A refund or dispute Stripe delivered before this payment takes it back at once.
        if (payment) await reversal.applyWaiting(trx, { id: payment.id, paymentIntentId: intentId, invoiceId: null });
        return { credited: true, returnPath: session.returnPath, weekendStart };
      });
      if (result?.credited) onChange();
      return result;
    },

    /**
     * Records a subscription's state. Events carry their time: a state older than the one stored
     * is ignored, so deleted-before-created ends canceled whatever the order of arrival. A
     * subscription with a refunded or disputed invoice stays canceled whatever Stripe says next.
     */
    async applySubscription(
      trx: Kysely<Database>,
      s: {
        userId: number;
        plan: 'Pro' | 'Premium';
        status: 'active' | 'past_due' | 'canceled';
        stripeSubscriptionId: string | null;
        eventAt: Date;
        currentPeriodEnd?: Date | null;
      },
    ): Promise<void> {
      const at = now();
      if (s.stripeSubscriptionId) {
        await lockKeys(trx, [`sub:${s.stripeSubscriptionId}`]);
        if (s.status !== 'canceled' && (await reversal.subscriptionReversed(trx, s.stripeSubscriptionId))) s = { ...s, status: 'canceled' };
        const existing = await trx
          .selectFrom('subscriptions')
          .selectAll()
          .where('stripeSubscriptionId', '=', s.stripeSubscriptionId)
          .executeTakeFirst();
        if (existing && existing.lastEventAt && existing.lastEventAt > s.eventAt) return;
        if (existing?.status === 'canceled' && existing.lastEventAt && existing.lastEventAt.getTime() === s.eventAt.getTime()) return;
        if (existing) {
          await trx
            .updateTable('subscriptions')
            .set({
              plan: s.plan,
              status: s.status,
              lastEventAt: s.eventAt,
              updatedAt: at,
              currentPeriodEnd: s.currentPeriodEnd ?? existing.currentPeriodEnd,
              canceledAt: s.status === 'canceled' ? at : null,
            })
            .where('id', '=', existing.id)
            .execute();
        } else {
          await trx
            .insertInto('subscriptions')
            .values({
              userId: s.userId,
              plan: s.plan,
              status: s.status,
              stripeSubscriptionId: s.stripeSubscriptionId,
              lastEventAt: s.eventAt,
              currentPeriodEnd: s.currentPeriodEnd ?? null,
              canceledAt: s.status === 'canceled' ? at : null,
              createdAt: at,
              updatedAt: at,
            })
            .onConflict((oc) => oc.column('stripeSubscriptionId').doNothing())
            .execute();
        }
      } else {
        // The test checkout: one local subscription a user, replaced by a new plan.
        await trx
          .updateTable('subscriptions')
          .set({ status: 'canceled', canceledAt: at, updatedAt: at })
          .where('userId', '=', s.userId)
          .where('status', '!=', 'canceled')
          .execute();
        await trx
          .insertInto('subscriptions')
          .values({
            userId: s.userId,
            plan: s.plan,
            status: s.status,
            stripeSubscriptionId: null,
            lastEventAt: s.eventAt,
            currentPeriodEnd: s.currentPeriodEnd ?? new Date(at.getTime() + 30 * 86400_000),
            createdAt: at,
            updatedAt: at,
          })
          .execute();
      }
      await refreshPlan(trx, s.userId);
    },

    /**
     * A paid Stripe subscription invoice: one payment row per invoice, tied to its subscription so
     * a refund can end the plan, and the plan active from now (the first invoice of a checkout
     * paid by a delayed method activates it here). Returns what a waiting reversal ended.
     */
    async recordInvoice(
      trx: Kysely<Database>,
      inv: {
        invoiceId: string;
        stripeSubscriptionId: string | null;
        paymentIntentId: string | null;
        amountCents: number;
        userId: number | null;
        plan: 'Pro' | 'Premium' | null;
        eventAt: Date;
      },
    ): Promise<Reversed> {
      const none: Reversed = { endedSubscriptionId: null };
      await reversal.lock(trx, { paymentIntentId: inv.paymentIntentId, invoiceId: inv.invoiceId });
      const sub = inv.stripeSubscriptionId
        ? await trx
            .selectFrom('subscriptions')
            .select(['userId', 'plan'])
            .where('stripeSubscriptionId', '=', inv.stripeSubscriptionId)
            .executeTakeFirst()
        : undefined;
      const userId = sub?.userId ?? inv.userId;
      const user = userId ? await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst() : undefined;
      if (!user) return none;
      const payment = await trx
        .insertInto('payments')
        .values({
          userId: user.id,
          type: 'subscription',
          amountCents: inv.amountCents,
          stripeInvoiceId: inv.invoiceId,
          stripePaymentIntentId: inv.paymentIntentId,
          stripeSubscriptionId: inv.stripeSubscriptionId,
          createdAt: inv.eventAt,
        })
        .onConflict((oc) => oc.column('stripeInvoiceId').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!payment) return none;
      const reversed = await reversal.applyWaiting(trx, { id: payment.id, paymentIntentId: inv.paymentIntentId, invoiceId: inv.invoiceId });
      const plan = sub?.plan ?? inv.plan;
      if (!reversed.endedSubscriptionId && inv.stripeSubscriptionId && plan)
        await this.applySubscription(trx, {
          userId: user.id,
          plan,
          status: 'active',
          stripeSubscriptionId: inv.stripeSubscriptionId,
          eventAt: inv.eventAt,
        });
      return reversed;
    },

    /** Runs `apply` once per webhook event id, inside the transaction that records it. */
    async once(event: { id: string; type: string }, apply: (trx: Kysely<Database>) => Promise<void>): Promise<boolean> {
      const done = await db.transaction().execute(async (trx) => {
        if (!(await firstTime(trx, event))) return false;
        await apply(trx);
        return true;
      });
      if (done) onChange();
      return done;
    },

    /** True when a payment with this Stripe payment intent is recorded. */
    async knowsIntent(paymentIntentId: string): Promise<boolean> {
      const row = await db.selectFrom('payments').select('id').where('stripePaymentIntentId', '=', paymentIntentId).executeTakeFirst();
      return Boolean(row);
    },

    revoke: reversal.revoke,
    reverse: reversal.reverse,
    refreshPlan,
  };
}

export type FulfilmentService = ReturnType<typeof fulfilmentService>;

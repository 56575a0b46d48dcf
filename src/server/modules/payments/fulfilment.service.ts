import { sql, type Kysely } from 'kysely';
import type { Database, PaymentType } from '../../db/schema';
import { bookWeekend } from './weekends';

interface Deps {
  db: Kysely<Database>;
  now: () => Date;
  onChange: () => void;
}

export interface FulfilResult {
  /** False when this checkout was already fulfilled (or is not open): nothing was credited now. */
  credited: boolean;
  returnPath: string;
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

  /** Takes back the boosts and weekend a payment bought; counters follow the remaining rows. */
  const revoke = async (trx: Kysely<Database>, paymentId: number, status: 'refunded' | 'disputed') => {
    await trx.updateTable('payments').set({ status }).where('id', '=', paymentId).execute();
    const revoked = await trx
      .updateTable('boosts')
      .set({ revokedAt: now() })
      .where('paymentId', '=', paymentId)
      .where('revokedAt', 'is', null)
      .returning(['serverId', 'amount'])
      .execute();
    for (const b of revoked) {
      await trx
        .updateTable('servers')
        .set((eb) => ({
          totalBoosts: sql<number>`greatest(${eb.ref('totalBoosts')} - ${b.amount}, 0)`,
          lastBoostedAt: eb
            .selectFrom('boosts')
            .select((x) => x.fn.max('createdAt').as('m'))
            .where('boosts.serverId', '=', b.serverId)
            .where('boosts.revokedAt', 'is', null),
        }))
        .where('id', '=', b.serverId)
        .execute();
    }
    await trx
      .updateTable('weekendBookings')
      .set({ status: 'revoked' })
      .where('paymentId', '=', paymentId)
      .where('status', '=', 'active')
      .execute();
  };

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
                  stripePaymentIntentId: options.paymentIntentId ?? null,
                  createdAt: now(),
                })
                .returning('id')
                .executeTakeFirstOrThrow();
        if ((kind === 'playerBoost' || kind === 'ownerBoost') && session.serverId) {
          await creditBoosts(trx, {
            serverId: session.serverId,
            userId: session.userId,
            paymentId: payment?.id ?? null,
            amount: session.quantity,
            source: kind === 'playerBoost' ? 'player' : 'owner',
          });
        } else if (kind === 'serverOfTheWeekend' && session.serverId && payment) {
          await bookWeekend(trx, { serverId: session.serverId, userId: session.userId, paymentId: payment.id }, now());
        } else if (kind === 'subscription' && session.plan) {
          await this.applySubscription(trx, {
            userId: session.userId,
            plan: session.plan,
            status: 'active',
            stripeSubscriptionId: options.stripeSubscriptionId ?? null,
            eventAt: options.eventAt ?? now(),
          });
        }
        return { credited: true, returnPath: session.returnPath };
      });
      if (result?.credited) onChange();
      return result;
    },

    /**
     * Records a subscription's state. Events carry their time: a state older than the one stored
     * is ignored, so deleted-before-created ends canceled whatever the order of arrival.
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

    revoke,
    refreshPlan,
  };
}

export type FulfilmentService = ReturnType<typeof fulfilmentService>;

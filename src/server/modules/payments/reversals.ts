import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Transaction-scoped advisory locks on names (payment intent, invoice, subscription ids), taken in
 * one order: rows that do not exist yet cannot be locked with FOR UPDATE.
 */
export async function lockKeys(trx: Kysely<Database>, keys: Array<string | null | false>): Promise<void> {
  for (const key of keys.filter((k): k is string => Boolean(k)).sort())
    await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

type ReversalStatus = 'refunded' | 'disputed';

interface Deps {
  now: () => Date;
  /** Sets a user's plan from their live subscriptions. */
  refreshPlan: (trx: Kysely<Database>, userId: number) => Promise<void>;
}

/** What a reversal ended besides boosts and weekends: the Stripe subscription to stop billing. */
export interface Reversed {
  endedSubscriptionId: string | null;
}

/**
 * Refunds and disputes take back what their payment bought: boosts, a weekend, or the plan a
 * subscription invoice paid for. One that arrives before its payment waits and is applied when
 * the payment is recorded, so the order Stripe delivers them in does not change the end state.
 */
export function reversals({ now, refreshPlan }: Deps) {
  /**
   * Serialises a payment and its reversal arriving at once: each side locks the ids it knows
   * before looking for the other, so neither can miss a row the other has not committed yet.
   */
  const lock = (trx: Kysely<Database>, ref: { paymentIntentId: string | null; invoiceId: string | null }) =>
    lockKeys(trx, [ref.paymentIntentId && `pi:${ref.paymentIntentId}`, ref.invoiceId && `in:${ref.invoiceId}`]);

  /** Ends a Stripe subscription whose invoice was taken back; later events cannot revive it. */
  const endSubscription = async (trx: Kysely<Database>, stripeSubscriptionId: string, userId: number | null) => {
    await lockKeys(trx, [`sub:${stripeSubscriptionId}`]);
    const at = now();
    const ended = await trx
      .updateTable('subscriptions')
      .set({ status: 'canceled', canceledAt: at, updatedAt: at })
      .where('stripeSubscriptionId', '=', stripeSubscriptionId)
      .where('status', '!=', 'canceled')
      .returning('userId')
      .execute();
    for (const userIdOf of new Set([...ended.map((e) => e.userId), ...(userId ? [userId] : [])])) await refreshPlan(trx, userIdOf);
  };

  /** Takes back the boosts, weekend or plan a payment bought; counters follow the remaining rows. */
  const revoke = async (trx: Kysely<Database>, paymentId: number, status: ReversalStatus): Promise<Reversed> => {
    const payment = await trx
      .updateTable('payments')
      .set({ status })
      .where('id', '=', paymentId)
      .returning(['type', 'userId', 'stripeSubscriptionId'])
      .executeTakeFirstOrThrow();
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
    if (payment.type === 'subscription' && payment.stripeSubscriptionId) {
      await endSubscription(trx, payment.stripeSubscriptionId, payment.userId);
      return { endedSubscriptionId: payment.stripeSubscriptionId };
    }
    return { endedSubscriptionId: null };
  };

  return {
    revoke,
    lock,

    /**
     * A refund or dispute from Stripe, named by its payment intent and, for a subscription
     * invoice, the invoice. A payment not recorded yet gets the reversal when it is.
     */
    async reverse(
      trx: Kysely<Database>,
      ref: { paymentIntentId: string | null; invoiceId: string | null },
      status: ReversalStatus,
    ): Promise<Reversed> {
      if (!ref.paymentIntentId && !ref.invoiceId) return { endedSubscriptionId: null };
      await lock(trx, ref);
      const payment = await trx
        .selectFrom('payments')
        .select(['id', 'status'])
        .where((eb) =>
          eb.or([
            ...(ref.paymentIntentId ? [eb('stripePaymentIntentId', '=', ref.paymentIntentId)] : []),
            ...(ref.invoiceId ? [eb('stripeInvoiceId', '=', ref.invoiceId)] : []),
          ]),
        )
        .forUpdate()
        .executeTakeFirst();
      if (payment) return payment.status === 'paid' ? revoke(trx, payment.id, status) : { endedSubscriptionId: null };
      await trx
        .insertInto('paymentReversals')
        .values({ stripePaymentIntentId: ref.paymentIntentId, stripeInvoiceId: ref.invoiceId, status })
        .execute();
      return { endedSubscriptionId: null };
    },

    /** Applies a reversal that arrived before this payment (called after `lock` and recording it). */
    async applyWaiting(
      trx: Kysely<Database>,
      payment: { id: number; paymentIntentId: string | null; invoiceId: string | null },
    ): Promise<Reversed> {
      if (!payment.paymentIntentId && !payment.invoiceId) return { endedSubscriptionId: null };
      const waiting = await trx
        .deleteFrom('paymentReversals')
        .where((eb) =>
          eb.or([
            ...(payment.paymentIntentId ? [eb('stripePaymentIntentId', '=', payment.paymentIntentId)] : []),
            ...(payment.invoiceId ? [eb('stripeInvoiceId', '=', payment.invoiceId)] : []),
          ]),
        )
        .returning('status')
        .execute();
      if (waiting.length === 0) return { endedSubscriptionId: null };
      // A dispute outweighs a refund in the record: it is the one the bank is still deciding.
      return revoke(trx, payment.id, waiting.some((w) => w.status === 'disputed') ? 'disputed' : 'refunded');
    },

    /** True when a payment of this Stripe subscription was taken back: it must stay ended. */
    async subscriptionReversed(trx: Kysely<Database>, stripeSubscriptionId: string): Promise<boolean> {
      const row = await trx
        .selectFrom('payments')
        .select('id')
        .where('stripeSubscriptionId', '=', stripeSubscriptionId)
        .where('status', '!=', 'paid')
        .executeTakeFirst();
      return Boolean(row);
    },
  };
}

import { sql, type ExpressionBuilder, type Insertable, type Kysely } from 'kysely';
import type { Database, PaymentsTable } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import type { Payment } from '../../../shared/schemas/payments';
import { centsToDollars } from '../../../shared/limits';
import { toApiId } from '../../lib/ids';
import { pageTotal } from '../../lib/paging';
import { IN_OUR_FAVOUR } from './dispute-outcomes';

/** How Stripe names a payment: its payment intent and, for a subscription invoice, the invoice. */
export interface StripePaymentRef {
  paymentIntentId: string | null;
  invoiceId: string | null;
}

export type ReversalStatus = 'refunded' | 'disputed';

/** Rows of a table with both Stripe id columns that `ref` names (by either id it has). */
const namedBy = (ref: StripePaymentRef) => (eb: ExpressionBuilder<Database, 'payments' | 'paymentReversals'>) =>
  eb.or([
    ...(ref.paymentIntentId ? [eb('stripePaymentIntentId', '=', ref.paymentIntentId)] : []),
    ...(ref.invoiceId ? [eb('stripeInvoiceId', '=', ref.invoiceId)] : []),
  ]);

/** Payment rows, reversals waiting for their payment, processed webhook events, and the locks between them. */
export function paymentsRepository(db: Kysely<Database>) {
  return {
    /**
     * Transaction-scoped advisory locks on names (payment intent, invoice, subscription ids), taken
     * in one order: rows that do not exist yet cannot be locked with FOR UPDATE.
     */
    async lockKeys(keys: Array<string | null | false>, tx: Executor = db): Promise<void> {
      for (const key of keys.filter((k): k is string => Boolean(k)).sort())
        await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(tx);
    },

    /** Stores a webhook event id; false when it was processed before. */
    async recordWebhookEvent(event: { id: string; type: string }, tx: Executor = db): Promise<boolean> {
      const row = await tx
        .insertInto('webhookEvents')
        .values({ id: event.id, type: event.type })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return Boolean(row);
    },

    /** Records a checkout's payment. */
    insert: (payment: Insertable<PaymentsTable>, tx: Executor = db) =>
      tx.insertInto('payments').values(payment).returning('id').executeTakeFirstOrThrow(),

    /** Records a subscription invoice's payment; undefined when that invoice is recorded already. */
    insertInvoice: (payment: Insertable<PaymentsTable>, tx: Executor = db) =>
      tx
        .insertInto('payments')
        .values(payment)
        .onConflict((oc) => oc.column('stripeInvoiceId').doNothing())
        .returning('id')
        .executeTakeFirst(),

    /** True when a payment with this Stripe payment intent is recorded. */
    async hasPaymentIntent(paymentIntentId: string, tx: Executor = db): Promise<boolean> {
      const row = await tx.selectFrom('payments').select('id').where('stripePaymentIntentId', '=', paymentIntentId).executeTakeFirst();
      return Boolean(row);
    },

    /** Gives a payment its reversal status; answers what it was for. */
    markReversed: (paymentId: number, status: ReversalStatus, tx: Executor = db) =>
      tx
        .updateTable('payments')
        .set({ status })
        .where('id', '=', paymentId)
        .returning(['type', 'userId', 'stripeSubscriptionId'])
        .executeTakeFirstOrThrow(),

    /** The payment Stripe names by `ref`, locked (FOR UPDATE) until the transaction ends. */
    findForUpdate: (ref: StripePaymentRef, tx: Executor = db) =>
      tx.selectFrom('payments').select(['id', 'status']).where(namedBy(ref)).forUpdate().executeTakeFirst(),

    /** Keeps a reversal whose payment is not recorded yet. */
    async recordWaitingReversal(ref: StripePaymentRef, status: ReversalStatus, tx: Executor = db): Promise<void> {
      await tx
        .insertInto('paymentReversals')
        .values({ stripePaymentIntentId: ref.paymentIntentId, stripeInvoiceId: ref.invoiceId, status })
        .execute();
    },

    /** Removes and answers the reversals that were waiting for the payment named by `ref`. */
    takeWaitingReversals: (ref: StripePaymentRef, tx: Executor = db) =>
      tx.deleteFrom('paymentReversals').where(namedBy(ref)).returning('status').execute(),

    /**
     * Moves a disputed payment back to paid (a dispute we won); answers what it was for, or
     * undefined when it was not disputed (the row lock of the update makes this happen once).
     */
    markRestored: (paymentId: number, tx: Executor = db) =>
      tx
        .updateTable('payments')
        .set({ status: 'paid' })
        .where('id', '=', paymentId)
        .where('status', '=', 'disputed')
        .returning(['type', 'userId', 'serverId', 'amountCents', 'stripeSubscriptionId', 'createdAt'])
        .executeTakeFirst(),

    /**
     * Records how a dispute ended; true when that changed its outcome: its first close, or a lost
     * dispute won on appeal. One already closed in our favour stays so.
     */
    async recordDisputeClose(dispute: { id: string; paymentIntentId: string | null; status: string }, at: Date, tx: Executor = db) {
      const row = await tx
        .insertInto('closedDisputes')
        .values({ stripeDisputeId: dispute.id, stripePaymentIntentId: dispute.paymentIntentId, status: dispute.status, closedAt: at })
        .onConflict((oc) =>
          oc
            .column('stripeDisputeId')
            .doUpdateSet({ status: dispute.status, closedAt: at })
            .where('closedDisputes.status', 'not in', [...IN_OUR_FAVOUR]),
        )
        .returning('stripeDisputeId')
        .executeTakeFirst();
      return Boolean(row);
    },

    /** True when this dispute was closed in our favour: its `created`, arriving late, takes nothing. */
    async disputeClosedInOurFavour(disputeId: string, tx: Executor = db): Promise<boolean> {
      const row = await tx
        .selectFrom('closedDisputes')
        .select('stripeDisputeId')
        .where('stripeDisputeId', '=', disputeId)
        .where('status', 'in', [...IN_OUR_FAVOUR])
        .executeTakeFirst();
      return Boolean(row);
    },

    /** Forgets the disputes waiting for the payment named by `ref` (won before it was recorded). */
    async dropWaitingDisputes(ref: StripePaymentRef, tx: Executor = db): Promise<void> {
      if (!ref.paymentIntentId && !ref.invoiceId) return;
      await tx.deleteFrom('paymentReversals').where('status', '=', 'disputed').where(namedBy(ref)).execute();
    },

    /** The language a user chose (null: English), for what the server writes to them. */
    async localeOf(userId: number, tx: Executor = db): Promise<string | null | undefined> {
      return (await tx.selectFrom('users').select('locale').where('id', '=', userId).executeTakeFirst())?.locale;
    },

    /** Puts a notice in the user's inbox. */
    async notify(userId: number, notice: { title: string; message: string; link: string }, tx: Executor = db): Promise<void> {
      await tx
        .insertInto('notifications')
        .values({ userId, ...notice })
        .execute();
    },

    /** True when a payment of this Stripe subscription was taken back. */
    async subscriptionReversed(stripeSubscriptionId: string, tx: Executor = db): Promise<boolean> {
      const row = await tx
        .selectFrom('payments')
        .select('id')
        .where('stripeSubscriptionId', '=', stripeSubscriptionId)
        .where('status', '!=', 'paid')
        .executeTakeFirst();
      return Boolean(row);
    },

    /** A page of the user's payments, newest first, and how many they have in all. */
    async historyOf(userId: number, limit: number, offset: number, tx: Executor = db): Promise<{ rows: Payment[]; total: number }> {
      const rows = await tx
        .selectFrom('payments')
        .leftJoin('servers', 'servers.id', 'payments.serverId')
        .select([
          'payments.id',
          'payments.createdAt',
          'payments.type',
          'payments.amountCents',
          'payments.serverId',
          'payments.status',
          'servers.name as serverName',
        ])
        .select((eb) => eb.fn.countAll<number>().over().as('total'))
        .where('payments.userId', '=', userId)
        .orderBy('payments.createdAt', 'desc')
        .orderBy('payments.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return {
        rows: rows.map((p) => ({
          id: toApiId(p.id),
          createdAt: p.createdAt.toISOString(),
          type: p.type,
          amount: centsToDollars(p.amountCents),
          serverId: p.serverId ? toApiId(p.serverId) : null,
          serverName: p.serverName,
          status: p.status,
        })),
        total: await pageTotal(rows, offset, async () =>
          Number(
            (
              await tx
                .selectFrom('payments')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('userId', '=', userId)
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ),
      };
    },
  };
}

export type PaymentsRepository = ReturnType<typeof paymentsRepository>;
